//go:build unix

package lbsim

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A size file or trace that is a FIFO with no writer, a device or a folder
// is refused at once, as a spec file is: os.Open blocked on the FIFO for
// ever, and /dev/zero would never end. A FIFO that a program writes is
// read as a pipe on /dev/stdin is. (The 60 s bound only stops a test that
// would otherwise hang; a refusal takes microseconds.)
func TestSizeFileAndTraceNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "jobs.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	loads := map[string]func(string) error{
		"sizes": func(p string) error { _, err := SizesFromFile(p); return err },
		"trace": func(p string) error { _, err := LoadTrace(p); return err },
	}
	bounded := func(name, path string, load func(string) error) error {
		done := make(chan error, 1)
		go func() { done <- load(path) }()
		select {
		case err := <-done:
			return err
		case <-time.After(60 * time.Second):
			t.Fatalf("%s from %s: still reading after 60 s (blocked)", name, path)
		}
		return nil
	}
	for _, c := range []struct{ path, says string }{
		{fifo, "is a named pipe (FIFO): no program writes to it; start the program that writes it first, or give a regular file"},
		{"/dev/zero", "is a device, not a regular file; give the path of a file"},
		{dir, "is a folder"},
	} {
		for name, load := range loads {
			err := bounded(name, c.path, load)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%s from %s: %v, want an error saying %q", name, c.path, err, c.says)
			}
			if err != nil && c.path != dir && strings.Count(err.Error(), c.path) != 1 {
				t.Errorf("%s from %s: %q names the file %d times", name, c.path, err, strings.Count(err.Error(), c.path))
			}
		}
	}
	// With its writer started, the FIFO is read to its end. (The holder
	// keeps the FIFO open, so the writer's open does not wait and what it
	// writes stays in the pipe, whenever the load opens it.)
	for name, load := range loads {
		holder, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- load(fifo) }()
		w.WriteString("arrival,size\n0,1\n0.5,2\n")
		w.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s from a FIFO with its writer: %v", name, err)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%s from a FIFO with its writer: still reading after 60 s (blocked)", name)
		}
		holder.Close()
	}
}
