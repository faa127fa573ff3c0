package staleness

import (
	"math"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// A short run of the live table through the whole chain (configs, results, table) meets every
// exact reference within its own confidence interval (doubled, as five intervals are checked).
func TestLiveTableMeetsExactValues(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	s := Document()
	s.SCVs, s.Jobs, s.Warmup, s.Reps = []float64{1, 4}, 200_000, 20_000, 6
	cfgs, err := s.LiveConfigs()
	if err != nil {
		t.Fatal(err)
	}
	var all []lbsim.Row
	results, err := lbsim.RunAll(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		all = append(all, lbsim.NewRow(r))
	}
	tab, err := s.LiveTable(NewResults(all))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab) != 10 {
		t.Fatalf("%d table rows, want 10", len(tab))
	}
	exact := 0
	for _, r := range tab {
		if math.IsNaN(r.Mean) || !(r.CI95 > 0) {
			t.Errorf("%s at SCV %v: mean %v CI %v", r.Policy, r.SCV, r.Mean, r.CI95)
		}
		if !r.Exact {
			continue
		}
		exact++
		if math.Abs(r.Mean-r.Reference) > 2*r.CI95 {
			t.Errorf("%s at SCV %v: %v ± %v, exact (%s) %v", r.Policy, r.SCV, r.Mean, r.CI95, r.Method, r.Reference)
		}
	}
	if exact != 5 { // random x2, round robin x2 (E_K/M/1, E_K/H2/1), oracle at SCV 1
		t.Errorf("%d exact references, want 5", exact)
	}
}
