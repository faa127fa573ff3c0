package nb

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type sweepKey struct {
	Policy string
	Rho    float64
	Seed   uint64
}

type sweepResult struct {
	Mean, Half float64
	Rows       []float64
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.gob"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// counting returns a compute function that counts its calls.
func counting(calls *int, v sweepResult) func() (sweepResult, error) {
	return func() (sweepResult, error) { *calls++; return v, nil }
}

func TestCachedComputesOnceAndReadsBack(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	want := sweepResult{Mean: 1.0 / 3, Half: math.NaN(), Rows: []float64{math.Inf(1), 1e-300}}
	calls := 0
	key := sweepKey{"LL-2", 0.9, 17}
	for i := 0; i < 3; i++ {
		got, err := Cached(key, counting(&calls, want))
		if err != nil {
			t.Fatal(err)
		}
		if got.Mean != want.Mean || !math.IsNaN(got.Half) || got.Rows[0] != want.Rows[0] || got.Rows[1] != want.Rows[1] {
			t.Fatalf("call %d returned %+v, want %+v", i, got, want)
		}
	}
	if calls != 1 {
		t.Errorf("compute ran %d times for one key, want 1", calls)
	}
	if n := len(cacheFiles(t, dir)); n != 1 {
		t.Errorf("%d cache files in LBSIM_CACHE_DIR, want 1", n)
	}
	// Every field of the key matters: a new seed or load recomputes.
	for _, k := range []sweepKey{{"LL-2", 0.9, 18}, {"LL-2", 0.95, 17}, {"RR", 0.9, 17}} {
		if _, err := Cached(k, counting(&calls, want)); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 4 {
		t.Errorf("compute ran %d times for 4 distinct keys, want 4", calls)
	}
	// Same key, another result type: a separate entry, not a decoding clash.
	n, err := Cached(key, func() (int, error) { return 7, nil })
	if err != nil || n != 7 {
		t.Errorf("int value for a key cached as sweepResult: %d, %v; want 7, nil", n, err)
	}
}

func TestCachedRecoversFromCorruptFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	calls := 0
	want := sweepResult{Mean: 2.5}
	if _, err := Cached("k", counting(&calls, want)); err != nil {
		t.Fatal(err)
	}
	files := cacheFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("%d cache files, want 1", len(files))
	}
	for _, garbage := range []string{"not gob at all", ""} {
		if err := os.WriteFile(files[0], []byte(garbage), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Cached("k", counting(&calls, want))
		if err != nil {
			t.Fatalf("corrupt file %q gave error %v; want a recomputation", garbage, err)
		}
		if got.Mean != 2.5 {
			t.Errorf("after corruption got %+v", got)
		}
	}
	if calls != 3 {
		t.Errorf("compute ran %d times, want 3 (first, then once per corrupt file)", calls)
	}
	if _, err := Cached("k", counting(&calls, want)); err != nil || calls != 3 {
		t.Errorf("the rewritten file was not used: calls = %d, err = %v", calls, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestCachedErrorsAndDisabling(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	boom := errors.New("boom")
	calls := 0
	fail := func() (float64, error) { calls++; return 0, boom }
	for i := 0; i < 2; i++ {
		if _, err := Cached("failing", fail); !errors.Is(err, boom) {
			t.Fatalf("compute error not returned: %v", err)
		}
	}
	if calls != 2 || len(cacheFiles(t, dir)) != 0 {
		t.Errorf("a failed computation was cached (calls %d, files %d)", calls, len(cacheFiles(t, dir)))
	}
	if _, err := Cached(math.NaN(), func() (int, error) { return 1, nil }); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Errorf("NaN key: error %v, want one saying it cannot be JSON-encoded", err)
	}
	t.Setenv("LBSIM_NO_CACHE", "1")
	calls = 0
	ok := func() (int, error) { calls++; return 5, nil }
	for i := 0; i < 2; i++ {
		if v, err := Cached("off", ok); v != 5 || err != nil {
			t.Fatalf("LBSIM_NO_CACHE=1: %d, %v", v, err)
		}
	}
	if calls != 2 || len(cacheFiles(t, dir)) != 0 {
		t.Errorf("LBSIM_NO_CACHE=1 still cached (calls %d, files %d)", calls, len(cacheFiles(t, dir)))
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", "")
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if d, _ := CacheDir(); d != "/x/cache/lbsim" {
		t.Errorf("with XDG_CACHE_HOME: %s", d)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if d, _ := CacheDir(); d != "/home/u/.cache/lbsim" {
		t.Errorf("with HOME only: %s", d)
	}
	t.Setenv("LBSIM_CACHE_DIR", "/elsewhere")
	if d, _ := CacheDir(); d != "/elsewhere" {
		t.Errorf("with LBSIM_CACHE_DIR: %s", d)
	}
}
