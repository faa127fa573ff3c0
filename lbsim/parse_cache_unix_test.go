//go:build unix

package lbsim

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A size file or trace that is a FIFO with no writer, or a device, is
// refused at once, as a spec file is: os.Open blocked on the FIFO for
// ever, and /dev/zero would never end. (The 60 s bound only stops a test
// that would otherwise hang; a refusal takes microseconds.)
func TestSizeFileAndTraceNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "jobs.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	for _, c := range []struct{ path, kind string }{{fifo, "named pipe (FIFO)"}, {"/dev/zero", "device"}} {
		for name, load := range map[string]func(string) error{
			"sizes": func(p string) error { _, err := SizesFromFile(p); return err },
			"trace": func(p string) error { _, err := LoadTrace(p); return err },
		} {
			done := make(chan error, 1)
			go func() { done <- load(c.path) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), c.kind) || !strings.Contains(err.Error(), "give the path of a file") {
					t.Errorf("%s from %s: %v, want it refused as a %s", name, c.path, err, c.kind)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("%s from %s: still reading after 60 s (blocked)", name, c.path)
			}
		}
	}
}
