package nbrun

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestChromiumRestarts kills the browser the package's pages share, as a crash would: the next
// page opens in a new browser. Not parallel: no other test has a page open while it kills.
func TestChromiumRestarts(t *testing.T) {
	requireNotebooks(t)
	dir := t.TempDir()
	page, shot := filepath.Join(dir, "page.html"), filepath.Join(dir, "page.png")
	if err := writeFile(page, "<html><body>"+strings.Repeat("<h1>Waiting time versus load</h1>", 40)+"</body></html>"); err != nil {
		t.Fatal(err)
	}
	if err := Screenshot(page, shot); err != nil {
		t.Fatal(err)
	}
	first, err := sharedBrowser()
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(-first.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !first.diedWithin(time.Minute) {
		t.Fatal("the killed browser did not end within a minute")
	}
	if err := Screenshot(page, shot); err != nil {
		t.Fatalf("screenshot after the browser died: %v", err)
	}
	if now, err := sharedBrowser(); err != nil || now == first {
		t.Errorf("after the browser died: browser %p (the dead one %p), err %v; want a new one", now, first, err)
	}
	// StopChromium ends the browser; the next page starts another.
	StopChromium()
	if err := Screenshot(page, shot); err != nil {
		t.Fatalf("screenshot after StopChromium: %v", err)
	}
}

// A browser that has ended is dead every time it is asked: sharedBrowser must not hand it out
// again (with a timer of 0 in the same select, half of the answers were "alive").
func TestDeadBrowserIsDead(t *testing.T) {
	t.Parallel()
	b := &browser{exited: make(chan struct{})}
	if b.dead() {
		t.Fatal("a running browser reads as dead")
	}
	close(b.exited)
	for i := range 1000 {
		if !b.dead() {
			t.Fatalf("an ended browser reads as alive at the %d-th question", i+1)
		}
	}
}
