package shard

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Write creates a shard file once: a second Write of the same shard (another
// sweep, or the same) fails with ErrExists and leaves the first file as it
// was, with no temporary file behind; the file is 0644.
func TestWriteNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	header, rows := table(6)
	a, b := sweepOf(t, "a", 6), sweepOf(t, "b", 6)
	writeSplit(t, dir, a, 2, header, rows)
	path := filepath.Join(dir, FileName(0, 2))
	first, _ := os.ReadFile(path)
	for _, s := range []Sweep{b, a} {
		err := Write(dir, s, 0, 2, header, [][]string{rows[0], rows[2], rows[4]})
		if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "not replaced") {
			t.Errorf("second Write (sweep %s): %v, want ErrExists", short(s.ID), err)
		}
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, first) {
		t.Error("the first shard file was replaced")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
}

// Lock is exclusive while held and free again once released.
func TestLockExclusive(t *testing.T) {
	dir := t.TempDir()
	unlock, err := Lock(dir, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(dir, 0, 1); !errors.Is(err, ErrBusy) {
		t.Errorf("second Lock while held: %v, want ErrBusy", err)
	}
	if u, err := Lock(dir, 1, 2); err != nil {
		t.Errorf("another shard's lock: %v", err)
	} else {
		u()
	}
	unlock()
	u, err := Lock(dir, 0, 1)
	if err != nil {
		t.Errorf("Lock after release: %v", err)
	} else {
		u()
	}
}
