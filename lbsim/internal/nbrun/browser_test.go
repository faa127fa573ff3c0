package nbrun

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// explorerNotebook is the notebook driven in a real browser, relative to notebooks/.
const explorerNotebook = "08-explorer.ipynb"

// TestExplorerInBrowser opens notebook 08 in headless Chromium against a real Jupyter server
// (GoNB widgets need the server's websocket, which nbconvert lacks), runs all cells, moves the
// load slider from 0.5 to 0.9 and picks RND in the policy menu, and checks after each change
// that the figure was redrawn and the table shows the new configuration with the right theory
// (RND with exponential sizes: M/M/1 per server, W = rho/(1-rho) = 9 at rho = 0.9). It logs how
// long each change took to redraw. The notebook file must be left unchanged (autosave is off).
func TestExplorerInBrowser(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	nbDir := filepath.Join(repoRoot, "notebooks")
	before, err := os.ReadFile(filepath.Join(nbDir, explorerNotebook))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	srv, err := StartServer(ctx, nbDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("jupyter server log (end):\n%s", tail(srv.Log(), 60))
		}
	})
	page := openBrowser(t, ctx)
	if err := page.Navigate(srv.NotebookURL(explorerNotebook)); err != nil {
		t.Fatal(err)
	}
	b := &browserPage{t: t, page: page}
	b.waitFor("the notebook's kernel to connect", 2*time.Minute,
		`() => !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected())`)
	// Autosave off: running the cells must not write outputs into the repository's notebook.
	b.eval(`() => { Jupyter.notebook.set_autosave_interval(0); Jupyter.notebook.execute_all_cells(); return true; }`)

	// First run: GoNB compiles the cell (up to a few minutes on a cold build cache).
	b.waitFor("the explorer's controls and first views", 6*time.Minute,
		`() => !!document.querySelector('tr[data-control="load rho"] input[type=range]') &&
		       !!document.querySelector('.lbsim-explorer-figure img') &&
		       !!document.querySelector('.lbsim-explorer-sweep img') &&
		       (document.querySelector('.lbsim-explorer-table caption') || {}).textContent.includes('load 0.5,')`)
	start := b.view()
	if !strings.Contains(start.caption, "ll:d=2, K=100, load 0.5,") {
		t.Fatalf("first table is not for the defaults: %q", start.caption)
	}

	// Move the load slider to 0.9, as a user's drag ends: input, then change.
	loaded := b.change("load 0.5 -> 0.9", start, "load 0.9,", `() => {
		const el = document.querySelector('tr[data-control="load rho"] input[type=range]');
		el.value = 85; // Values run 0.05, 0.06, ..., 0.99
		el.dispatchEvent(new Event("input"));
		el.dispatchEvent(new Event("change"));
		return true;
	}`)
	if v := b.eval(`() => document.querySelector('tr[data-control="load rho"] .value').textContent`).Str(); v != "0.9" {
		t.Errorf("the slider's value label reads %q, want 0.9", v)
	}
	if loaded.wait <= start.wait {
		t.Errorf("LL-2 mean wait %v at load 0.9 is not above %v at 0.5", loaded.wait, start.wait)
	}

	// Pick RND in the policy menu: M/M/1 per server, exact wait 0.9/(1-0.9) = 9.
	rnd := b.change("policy ll:d=2 -> rnd", loaded, "rnd, K=100, load 0.9,", `() => {
		const el = document.querySelector('tr[data-control="policy"] select');
		const opt = [...el.options].find(o => o.textContent === "rnd");
		el.value = opt.value;
		el.dispatchEvent(new Event("change"));
		return true;
	}`)
	if rnd.theory != 9 {
		t.Errorf("theory column shows %v for RND at load 0.9, want the M/M/1 value 9", rnd.theory)
	}

	// Ten dispatchers: RND reads no state, so the system and its theory stay.
	many := b.change("dispatchers 1 -> 10", rnd, "10 dispatchers", `() => {
		const el = document.querySelector('tr[data-control="dispatchers M"] input[type=range]');
		el.value = 3; // Values run 1, 2, 5, 10, ...
		el.dispatchEvent(new Event("input"));
		el.dispatchEvent(new Event("change"));
		return true;
	}`)
	if many.theory != 9 {
		t.Errorf("theory column shows %v for RND with 10 dispatchers, want the M/M/1 value 9", many.theory)
	}

	b.eval(`() => { document.querySelector('.lbsim-explorer-controls').scrollIntoView(); return true; }`)
	b.screenshot("08-explorer-browser.png")

	// Stop the explorer: the cell finishes and leaves no error.
	b.eval(`() => { [...document.querySelectorAll('button')].find(x => x.textContent === "stop explorer").click(); return true; }`)
	b.waitFor("the cell to finish", time.Minute, `() => document.querySelectorAll('.cell.running').length === 0`)
	if errs := b.eval(`() => [...document.querySelectorAll('.output_error, .output_stderr')].map(e => e.textContent).join("\n")`).Str(); strings.Contains(errs, "panic:") || b.eval(`() => document.querySelectorAll('.output_error').length`).Num() != 0 {
		t.Errorf("error output in the notebook:\n%s", errs)
	}
	after, err := os.ReadFile(filepath.Join(nbDir, explorerNotebook))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("notebooks/%s changed on disk during the browser run (autosave?): %v", explorerNotebook, err)
	}
}

// openBrowser starts headless Chromium (the system's, no download) and opens a blank page;
// the browser is killed when the test ends, passed or not (and when the test process dies).
func openBrowser(t *testing.T, ctx context.Context) *rod.Page {
	t.Helper()
	cmd := exec.Command(Chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		"--window-size=1280,2000", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", Chromium, err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	// Chromium prints "DevTools listening on ws://..." once it accepts a driver.
	found := make(chan string, 1)
	var log syncBuffer
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			fmt.Fprintln(&log, sc.Text())
			if m := devtoolsURL.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var u string
	select {
	case u = <-found:
	case <-time.After(time.Minute):
		t.Fatalf("%s printed no DevTools URL within a minute:\n%s", Chromium, tail(log.String(), 20))
	}
	browser := rod.New().ControlURL(u).Context(ctx)
	if err := browser.Connect(); err != nil {
		t.Fatalf("connect to chromium: %v", err)
	}
	t.Cleanup(func() { _ = browser.Close() })
	page, err := browser.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	// The browser console (GoNB's websocket reports its trouble there), shown if the test fails.
	console := &syncBuffer{}
	go page.EachEvent(func(e *proto.RuntimeConsoleAPICalled) {
		fmt.Fprintf(console, "[console.%s]", e.Type)
		for _, a := range e.Args {
			fmt.Fprintf(console, " %s", a.Value.String())
		}
		fmt.Fprintln(console)
	})()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("browser console (end):\n%s", tail(console.String(), 40))
		}
	})
	return page
}

// browserPage evaluates JavaScript in the notebook page and fails the test with a reason.
type browserPage struct {
	t    *testing.T
	page *rod.Page
}

func (b *browserPage) eval(js string) jsValue {
	b.t.Helper()
	res, err := b.page.Eval(js)
	if err != nil {
		b.t.Fatalf("javascript %s: %v", js, err)
	}
	return jsValue{res.Value.Val()}
}

// waitFor polls cond (a JavaScript function returning a boolean) every 20 ms until it holds,
// failing after timeout or as soon as a cell shows an error.
func (b *browserPage) waitFor(what string, timeout time.Duration, cond string) time.Duration {
	b.t.Helper()
	start := time.Now()
	for time.Since(start) < timeout {
		if b.eval(cond).Bool() {
			return time.Since(start)
		}
		if errs := b.eval(`() => [...document.querySelectorAll('.output_error')].map(e => e.textContent).join("\n")`).Str(); errs != "" {
			b.t.Fatalf("waiting for %s: a cell failed:\n%s", what, errs)
		}
		if b.eval(`() => ((document.body || {}).innerText || "").includes("Explorer: no browser answered")`).Bool() {
			b.t.Fatalf("waiting for %s: the explorer fell back to static figures: its probe got no answer from this browser", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.t.Fatalf("%s did not happen within %v; page text:\n%s", what, timeout,
		tail(b.eval(`() => document.querySelector('#notebook') ? document.querySelector('#notebook').innerText : document.body.innerText`).Str(), 40))
	return 0
}

// screenshot saves the visible page into the test's artifact folder (kept when a test fails).
func (b *browserPage) screenshot(name string) {
	b.t.Helper()
	png, err := b.page.Screenshot(false, nil)
	if err != nil {
		b.t.Logf("no screenshot: %v", err)
		return
	}
	shot := filepath.Join(artifactDir(b.t), name)
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", shot)
}

// explorerView is what the explorer's first view shows.
type explorerView struct {
	figure, caption string
	wait, theory    float64 // the table's mean wait row: simulated and theory
}

func (b *browserPage) view() explorerView {
	b.t.Helper()
	var raw struct {
		Figure, Caption string
		Row             []string
	}
	js := `() => JSON.stringify({
		Figure: document.querySelector('.lbsim-explorer-figure img').src,
		Caption: document.querySelector('.lbsim-explorer-table caption').textContent,
		Row: [...document.querySelectorAll('.lbsim-explorer-table tr')[1].querySelectorAll('td')].map(td => td.textContent)})`
	if err := json.Unmarshal([]byte(b.eval(js).Str()), &raw); err != nil {
		b.t.Fatal(err)
	}
	v := explorerView{figure: raw.Figure, caption: raw.Caption}
	if len(raw.Row) < 4 || raw.Row[0] != "mean wait" {
		b.t.Fatalf("table's first row is %q, want mean wait, simulated, CI, theory", raw.Row)
	}
	var err1, err2 error
	v.wait, err1 = strconv.ParseFloat(raw.Row[1], 64)
	v.theory, err2 = strconv.ParseFloat(raw.Row[3], 64)
	if err1 != nil || err2 != nil {
		b.t.Fatalf("table's mean wait row %q: %v %v", raw.Row, err1, err2)
	}
	return v
}

// change runs act (JavaScript that operates a control) and waits until both the table caption
// contains want and the figure differs from old's; it logs the time from the control change
// to the redrawn view.
func (b *browserPage) change(what string, old explorerView, want, act string) explorerView {
	b.t.Helper()
	b.eval(act)
	cond := fmt.Sprintf(`() => (document.querySelector('.lbsim-explorer-table caption') || {}).textContent.includes(%q) &&
		document.querySelector('.lbsim-explorer-figure img').src !== %q`, want, old.figure)
	took := b.waitFor(what+" to redraw", time.Minute, cond)
	b.t.Logf("%s: figure and table redrawn %v after the control changed", what, took.Round(time.Millisecond))
	v := b.view()
	if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(v.caption) {
		b.t.Fatalf("%s: table caption %q lacks %q", what, v.caption, want)
	}
	return v
}

// jsValue is a JavaScript result.
type jsValue struct{ v any }

func (j jsValue) Bool() bool   { b, _ := j.v.(bool); return b }
func (j jsValue) Str() string  { s, _ := j.v.(string); return s }
func (j jsValue) Num() float64 { x, _ := j.v.(float64); return x }
