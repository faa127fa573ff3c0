package nbrun

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// Chromium is the browser used to render math, print PDFs and check reports: Debian's chromium.
const Chromium = "/usr/bin/chromium"

// chromiumTimeout bounds one Chromium run; a report renders in a few seconds.
const chromiumTimeout = 2 * time.Minute

// chromiumFlags start a headless Chromium that touches no network: background services off, and
// every host name resolves to nothing (--host-resolver-rules), so a page that would load
// anything from the web fails visibly here instead of working by luck. The package doc's "What the tests check" lists the checks.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking", "--disable-component-update",
	"--disable-sync", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND"}

// chromium runs headless Chromium with a fresh profile (runs do not influence each other) and
// the given extra arguments, and returns its standard output (what --dump-dom prints).
func chromium(args ...string) ([]byte, error) {
	if _, err := os.Stat(Chromium); err != nil {
		return nil, fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's chromium)", Chromium)
	}
	profile, err := os.MkdirTemp("", "nbrun-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), chromiumTimeout)
	defer cancel()
	all := append(append(chromiumFlags[:len(chromiumFlags):len(chromiumFlags)], "--user-data-dir="+profile), args...)
	cmd := exec.CommandContext(ctx, Chromium, all...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("did not finish within %v (killed)", chromiumTimeout)
		}
		return nil, fmt.Errorf("chromium: %w%s", err, chromiumLog(stderr.String()))
	}
	return stdout.Bytes(), nil
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
		if strings.TrimSpace(l) != "" && !chromiumNoise.MatchString(l) {
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
