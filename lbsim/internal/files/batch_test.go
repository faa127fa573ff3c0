package files

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A batch on a disk that fills up at any byte leaves every previous file as
// it was and no temporary file behind; with room, it replaces them all.
func TestBatchFullDisk(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a.html", "a-code.html", "index.html"}
	old := map[string][]byte{}
	for i, n := range names {
		old[n] = bytes.Repeat([]byte{'o'}, 100+i)
		if err := os.WriteFile(filepath.Join(dir, n), old[n], 0o640); err != nil {
			t.Fatal(err)
		}
	}
	next := func(i int) []byte { return bytes.Repeat([]byte{'n'}, 1000*(i+1)) }
	total := 1000 + 2000 + 3000
	for _, room := range []int64{0, 1, 999, 1000, 2500, int64(total) - 1} {
		restore := SimulateFullDisk(room)
		var b Batch
		err := func() error {
			defer b.Discard()
			for i, n := range names {
				if _, err := b.Write(filepath.Join(dir, n), next(i)); err != nil {
					return err
				}
			}
			return b.Commit()
		}()
		restore()
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("room %d bytes: err = %v, want ENOSPC", room, err)
		}
		for _, n := range names {
			if got, _ := os.ReadFile(filepath.Join(dir, n)); !bytes.Equal(got, old[n]) {
				t.Errorf("room %d bytes: %s has %d bytes, want the previous %d", room, n, len(got), len(old[n]))
			}
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(left) != 0 {
			t.Errorf("room %d bytes: temporary files left: %v", room, left)
		}
	}
	restore := SimulateFullDisk(int64(total))
	var b Batch
	for i, n := range names {
		if _, err := b.Write(filepath.Join(dir, n), next(i)); err != nil {
			t.Fatal(err)
		}
	}
	err := b.Commit()
	restore()
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		got, _ := os.ReadFile(filepath.Join(dir, n))
		st, _ := os.Stat(filepath.Join(dir, n))
		if !bytes.Equal(got, next(i)) || st.Mode().Perm() != 0o640 {
			t.Errorf("%s: %d bytes, mode %v; want %d bytes, the previous mode 0640", n, len(got), st.Mode().Perm(), len(next(i)))
		}
	}
}

// A file another program writes is renamed into place with the rest; when
// the program wrote nothing (removed the reserved name), nothing is replaced.
func TestBatchReserve(t *testing.T) {
	dir := t.TempDir()
	pdf, page := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "a.html")
	for _, p := range []string{pdf, page} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b Batch
	if _, err := b.Write(page, []byte("new page")); err != nil {
		t.Fatal(err)
	}
	tmp, err := b.Reserve(pdf)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(tmp) // the program failed before writing
	if err := b.Commit(); err == nil {
		t.Error("Commit with the reserved file missing succeeded")
	}
	b.Discard()
	for _, p := range []string{pdf, page} {
		if got, _ := os.ReadFile(p); string(got) != "old" {
			t.Errorf("%s = %q after a failed batch, want %q", p, got, "old")
		}
	}

	b = Batch{}
	if _, err := b.Write(page, []byte("new page")); err != nil {
		t.Fatal(err)
	}
	if tmp, err = b.Reserve(pdf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, []byte("new pdf"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(pdf)
	st, _ := os.Stat(pdf)
	if string(got) != "new pdf" || st.Mode().Perm() != 0o644 {
		t.Errorf("PDF %q mode %v, want %q 0644", got, st.Mode().Perm(), "new pdf")
	}
}

// Lock is exclusive: without wait a second taker gets ErrLocked, with wait
// it gets the lock once the first releases it.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lock")
	unlock, err := Lock(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(path, false); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Lock without wait: %v, want ErrLocked", err)
	}
	got := make(chan error)
	go func() {
		u, err := Lock(path, true)
		if err == nil {
			u()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("Lock with wait returned (%v) while the lock was held", err)
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// ReplaceDir puts a staged folder in place of the previous one, whose files
// go; a first folder is simply moved in.
func TestReplaceDir(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tables")
	for i, files := range [][]string{{"a.csv", "b.csv"}, {"c.csv"}} {
		staged, err := os.MkdirTemp(dir, ".tables-")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(staged, f), []byte(f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := ReplaceDir(path, staged); err != nil {
			t.Fatal(err)
		}
		got, _ := filepath.Glob(filepath.Join(path, "*"))
		left, _ := filepath.Glob(filepath.Join(dir, ".*"))
		if len(got) != len(files) || filepath.Base(got[0]) != files[0] || len(left) != 0 {
			t.Errorf("replacement %d: folder holds %v, beside it %v; want %v and nothing", i, got, left, files)
		}
	}
}
