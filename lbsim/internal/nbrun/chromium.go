package nbrun

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Chromium is the browser used to render math, print PDFs and check reports: Debian's chromium.
const Chromium = "/usr/bin/chromium"

// chromiumTimeout bounds one page's work in Chromium (load, typeset, print, screenshot); a
// report renders in a few seconds.
const chromiumTimeout = 2 * time.Minute

// chromiumFlags start a headless Chromium that touches no network: background services off, and
// every host name resolves to nothing (--host-resolver-rules), so a page that would load
// anything from the web fails visibly here instead of working by luck. The package doc's "What
// the tests check" lists the checks. The browser is driven over the DevTools protocol on a
// loopback port (chosen by Chromium, read from its log).
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking", "--disable-component-update",
	"--disable-sync", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND",
	"--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0"}

// A process starts one Chromium, on first use, and opens every page in it: starting a browser
// costs seconds of CPU (zygote, GPU and network processes), opening a page a few milliseconds.
// Each page has a browser context of its own (an incognito profile: no cache, storage or
// cookies shared), so pages do not influence each other, as a fresh browser's did. A browser
// that died is started again on the next use; StopChromium ends it.
var shared struct {
	sync.Mutex
	b *browser
}

// browser is a running headless Chromium and the DevTools connection to it.
type browser struct {
	cmd     *exec.Cmd
	rod     *rod.Browser
	profile string
	log     *logTail      // Chromium's standard error
	exited  chan struct{} // closed when the process has ended
}

// StopChromium ends the browser this process started for its pages, if any. Call it before the
// process exits (the browser is killed with the process anyway, see startChromium).
func StopChromium() {
	shared.Lock()
	defer shared.Unlock()
	if shared.b != nil {
		shared.b.stop()
		shared.b = nil
	}
}

// sharedBrowser returns the running browser, starting one when there is none or it died.
func sharedBrowser() (*browser, error) {
	shared.Lock()
	defer shared.Unlock()
	if shared.b != nil && !shared.b.dead() {
		return shared.b, nil
	}
	if shared.b != nil {
		shared.b.stop()
		shared.b = nil
	}
	b, err := startChromium()
	if err != nil {
		return nil, err
	}
	shared.b = b
	return b, nil
}

// startChromium starts headless Chromium with a fresh profile and connects to it. The process
// and its children form a process group, killed by stop, and the kernel kills Chromium when
// this process dies (Pdeathsig).
func startChromium() (*browser, error) {
	if _, err := os.Stat(Chromium); err != nil {
		return nil, fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's chromium)", Chromium)
	}
	profile, err := os.MkdirTemp("", "nbrun-chromium-")
	if err != nil {
		return nil, err
	}
	b := &browser{profile: profile, log: &logTail{}, exited: make(chan struct{})}
	b.cmd = exec.Command(Chromium, append(chromiumFlags[:len(chromiumFlags):len(chromiumFlags)], "--user-data-dir="+profile, "about:blank")...)
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := b.cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	if err := b.cmd.Start(); err != nil {
		os.RemoveAll(profile)
		return nil, fmt.Errorf("chromium: %w", err)
	}
	// Chromium prints "DevTools listening on ws://..." once it accepts a driver.
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			b.log.add(sc.Text())
			if m := devtoolsURL.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr) // a line too long for the scanner: keep Chromium writing
		_ = b.cmd.Wait()
		close(b.exited)
	}()
	var u string
	select {
	case u = <-found:
	case <-b.exited:
		b.stop()
		return nil, fmt.Errorf("chromium exited at start (%v)%s", b.cmd.ProcessState, chromiumLog(b.log.String()))
	case <-time.After(chromiumTimeout):
		b.stop()
		return nil, fmt.Errorf("chromium printed no DevTools URL within %v (killed)%s", chromiumTimeout, chromiumLog(b.log.String()))
	}
	// No default device: pages keep Chromium's own window size, as a browser run on its own has.
	b.rod = rod.New().ControlURL(u).NoDefaultDevice()
	if err := b.rod.Connect(); err != nil {
		b.stop()
		return nil, fmt.Errorf("connecting to chromium at %s: %w%s", u, err, chromiumLog(b.log.String()))
	}
	return b, nil
}

var devtoolsURL = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

func (b *browser) dead() bool { return b.diedWithin(0) }

// diedWithin reports whether the browser has ended or ends within d (a call that failed as the
// browser died may see the broken connection before the process is gone). An ended browser is
// seen first: a select with a timer of 0 beside it would pick either at random.
func (b *browser) diedWithin(d time.Duration) bool {
	select {
	case <-b.exited:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-b.exited:
		return true
	case <-t.C:
		return false
	}
}

// stop kills the browser's process group, waits for it and removes its profile.
func (b *browser) stop() {
	if b.cmd.Process != nil {
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-b.exited:
		case <-time.After(10 * time.Second):
		}
	}
	os.RemoveAll(b.profile)
}

// pageSize is a page's viewport in CSS pixels; the zero size is Chromium's default window.
type pageSize struct{ width, height int }

// onPage opens the page at url (its name in errors) in a browser context of its own in the
// shared browser, with the given viewport, waits for its load event and runs do on it;
// the whole is bounded by chromiumTimeout. A call that fails because the browser died is
// retried once in a new browser; another failure names the page and ends with Chromium's log.
func onPage(url string, size pageSize, do func(p *rod.Page) error) error {
	var err error
	for range 2 {
		var b *browser
		if b, err = sharedBrowser(); err != nil {
			return err
		}
		if err = b.onPage(url, size, do); err == nil || !b.diedWithin(5*time.Second) {
			break
		}
		err = fmt.Errorf("%w (the browser died%s)", err, chromiumLog(b.log.String()))
	}
	if err != nil {
		return fmt.Errorf("chromium, page %s: %w", url, err)
	}
	return nil
}

func (b *browser) onPage(url string, size pageSize, do func(p *rod.Page) error) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	defer func() {
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("did not finish within %v (page closed): %w", chromiumTimeout, err)
		}
	}()
	incognito, err := b.rod.Context(ctx).Incognito()
	if err != nil {
		return err
	}
	defer func() {
		// Disposing of the context closes its page; bounded, as the page's own context may be over.
		closing, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = proto.TargetDisposeBrowserContext{BrowserContextID: incognito.BrowserContextID}.Call(b.rod.Context(closing))
	}()
	p, err := incognito.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return err
	}
	if size != (pageSize{}) {
		// The page's viewport, as --window-size gave a browser run on its own.
		view := proto.EmulationSetDeviceMetricsOverride{Width: size.width, Height: size.height, DeviceScaleFactor: 1}
		if err := view.Call(p); err != nil {
			return err
		}
	}
	// The load event of this navigation (its loader), not of the blank page the window opened with.
	if err := (proto.PageSetLifecycleEventsEnabled{Enabled: true}).Call(p); err != nil {
		return err
	}
	var nav *proto.PageNavigateResult
	loaded := p.EachEvent(func(e *proto.PageLifecycleEvent) bool {
		return e.Name == proto.PageLifecycleEventNameLoad && nav != nil && e.LoaderID == nav.LoaderID
	})
	if nav, err = (proto.PageNavigate{URL: url}).Call(p); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("opening the page: %s", nav.ErrorText)
	}
	loaded()
	if ctx.Err() != nil {
		return errors.New("the page did not load")
	}
	return do(p)
}

// evalString evaluates the JavaScript expression js in the page, awaiting it when it is a
// promise, and returns its value, which must be a string.
func evalString(p *rod.Page, js string) (string, error) {
	res, err := proto.RuntimeEvaluate{Expression: js, AwaitPromise: true, ReturnByValue: true}.Call(p)
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", fmt.Errorf("javascript %s: %s", clip(js, 80), res.ExceptionDetails.Exception.Description)
	}
	return res.Result.Value.Str(), nil
}

// waitFor waits until document.querySelector(selector) finds an element in the page, watching
// the page's changes, for at most timeout; it reports whether the element appeared.
func waitFor(p *rod.Page, selector string, timeout time.Duration) (bool, error) {
	sel, err := json.Marshal(selector)
	if err != nil {
		return false, err
	}
	got, err := evalString(p, `new Promise(done => {
  const found = () => document.querySelector(`+string(sel)+`);
  if (found()) return done("found");
  new MutationObserver((_, o) => { if (found()) { o.disconnect(); done("found"); } })
    .observe(document.documentElement, {subtree: true, childList: true, attributes: true});
  setTimeout(() => done("timeout"), `+strconv.FormatInt(timeout.Milliseconds(), 10)+`);
})`)
	return got == "found", err
}

// logTail keeps the end of a process's log: its last lines, up to logTailBytes.
type logTail struct {
	mu    sync.Mutex
	lines []string
	size  int
}

const logTailBytes = 64 << 10

func (l *logTail) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	l.size += len(line) + 1
	for l.size > logTailBytes && len(l.lines) > 1 {
		l.size -= len(l.lines[0]) + 1
		l.lines = l.lines[1:]
	}
}

func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// chromiumNoise is what Chromium logs on every run on a machine without a desktop session:
// D-Bus connection errors, which say nothing about a failure (and the shell warning of
// Debian's launcher script).
var chromiumNoise = regexp.MustCompile(`:ERROR:dbus/|^` + regexp.QuoteMeta(Chromium) + `: \d+: \[: `)

// chromiumLog is the end of Chromium's log without its noise, on lines of its own after a
// newline, or "" when nothing else was logged.
func chromiumLog(log string) string {
	var lines []string
	for _, l := range strings.Split(log, "\n") {
		if strings.TrimSpace(l) != "" && !chromiumNoise.MatchString(l) && !devtoolsURL.MatchString(l) {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "\n" + tail(strings.Join(lines, "\n"), 20)
}

// fileURL is the file:// URL of an absolute path.
func fileURL(abs string) string { return "file://" + abs }
