package nb

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/testpolicy"
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

// A cache hit at K = 10^6 costs about what a small one does: the key is
// compact (speeds as runs) and the hit does not re-encode megabytes.
func TestKeyHitLargeK(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	t.Setenv("LBSIM_NO_CACHE", "")
	c := lbsim.Config{Servers: 1_000_000, Speeds: halfFast(1_000_000), Load: 0.5, Sizes: lbsim.Exponential{M: 1},
		Policy: lbsim.Random{}, Jobs: 2000, Seed: 1}
	if n := len(c.Key()); n > 1000 {
		t.Errorf("Config.Key at K=10^6 is %d bytes, want at most 1000", n)
	}
	if _, err := RunAll("large K", []lbsim.Config{c}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rows, err := RunAll("large K", []lbsim.Config{c})
	hit := time.Since(start)
	if err != nil || len(rows) != 1 {
		t.Fatal(rows, err)
	}
	t.Logf("K=10^6: key %d bytes, cache hit %v", len(c.Key()), hit)
	if !strings.Contains(c.Key(), "speeds=500000@2,500000@1") {
		t.Errorf("key %.200q does not give the speeds as runs", c.Key())
	}
}

// An edited policy is recomputed, not served from the cache; Fresh
// recomputes what the cache would serve, and stores the new rows.
func TestEditedPolicyRecomputed(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	t.Setenv("LBSIM_NO_CACHE", "")
	c := lbsim.Config{Servers: 10, Speeds: halfFast(10), Load: 0.7, Sizes: lbsim.Exponential{M: 1},
		Jobs: 20_000, Reps: 2, Seed: 5, AllowOverload: true}
	mean := func(p lbsim.Policy, run func(string, []lbsim.Config) ([]lbsim.Row, error)) float64 {
		c := c
		c.Policy = p
		rows, err := run("edit", []lbsim.Config{c})
		if err != nil {
			t.Fatal(err)
		}
		return rows[0].MeanWait
	}
	direct := func(p lbsim.Policy) float64 {
		c := c
		c.Policy = p
		r, err := lbsim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		return r.Wait.Mean
	}
	mu, mu2 := mean(testpolicy.New(1), RunAll), mean(testpolicy.New(2), RunAll)
	if want := direct(testpolicy.New(2)); mu2 != want || mu == mu2 {
		t.Errorf("after editing Pick from mu to mu^2: %v (mu: %v), want the new code's %v", mu2, mu, want)
	}
	// Fresh computes even when the key is the same, and later calls read its rows.
	calls := 0
	key := "fresh test"
	for _, f := range []func(any, func() (int, error)) (int, error){Cached[int], CachedFresh[int], Cached[int]} {
		v, err := f(key, func() (int, error) { calls++; return calls, nil })
		if err != nil {
			t.Fatal(err)
		}
		if want := min(calls, 2); v != want {
			t.Errorf("value %d after %d computations, want %d", v, calls, want)
		}
	}
	if calls != 2 {
		t.Errorf("Cached, CachedFresh, Cached computed %d times, want 2 (the fresh call, and the first)", calls)
	}
	if again := mean(testpolicy.New(2), Fresh.RunAll); again != mu2 {
		t.Errorf("Fresh.RunAll gives %v, the cached run %v", again, mu2)
	}
}

// halfFast is K servers, the first half of speed 2 and the rest of speed 1.
func halfFast(k int) []float64 {
	s := make([]float64, k)
	for i := range s {
		s[i] = 1
		if i < k/2 {
			s[i] = 2
		}
	}
	return s
}

// Every single-bit flip of a cache file is caught by its checksum: the value
// is recomputed (never a different value decoded), and the file is
// replaced by an intact one.
func TestCachedBitFlipsRecompute(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	want := sweepResult{Mean: 323.24, Half: 0.5, Rows: []float64{1, 2, 3}}
	calls := 0
	if _, err := Cached("flip", counting(&calls, want)); err != nil {
		t.Fatal(err)
	}
	path := cacheFiles(t, dir)[0]
	good, _ := os.ReadFile(path)
	e := cacheEntry[sweepResult]{Key: `"flip"`, Type: typeShape(reflect.TypeFor[sweepResult]()), Code: lbsim.CodeVersion()}
	if v, ok := decodeEntry(good, e); !ok || !reflect.DeepEqual(v, want) {
		t.Fatalf("intact file: %+v, %v", v, ok)
	}
	for bit := range 8 * len(good) {
		bad := append([]byte(nil), good...)
		bad[bit/8] ^= 1 << (bit % 8)
		if v, ok := decodeEntry(bad, e); ok {
			t.Fatalf("bit %d flipped: decoded %+v", bit, v)
		}
		if bit%61 != 0 {
			continue // the whole round trip for a sample of the flips
		}
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		before := calls
		got, err := Cached("flip", counting(&calls, want))
		if err != nil || !reflect.DeepEqual(got, want) || calls != before+1 {
			t.Fatalf("bit %d flipped: got %+v, %v, computed %d times; want a recomputation of %+v", bit, got, err, calls-before, want)
		}
	}
	t.Logf("%d single-bit flips of a %d-byte cache file: every one detected", 8*len(good), len(good))
	if b, _ := os.ReadFile(path); string(b) != string(good) {
		t.Error("the damaged file was not replaced by an intact one")
	}
}

// A struct that gains a field is a new cache entry (it used to decode an
// old entry with the new field zero): the key holds the type's full shape.
func TestCachedKeyHoldsTypeShape(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	old := func() any {
		type point struct{ Mean float64 }
		v, _ := Cached("shape", func() (point, error) { return point{Mean: 1}, nil })
		return v
	}()
	type point struct{ Mean, P99 float64 } // same name, one more field
	calls := 0
	v, err := Cached("shape", func() (point, error) { calls++; return point{Mean: 1, P99: 7}, nil })
	if err != nil || calls != 1 || v.P99 != 7 {
		t.Errorf("new type read the old entry %+v: got %+v (computed %d times), want P99 = 7", old, v, calls)
	}
	if a, b := typeShape(reflect.TypeOf(old)), typeShape(reflect.TypeFor[point]()); a == b {
		t.Errorf("two struct shapes describe the same: %s", a)
	}
	type node struct {
		Next *node
		Kids []node
	}
	if s := typeShape(reflect.TypeFor[node]()); !strings.Contains(s, "Next") || len(s) > 500 {
		t.Errorf("recursive type shape %q", s)
	}
}

// The cache key holds the code version of the running binary (not of the
// sources on disk); the two-builds test in cmd/lbsim shows two builds do
// not share entries. Here: the stored entry names it, and an entry of
// another version is not read.
func TestCachedEntryNamesCodeVersion(t *testing.T) {
	e := cacheEntry[float64]{Key: "k", Type: "float64", Code: lbsim.CodeVersion(), Value: 2}
	b, err := encodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := decodeEntry(b, e); !ok || v != 2 {
		t.Fatalf("intact entry: %v, %v", v, ok)
	}
	other := e
	other.Code = "0000000000000000"
	if _, ok := decodeEntry(b, other); ok {
		t.Error("an entry of another code version was read")
	}
}

// An edit of Pick that matters only with several dispatchers is
// recomputed: the cell shows the edited policy's own numbers and warning.
func TestEditedDispatchersRecomputed(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	t.Setenv("LBSIM_NO_CACHE", "")
	c := lbsim.Config{Servers: 10, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Dispatchers: 2,
		Jobs: 20_000, Reps: 2, Seed: 5}
	c.Policy = testpolicy.NewFronts(false)
	if _, err := RunAll("fronts", []lbsim.Config{c}); err != nil {
		t.Fatal(err)
	}
	c.Policy = testpolicy.NewFronts(true)
	rows, err := RunAll("fronts", []lbsim.Config{c})
	if err != nil {
		t.Fatal(err)
	}
	want, err := lbsim.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0]; got.MeanWait != want.Wait.Mean || !got.Warnings.Has(lbsim.RuleUnstable) {
		t.Errorf("after the edit: mean wait %v, warnings %q; the edited policy gives %v with %q", got.MeanWait, got.Warnings, want.Wait.Mean, want.Warnings)
	}
}

// After Fresh recomputed a key with other numbers (an edit the key cannot
// see), going back to the old code shows the old code's numbers, not the
// new code's: the key is marked ambiguous and recomputed every run, with a
// note. Both directions give each code's own numbers.
func TestFreshThenOldCode(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	t.Setenv("LBSIM_NO_CACHE", "")
	c := lbsim.Config{Servers: 4, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Jobs: 5000, Reps: 2, Seed: 3}
	run := func(late bool, how func(string, []lbsim.Config) ([]lbsim.Row, error)) (float64, string) {
		c := c
		c.Policy = testpolicy.NewLate(late)
		var rows []lbsim.Row
		var err error
		note := stderrOf(t, func() { rows, err = how("late", []lbsim.Config{c}) })
		if err != nil {
			t.Fatal(err)
		}
		return rows[0].MeanWait, note
	}
	direct := func(late bool) float64 {
		c := c
		c.Policy = testpolicy.NewLate(late)
		r, err := lbsim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		return r.Wait.Mean
	}
	oldCode, newCode := direct(false), direct(true)
	if oldCode == newCode {
		t.Fatalf("the edit changes nothing: %v", oldCode)
	}
	steps := []struct {
		late  bool
		how   func(string, []lbsim.Config) ([]lbsim.Row, error)
		name  string
		want  float64
		noted bool
	}{
		{false, RunAll, "RunAll, old code", oldCode, false},
		{false, Fresh.RunAll, "Fresh.RunAll, old code (the same numbers)", oldCode, false},
		{true, RunAll, "RunAll, new code (the key cannot tell)", oldCode, false},
		{true, Fresh.RunAll, "Fresh.RunAll, new code", newCode, true},
		{false, RunAll, "RunAll, old code again", oldCode, true},
		{true, RunAll, "RunAll, new code again", newCode, true},
	}
	for _, s := range steps {
		warned.Clear() // each step is a cell: a program of its own
		got, note := run(s.late, s.how)
		if got != s.want {
			t.Errorf("%s: mean wait %v, want %v", s.name, got, s.want)
		}
		if noted := strings.Contains(note, "recomputed every run"); noted != s.noted {
			t.Errorf("%s: note %q, want one: %v", s.name, note, s.noted)
		}
	}
}

// Fresh recomputing the same numbers keeps the entry, also for whole
// results, whose wall-clock time differs from run to run.
func TestFreshSameNumbersKeepsEntry(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	c := []lbsim.Config{{Servers: 4, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: testpolicy.NewLate(false), Jobs: 5000, Reps: 2, Seed: 3}}
	for _, f := range []func(string, []lbsim.Config) ([]lbsim.Result, error){Results, Fresh.Results, Fresh.Results} {
		if note := stderrOf(t, func() { _, err := f("same", c); check(t, err) }); note != "" {
			t.Errorf("note %q", note)
		}
	}
	// The entry's lock file (NAME.gob.lock, nb.Cached's one computer at a
	// time) stays beside it; an entry is a .gob.
	entries, err := filepath.Glob(filepath.Join(dir, "*.gob"))
	if err != nil || len(entries) != 1 {
		t.Errorf("cache entries %v (%v), want the one entry", entries, err)
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A policy whose Pick does not finish Config.Key's probe (it loops until a
// server has fewer than 3 jobs, for ever on a loaded probe system) runs in
// a cell: computed every time, never stored nor served, with a note saying
// why and what to do. Today's fix for a cell that spun until its timeout.
func TestUnfinishedKeyNotCached(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	c := lbsim.Config{Servers: 20, Load: 0.3, Sizes: lbsim.Exponential{M: 1}, Policy: testpolicy.UnderThree{},
		Jobs: 20_000, Reps: 2, Seed: 1}
	want, err := lbsim.Run(c)
	check(t, err)
	for _, run := range []func(string, []lbsim.Config) ([]lbsim.Row, error){RunAll, RunAll, Fresh.RunAll} {
		warned.Clear() // each call is a cell: a program of its own
		var rows []lbsim.Row
		note := stderrOf(t, func() {
			done := make(chan error, 1)
			go func() { r, err := run("under 3", []lbsim.Config{c}); rows = r; done <- err }()
			select {
			case err := <-done:
				check(t, err)
			case <-time.After(3 * time.Minute):
				t.Fatal("RunAll did not return in 3 minutes")
			}
		})
		if len(rows) != 1 || rows[0].MeanWait != want.Wait.Mean {
			t.Errorf("rows %+v, want the mean wait of the run, %v", rows, want.Wait.Mean)
		}
		for _, s := range []string{"nb: not cached: policy under-3: its Pick made more than 1000000 calls of its View for one job",
			"computed every run, never stored nor served", "make Pick return", "LBSIM_NO_CACHE=1"} {
			if !strings.Contains(note, s) {
				t.Errorf("note %q does not say %q", note, s)
			}
		}
		if files := cacheFiles(t, dir); len(files) != 0 {
			t.Errorf("cache files %v, want none", files)
		}
	}
	// A key that holds the configuration's key (staleness.Runner's) alike.
	calls := 0
	for range 2 {
		stderrOf(t, func() {
			_, err := Cached([]string{"timed", c.Key()}, func() (int, error) { calls++; return calls, nil })
			check(t, err)
		})
	}
	if calls != 2 {
		t.Errorf("Cached computed %d times in 2 calls under an unfinished key, want 2", calls)
	}
}
