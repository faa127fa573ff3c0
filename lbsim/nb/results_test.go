package nb

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// TestResultsCached: whole results (notebook 06 keeps their time series) are stored by the
// cache and read back equal, with their configurations, though a Config holds a policy
// interface that gob cannot encode. The old notebook 06 cached []lbsim.Result with nb.Cached and
// warned on every run "result computed but not stored: ... type not registered for interface:
// lbsim.JSQ".
func TestResultsCached(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	cfgs := []lbsim.Config{
		{Servers: 3, Load: 0.7, Jobs: 2000, Reps: 2, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.JSQ{}, SampleEvery: 50, Seed: 1},
		{Servers: 3, Load: 0.7, Jobs: 2000, Reps: 2, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{}, Seed: 2},
	}
	var first []lbsim.Result
	var err error
	stderr := stderrOf(t, func() { first, err = Results("two runs", cfgs) })
	if err != nil {
		t.Fatal(err)
	}
	if stderr != "" {
		t.Fatalf("the first call warned: %q", stderr)
	}
	if n := len(cacheFiles(t, os.Getenv("LBSIM_CACHE_DIR"))); n != 1 {
		t.Fatalf("%d cache files after the first call, want 1", n)
	}
	second, err := Results("two runs", cfgs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cfgs {
		if second[i].Config.Key() != cfgs[i].Key() {
			t.Errorf("result %d read back with config %s, want %s", i, second[i].Config.Key(), cfgs[i].Key())
		}
		first[i].Seconds, second[i].Seconds = 0, 0
		// A quantile without an interval has CI95 NaN, which DeepEqual
		// never finds equal: compare them apart, then set them alike.
		for _, r := range []*lbsim.Result{&first[i], &second[i]} {
			for j := range r.WaitQuantiles {
				for _, e := range []*lbsim.Estimate{&r.WaitQuantiles[j], &r.ResponseQuantiles[j], &r.Slowdown} {
					if math.IsNaN(e.CI95) {
						e.CI95 = -1
					}
				}
			}
			for _, x := range []*float64{&r.Exact.Slowdown, &r.Limit.Slowdown} { // NaN where unknown
				if math.IsNaN(*x) {
					*x = -1
				}
			}
		}
		if !reflect.DeepEqual(first[i], second[i]) {
			t.Errorf("result %d read back differs:\n%+v\nwant\n%+v", i, second[i], first[i])
		}
	}
	if len(second[0].Series) == 0 {
		t.Error("the time series was not kept")
	}
}

// TestCachedSameComputedOrRead: a value computed by nb.Cached equals the value a later run reads
// back from its entry, so a cell shows the same whether it computed or read the cache. The old
// cache returned the computed rows with their Config and read them back without it.
func TestCachedSameComputedOrRead(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	cfg := lbsim.Config{Servers: 2, Load: 0.5, Jobs: 1000, Reps: 2, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.JSQ{}, Seed: 3}
	compute := func() ([]lbsim.Row, error) {
		res, err := lbsim.RunAll([]lbsim.Config{cfg}, nil)
		return lbsim.Rows(res), err
	}
	computed, err := Cached("rows", compute)
	if err != nil {
		t.Fatal(err)
	}
	read, err := Cached("rows", compute)
	if err != nil {
		t.Fatal(err)
	}
	if computed[0].Config.Servers != read[0].Config.Servers {
		t.Errorf("computed rows have Config.Servers %d, rows read back %d: a cell shows different values on its first and later runs",
			computed[0].Config.Servers, read[0].Config.Servers)
	}
	if a, b := fmt.Sprintf("%+v", computed), fmt.Sprintf("%+v", read); a != b { // text: NaN fields
		t.Errorf("computed and read-back rows differ:\n%s\n%s", a, b)
	}
}
