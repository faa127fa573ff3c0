//go:build unix

package nb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// freshCache points Cached at an empty directory of the test's own.
func freshCache(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	return dir
}

// Issue 25 item 25: on a full disk every temp file gave its own warning (8
// lines for 8 goroutines), none saying what to do. The full disk is the
// kernel's: writeTemp, the seam of the temp file's write, writes to
// /dev/full, which fails every write with ENOSPC, and names the temp file.
func TestCacheFullDiskWarnsOnce(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full to simulate a full disk: %v", err)
	}
	defer full.Close()
	dir := freshCache(t)
	writeTemp = func(tmp *os.File, b []byte) (int, error) {
		n, err := full.Write(b)
		if e, ok := err.(*os.PathError); ok {
			e.Path = tmp.Name() // as a full disk reports it: on the temp file
		}
		return n, err
	}
	defer func() { writeTemp = (*os.File).Write }()

	const n = 8
	got := make([]int, n)
	msg := stderrOf(t, func() {
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				v, err := Cached(fmt.Sprint("full disk ", i), func() (int, error) { return i * i, nil })
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			})
		}
		wg.Wait()
	})
	for i, v := range got {
		if v != i*i {
			t.Errorf("Cached %d = %d, want the computed %d", i, v, i*i)
		}
	}
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d warning lines for %d entries not stored on a full disk, want 1:\n%s", len(lines), n, msg)
	}
	for _, want := range []string{dir, "no space left on device", "free space", "LBSIM_CACHE_DIR", "LBSIM_NO_CACHE=1"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("warning %q does not contain %q", lines[0], want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) != 0 {
		t.Errorf("temp files left behind: %v", left)
	}
}

// badEntry is Cached on key with the entry file replaced by mk(path):
// it must recompute (a miss, never a crash or a hang), warn once naming the
// file and why, and store the value again in place of the bad entry.
func badEntry(t *testing.T, key string, mk func(path string) error, why string) {
	t.Helper()
	dir := freshCache(t)
	if _, err := Cached(key, func() (int, error) { return 1, nil }); err != nil {
		t.Fatal(err)
	}
	files := cacheFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("%d cache files, want 1", len(files))
	}
	path := files[0]
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := mk(path); err != nil {
		t.Skipf("cannot make the bad entry: %v", err)
	}
	type result struct {
		v   int
		err error
	}
	done := make(chan result, 1)
	var msg string
	go func() {
		msg = stderrOf(t, func() {
			v, err := Cached(key, func() (int, error) { return 2, nil })
			done <- result{v, err}
		})
		close(done)
	}()
	select {
	case r := <-done:
		<-done // stderr collected
		if r.err != nil || r.v != 2 {
			t.Fatalf("Cached over a bad entry: %v, %v; want the recomputed 2", r.v, r.err)
		}
	case <-time.After(5 * time.Minute): // a hang, not a slow machine
		t.Fatalf("Cached blocked on a bad entry (%s)", why)
	}
	for _, want := range []string{path, why} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning %q does not contain %q", msg, want)
		}
	}
	if v, _ := Cached(key, func() (int, error) { return 3, nil }); v != 2 {
		t.Errorf("after the bad entry: %d, want the stored 2", v)
	}
}

// Issue 25 item 13 (cache): entries were read whole with os.ReadFile: a FIFO
// blocked forever, /dev/zero or a huge file ran out of memory.
func TestCacheEntryFIFO(t *testing.T) {
	badEntry(t, "fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }, "not a regular file")
}

func TestCacheEntryDevZero(t *testing.T) {
	badEntry(t, "zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file")
}

func TestCacheEntryOversized(t *testing.T) {
	badEntry(t, "huge", func(p string) error {
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Truncate(maxEntryBytes + 1) // sparse: no disk used
	}, "larger than")
}

// Issue 36: two notebooks that run the same configurations at once (04 and 05 share the FCFS
// runs) computed them twice. The second caller of a key being computed waits for the first
// and reads its result: one computation, the same value for both.
func TestCachedComputesOnceAtATime(t *testing.T) {
	freshCache(t)
	started, release, waiting, secondComputed := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	saved := lockWaiting
	lockWaiting = func(string) func() { close(waiting); return func() {} }
	defer func() { lockWaiting = saved }()
	var first, second int
	var wg sync.WaitGroup
	wg.Go(func() {
		v, err := Cached("shared sweep", func() (int, error) { close(started); <-release; return 42, nil })
		if err != nil {
			t.Error(err)
		}
		first = v
	})
	<-started
	wg.Go(func() {
		v, err := Cached("shared sweep", func() (int, error) { close(secondComputed); return 43, nil })
		if err != nil {
			t.Error(err)
		}
		second = v
	})
	select {
	case <-secondComputed:
		t.Error("the second caller computed the key while the first was computing it")
	case <-waiting:
	}
	close(release)
	wg.Wait()
	if first != 42 || second != 42 {
		t.Errorf("values %d and %d, want 42 for both (the first caller's result, read by the second)", first, second)
	}
}
