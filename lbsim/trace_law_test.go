package lbsim

import (
	"fmt"
	"slices"
	"testing"
)

// traceResultBits is what a trace's law sets in a result, at full
// precision: the means (SITA groups=G's cutoffs come from the sorted sizes) and
// the response quantiles (the response atoms).
func traceResultBits(r Result) string {
	return fmt.Sprintf("%v %v %v %v %v", r.Wait.Mean, r.Wait.CI95, r.Response.Mean, r.ResponseQuantiles, r.Slowdown.Mean)
}

// traceCopy is a new Trace holding copies of tr's jobs: one traceLaw has
// never seen, so its law is computed afresh.
func traceCopy(tr *Trace) *Trace {
	return &Trace{Times: slices.Clone(tr.Times), Sizes: slices.Clone(tr.Sizes)}
}

// A trace's law is computed once per trace (traceLaw), not per
// replication, and a cached law must never be served for sizes that have
// changed: a trace whose sizes are overwritten in place between two runs
// gives, bit for bit, the result of a fresh copy of the new jobs, not the
// old law's (SITA groups=G's cutoffs and the response atoms both come from it).
func TestTraceLawChangedInPlace(t *testing.T) {
	tr := poissonTrace(20_000, 2*0.7, 41)
	cfg := Config{Servers: 2, Policy: SITA{Groups: 2}, Trace: tr, Reps: 2, Seed: 3}
	before := traceResultBits(run(t, cfg))
	if again := traceResultBits(run(t, cfg)); again != before {
		t.Fatalf("the same trace twice: %s, then %s", before, again)
	}
	copy(tr.Sizes, poissonTrace(20_000, 2*0.7, 42).Sizes) // new sizes, in the old slice
	got := traceResultBits(run(t, cfg))
	fresh := cfg
	fresh.Trace = traceCopy(tr)
	want := traceResultBits(run(t, fresh))
	if got != want || got == before {
		t.Errorf("sizes overwritten in place: %s, want a fresh copy's %s (before: %s)", got, want, before)
	}
}

// Runs of many traces at once (more than the cache holds: one a core and
// one more) each give the result of its trace run alone: the cache's
// eviction and its locks (run with -race) never hand one trace's law or
// response atoms to another.
func TestTraceLawsConcurrent(t *testing.T) {
	var cfgs []Config
	for i := range 6 {
		speeds := []float64{1}
		if i%2 == 1 {
			speeds = []float64{2, 1, 1}
		}
		cfgs = append(cfgs, Config{Servers: 3, Speeds: speeds, Policy: SITA{Groups: 3}, Trace: poissonTrace(10_000, 3*0.6, uint64(50+i)), Reps: 3, Seed: 1})
	}
	all, err := RunAll(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cfgs {
		c.Trace = traceCopy(c.Trace)
		if got, want := traceResultBits(all[i]), traceResultBits(run(t, c)); got != want {
			t.Errorf("trace %d among %d at once: %s, alone %s", i, len(cfgs), got, want)
		}
	}
}

// responseAtoms, kept on an empirical law's table for the last speeds
// asked, are each time the sizes over each distinct speed, sorted and
// distinct, for the speeds asked now (written here without the cache).
func TestResponseAtomsKeptPerSpeeds(t *testing.T) {
	law := NewEmpirical([]float64{3, 1, 2, 2, 6})
	for _, speeds := range [][]float64{{1}, {2, 1, 1}, {1}, {3, 1.5}} {
		var want []float64
		for _, x := range []float64{1, 2, 3, 6} {
			for _, mu := range speeds {
				if !slices.Contains(want, x/mu) {
					want = append(want, x/mu)
				}
			}
		}
		slices.Sort(want)
		cfg := Config{Servers: len(speeds), Speeds: speeds, Sizes: law}
		if got := responseAtoms(&cfg); !slices.Equal(got, want) {
			t.Errorf("speeds %v: response atoms %v, want %v", speeds, got, want)
		}
	}
}
