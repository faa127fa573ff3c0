package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mergedDir is a directory of 3 complete shards of smallSweep and the bytes
// they merge to.
func mergedDir(t *testing.T) (dir string, merged []byte) {
	t.Helper()
	dir = t.TempDir()
	runShards(t, dir, 3)
	out, _ := lbsimOK(t, "merge", dir)
	return dir, []byte(out)
}

// Item 1: merge -o through a symlink writes the link's target and keeps the
// link.
func TestMergeOutSymlink(t *testing.T) {
	dir, merged := mergedDir(t)
	other := t.TempDir()
	target := filepath.Join(other, "table.csv")
	os.WriteFile(target, []byte("old\n"), 0o644)
	link := filepath.Join(other, "link.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	lbsimOK(t, "merge", dir, "-o", link)
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("merge -o replaced the symlink %s by a regular file", link)
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, merged) {
		t.Errorf("the symlink's target holds %q, want the merged table", clipBytes(b))
	}
}

// Item 1: merge -o onto a FIFO or a device writes into it and leaves the node
// in place.
func TestMergeOutSpecialFiles(t *testing.T) {
	dir, merged := mergedDir(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	_, e, code := cli("merge", dir, "-o", fifo)
	if code != 0 {
		t.Errorf("merge -o FIFO: exit %d, %s", code, e)
		// Unblock the reader of a FIFO the merge did not open.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
	}
	select {
	case b := <-got:
		if code == 0 && !bytes.Equal(b, merged) {
			t.Errorf("the FIFO's reader got %q, want the merged table", clipBytes(b))
		}
	case <-time.After(5 * time.Minute): // a hang, not a slow machine
		t.Error("the FIFO's reader got nothing in 5 minutes")
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("merge -o replaced the FIFO by a regular file")
	}
	// A private /dev/null (needs root to create): it stays a device.
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, int(1<<8|3)); err == nil {
		lbsimOK(t, "merge", dir, "-o", null)
		if st, err := os.Lstat(null); err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("merge -o replaced the device node %s by a regular file", null)
		}
	}
}

// Item 2: merge -o never writes over a shard file, of this sweep or another.
func TestMergeOutShard(t *testing.T) {
	dir, _ := mergedDir(t)
	shard0 := filepath.Join(dir, "shard-0-of-3.csv")
	before, _ := os.ReadFile(shard0)
	copyDir := t.TempDir()
	elsewhere := filepath.Join(copyDir, "results.csv") // a shard file under another name
	os.WriteFile(elsewhere, before, 0o644)
	for _, o := range []string{shard0, elsewhere} {
		e := lbsimFails(t, "merge", dir, "-o", o)
		if !strings.Contains(e, "shard file") || strings.Count(strings.TrimSpace(e), "\n") > 0 {
			t.Errorf("merge -o %s: %q; want one line saying it is a shard file", o, e)
		}
		if b, _ := os.ReadFile(o); !bytes.Equal(b, before) {
			t.Errorf("merge -o overwrote the shard file %s", o)
		}
	}
	// The resume after it still finds the shard complete.
	if _, e := lbsimOK(t, sweepArgs("-shard", "0/3", "-out", dir, "-quiet")...); !strings.Contains(e, "skipping shard 0/3") {
		t.Errorf("after merge -o onto it, the shard is not complete: %s", e)
	}
}

// Item 3: a shard name that is a dangling symlink is refused before the
// shard is computed, with the fix.
func TestDanglingShardSymlink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "shard-1-of-3.csv")
	os.Symlink(filepath.Join(dir, "gone.csv"), link)
	var progress bytes.Buffer
	code := mainWithArgs(sweepArgs("-shard", "1/3", "-out", dir), io.Discard, &progress)
	e := progress.String()
	if code == 0 || !strings.Contains(e, "symlink") || strings.Contains(e, "already exists") {
		t.Errorf("sweep into a dangling shard symlink: exit %d, %q; want an error naming the symlink, before computing", code, e)
	}
	if strings.Contains(e, "shard 1/3: 1/") || strings.Contains(e, "configurations]") {
		t.Errorf("the shard was computed before the symlink was refused: %q", e)
	}
}

// Item 23: merge -o errors say what is wrong and what to do.
func TestMergeOutMessages(t *testing.T) {
	dir, _ := mergedDir(t)
	for _, tc := range []struct{ out, mention string }{
		{t.TempDir(), "is a folder"},
		{filepath.Join(t.TempDir(), "absent", "x.csv"), "does not exist"},
		{fullDevice(t), "no space left"},
	} {
		e := lbsimFails(t, "merge", dir, "-o", tc.out)
		if !strings.Contains(e, tc.mention) || strings.Contains(e, ".tmp-") || strings.Count(strings.TrimSpace(e), "\n") > 0 {
			t.Errorf("merge -o %s: %q; want one line saying %q", tc.out, e, tc.mention)
		}
	}
}

// fullDevice is a private /dev/full (a device whose writes fail with ENOSPC),
// so that a test of the old code could not replace the real one.
func fullDevice(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "full")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(1<<8|7)); err != nil {
		t.Skip("cannot make a device node (needs root):", err)
	}
	return p
}

func clipBytes(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// Item 13: files lbsim reads are bounded: a FIFO or /dev/zero as the spec, a
// FIFO as a shard file, /dev/zero as the trace, each an error at once (they
// blocked forever or ran out of memory).
func TestBoundedReaders(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "spec.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	shards := filepath.Join(dir, "shards")
	os.Mkdir(shards, 0o755)
	syscall.Mkfifo(filepath.Join(shards, "shard-0-of-1.csv"), 0o644)
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"sweep", "-spec", fifo, "-id"}, "not a regular file"},
		{[]string{"sweep", "-spec", "/dev/zero", "-id"}, "not a regular file"},
		{[]string{"merge", shards}, "not a regular file"},
		{[]string{"sweep", "-trace", "/dev/zero", "-id"}, "is a device, not a regular file"},
		{[]string{"run", "-sizes", "file:" + fifo}, "no program writes to it"},
		{[]string{"run", "-trace", fifo}, "no program writes to it"},
	} {
		done := make(chan string, 1)
		go func() { _, e, _ := cli(tc.args...); done <- e }()
		select {
		case e := <-done:
			if !strings.Contains(e, tc.mention) {
				t.Errorf("lbsim %s: %q; want an error saying %q", strings.Join(tc.args, " "), e, tc.mention)
			}
		case <-time.After(5 * time.Minute): // a hang, not a slow machine
			t.Fatalf("lbsim %s blocks", strings.Join(tc.args, " "))
		}
	}
}
