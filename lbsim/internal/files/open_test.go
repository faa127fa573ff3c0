package files

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// UnblockAfter runs open, which must return at once on a FIFO: if it has
// not returned after a minute, the FIFO's other end is opened (so that a
// blocking open returns) and the test fails.
func unblockAfter(t *testing.T, fifo string, open func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- open() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		for _, flag := range []int{os.O_RDONLY, os.O_WRONLY} {
			if f, err := os.OpenFile(fifo, flag|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		t.Errorf("opening the FIFO %s blocked for a minute", fifo)
		return <-done
	}
}

// A FIFO, for reading or for appending, is refused at once, naming what it
// is; a regular file and a new name open; a folder is refused.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, flag := range []int{os.O_RDONLY, os.O_WRONLY | os.O_APPEND | os.O_CREATE} {
		err := unblockAfter(t, fifo, func() error {
			f, err := OpenRegular(fifo, flag, 0o644)
			if err == nil {
				f.Close()
			}
			return err
		})
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe (FIFO)") {
			t.Errorf("flag %#x on a FIFO: %v, want a refusal naming a named pipe", flag, err)
		}
	}
	if _, err := OpenRegular(dir, os.O_RDONLY, 0); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "folder") {
		t.Errorf("a folder: %v", err)
	}
	log := filepath.Join(dir, "log")
	for range 2 { // new, then existing
		f, err := OpenRegular(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("x\n"); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if b, _ := os.ReadFile(log); string(b) != "x\nx\n" {
		t.Errorf("appended %q, want two lines", b)
	}
}
