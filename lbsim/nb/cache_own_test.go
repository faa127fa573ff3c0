package nb

import (
	"strings"
	"testing"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/testpolicy"

	"github.com/perfeval/lbsim/lbsim"
)

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

// A cache hit at K = 10^6 costs about what a small one does: the key is
// compact (speeds as runs) and the hit does not re-encode megabytes.
func TestOwn_KeyHitLargeK(t *testing.T) {
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
func TestOwn_EditedPolicyRecomputed(t *testing.T) {
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
