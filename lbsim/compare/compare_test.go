package compare_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
)

// rndVsRR is RND against RR with exponential sizes on K=4 servers: RND makes
// each server M/M/1 (Pollaczek-Khinchine), RR makes it E_4/M/1, both exact.
func rndVsRR(reps int) (lbsim.Config, lbsim.Config) {
	a := lbsim.Config{Servers: 4, Load: 0.8, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 100_000, Reps: reps, Seed: 21}
	b := a
	b.Policy = lbsim.RoundRobin{}
	return a, b
}

// RND - RR against the exact difference: the paired interval covers it and
// is narrower than the unpaired one; the ratio covers the exact ratio.
func TestCompareExact(t *testing.T) {
	for _, reps := range []int{10, 1} {
		ca, cb := rndVsRR(reps)
		if reps == 1 {
			ca.Jobs, cb.Jobs = 1_000_000, 1_000_000
		}
		a, b := run(t, ca), run(t, cb)
		c, err := compare.Results(a, b)
		if err != nil {
			t.Fatal(err)
		}
		exact := a.Exact.Wait - b.Exact.Wait
		if math.Abs(c.ExactDiff-exact) > 1e-12 {
			t.Errorf("ExactDiff %v, want %v", c.ExactDiff, exact)
		}
		units := map[int]int{10: 10, 1: 20}[reps] // replications, or the 20 batch means
		if c.Metric != "mean_wait" || c.Pairs != units {
			t.Errorf("metric %q over %d pairs, want mean_wait over %d", c.Metric, c.Pairs, units)
		}
		if math.Abs(c.Diff-(a.Wait.Mean-b.Wait.Mean)) > 1e-12 {
			t.Errorf("Diff %v, want %v", c.Diff, a.Wait.Mean-b.Wait.Mean)
		}
		if math.Abs(c.Diff-exact) > c.DiffCI95 {
			t.Errorf("R=%d: paired %v ± %v does not cover the exact %v", reps, c.Diff, c.DiffCI95, exact)
		}
		if !(c.DiffCI95 < c.UnpairedDiffCI95) {
			t.Errorf("R=%d: paired half-width %v not below the unpaired %v", reps, c.DiffCI95, c.UnpairedDiffCI95)
		}
		ratio := a.Exact.Wait / b.Exact.Wait
		if math.Abs(c.Ratio-ratio) > c.RatioCI95 || !(c.RatioCI95 < c.UnpairedRatioCI95) {
			t.Errorf("R=%d: ratio %v ± %v (unpaired ± %v), exact %v", reps, c.Ratio, c.RatioCI95, c.UnpairedRatioCI95, ratio)
		}
		t.Logf("R=%d: diff %.4g ± %.3g (unpaired ± %.3g), exact %.4g; ratio %.4g ± %.3g (unpaired ± %.3g), exact %.4g",
			reps, c.Diff, c.DiffCI95, c.UnpairedDiffCI95, exact, c.Ratio, c.RatioCI95, c.UnpairedRatioCI95, ratio)
	}
}

// The paired formulas on hand-made rows: differences 1, 2, 3 give 2 ±
// t_{0.975,2} s/sqrt(3) with s = 1; the ratio by the delta method.
func TestCompareFormulas(t *testing.T) {
	a := lbsim.Row{Label: "A", Policy: "a", Discipline: "fcfs", Reps: 3, Jobs: 10, Seed: 1,
		MeanWait: 4, MeanWaitCI95: 5, Units: map[string][]float64{"mean_wait": {2, 4, 6}, "mean_response": {3, 5, 7}}}
	b := a
	b.Label, b.Policy, b.MeanWait, b.Units = "B", "b", 2, map[string][]float64{"mean_wait": {1, 2, 3}}
	c, err := compare.Rows(a, b)
	if err != nil {
		t.Fatal(err)
	}
	t975 := 4.302652729749464
	if c.Diff != 2 || math.Abs(c.DiffCI95-t975/math.Sqrt(3)) > 1e-9 {
		t.Errorf("diff %v ± %v, want 2 ± %v", c.Diff, c.DiffCI95, t975/math.Sqrt(3))
	}
	// a_i - 2 b_i = 0 for every pair: the ratio is exactly 2.
	if c.Ratio != 2 || c.RatioCI95 != 0 {
		t.Errorf("ratio %v ± %v, want 2 ± 0", c.Ratio, c.RatioCI95)
	}
	if want := math.Hypot(5, 5); math.Abs(c.UnpairedDiffCI95-want) > 1e-12 {
		t.Errorf("unpaired half-width %v, want sqrt(5^2+5^2) = %v", c.UnpairedDiffCI95, want)
	}
}

// The default metric follows the discipline column, read by lbsim's parser
// (a row decoded from a cache has no Config): the mean response when
// either run is preemptive, the mean wait when neither is.
func TestCompareDefaultMetric(t *testing.T) {
	units := map[string][]float64{"mean_wait": {1, 2, 3}, "mean_response": {2, 3, 5}}
	for _, tc := range []struct{ a, b, want string }{
		{"fcfs", "fifo", "mean_wait"}, {"", "fcfs", "mean_wait"},
		{"fcfs", "ps", "mean_response"}, {"SRPT", "fcfs", "mean_response"}, {"ps", "srpt", "mean_response"},
	} {
		a := lbsim.Row{Label: "A", Policy: "a", Discipline: tc.a, Reps: 3, Jobs: 10, Seed: 1, Units: units}
		b := a
		b.Label, b.Policy, b.Discipline = "B", "b", tc.b
		if c, err := compare.Rows(a, b); err != nil || c.Metric != tc.want {
			t.Errorf("%q against %q: metric %q (%v), want %s", tc.a, tc.b, c.Metric, err, tc.want)
		}
	}
}

// Runs that do not share their random numbers are refused, naming the
// difference; runs that differ only in the policy or the board are paired.
func TestCompareNotPaired(t *testing.T) {
	base, _ := rndVsRR(2)
	base.Jobs = 5_000
	a := run(t, base)
	cases := []struct {
		edit func(*lbsim.Config)
		want string
	}{
		{func(c *lbsim.Config) { c.Seed = 22 }, "seed 21 and 22 differ"},
		{func(c *lbsim.Config) { c.Jobs = 6_000 }, "jobs 5000 and 6000 differ"},
		{func(c *lbsim.Config) { c.Reps = 3 }, "reps 2 and 3 differ"},
		{func(c *lbsim.Config) { c.Warmup = 100 }, "warmup 0 and 100 differ"},
		{func(c *lbsim.Config) { c.Load = 0.7 }, "load 0.8 and 0.7 differ"},
		{func(c *lbsim.Config) { c.Sizes = h2scv10 }, "sizes exp:mean=1 and h2:mean=1,scv=10 differ"},
		{func(c *lbsim.Config) { c.Arrivals = lbsim.DeterministicArrivals{} }, "arrivals poisson and det differ"},
		{func(c *lbsim.Config) { c.Speeds = []float64{1, 1, 1, 1.5} }, "speeds 4@1 and 3@1,1@1.5 differ"},
	}
	for _, tc := range cases {
		cfg := base
		cfg.Policy = lbsim.RoundRobin{}
		tc.edit(&cfg)
		_, err := compare.Results(a, run(t, cfg))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "not paired") {
			t.Errorf("got %v, want an error with %q", err, tc.want)
		}
	}
	auto := base
	auto.Reps, auto.WarmupAuto = 1, true
	_, err := compare.Results(run(t, auto), run(t, auto))
	if err == nil || !strings.Contains(err.Error(), "auto warm-up") {
		t.Errorf("one replication with auto warm-up: got %v, want a refusal", err)
	}
	cv := base
	cv.ControlVariates = true
	if _, err := compare.Results(run(t, cv), run(t, cv)); err == nil || !strings.Contains(err.Error(), "ControlVariates") {
		t.Errorf("runs with control variates: got %v, want a refusal", err)
	}
	if _, err := compare.Rows(lbsim.Row{Label: "A", Reps: 1}, lbsim.Row{Label: "B", Reps: 1}); err == nil || !strings.Contains(err.Error(), "no per-replication values of mean_wait") {
		t.Errorf("rows without replication means: got %v", err)
	}
	ll := base
	ll.Policy, ll.Refresh, ll.Discipline = lbsim.LeastLoaded{D: 2}, 0.5, lbsim.PS
	c, err := compare.Results(a, run(t, ll))
	if err != nil {
		t.Fatal(err)
	}
	if c.Metric != "mean_response" {
		t.Errorf("FCFS against PS: metric %q, want mean_response", c.Metric)
	}
	ll.Discipline = lbsim.SRPT
	if c, err = compare.Results(a, run(t, ll)); err != nil || c.Metric != "mean_response" {
		t.Errorf("FCFS against SRPT: metric %q (%v), want mean_response", c.Metric, err)
	}
}

// CompareByLoad pairs the rows of two policies at each load of a sweep.
func TestCompareByLoad(t *testing.T) {
	g := lbsim.Grid{Base: lbsim.Config{Servers: 4, Sizes: exp1, Jobs: 20_000, Reps: 3, Seed: 5},
		Policies: []lbsim.Policy{lbsim.Random{}, lbsim.RoundRobin{}}, Loads: []float64{0.5, 0.8}}
	rows, err := lbsim.Sweep(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := compare.ByLoad(rows, "RND", "RR")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Load != 0.5 || cs[1].Load != 0.8 || cs[1].A != "RND" || cs[1].B != "RR" {
		t.Fatalf("comparisons %+v: want RND - RR at 0.5 and 0.8", cs)
	}
	if _, err := compare.ByLoad(rows, "RND", "JSQ"); err == nil || !strings.Contains(err.Error(), `no row for policy "JSQ"`) {
		t.Errorf("missing policy: got %v", err)
	}
}

var exp1 = lbsim.Exponential{M: 1}

var h2scv10, _ = lbsim.NewH2Balanced(1, 10)

func run(t *testing.T, cfg lbsim.Config) lbsim.Result {
	t.Helper()
	r, err := lbsim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The same configuration twice is no comparison: refused, not a
// difference of 0 ± 0.
func TestCompareSameConfigurationRefused(t *testing.T) {
	a, _ := rndVsRR(2)
	a.Jobs = 2000
	r := run(t, a)
	if _, err := compare.Results(r, r); err == nil || !strings.Contains(err.Error(), "same configuration") {
		t.Errorf("RND against itself: %v", err)
	}
}

// RND - RR on the p99 response, K=4, exponential sizes: RND's servers are
// M/M/1 (response Exp(1 - rho)), RR's E_4/M/1 (response Exp(1 - sigma),
// sigma the root of sigma = (4 rho / (4 rho + 1 - sigma))^4, solved here by
// its fixed-point iteration). The paired interval, from 10 replications
// and from the 20 batch quantiles of one, covers the exact difference.
func TestCompareQuantileExact(t *testing.T) {
	const rho = 0.8
	sigma := 0.5
	for range 10_000 {
		sigma = math.Pow(4*rho/(4*rho+1-sigma), 4)
	}
	p99 := math.Log(100)
	exact := p99/(1-rho) - p99/(1-sigma)
	for _, reps := range []int{10, 1} {
		ca, cb := rndVsRR(reps)
		ca.Jobs, cb.Jobs = 200_000, 200_000
		if reps == 1 {
			ca.Jobs, cb.Jobs = 2_000_000, 2_000_000
		}
		c, err := compare.ResultsOn(run(t, ca), run(t, cb), "p99_response")
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(c.ExactDiff-exact) > 1e-6*exact {
			t.Errorf("R=%d: exact difference %v, want %v", reps, c.ExactDiff, exact)
		}
		if math.Abs(c.Diff-exact) > c.DiffCI95 || !(c.Diff > 0) {
			t.Errorf("R=%d: paired %v ± %v does not cover the exact %v", reps, c.Diff, c.DiffCI95, exact)
		}
		ratio := (p99 / (1 - rho)) / (p99 / (1 - sigma))
		if math.Abs(c.Ratio-ratio) > c.RatioCI95 || !(c.RatioCI95 < 0.1*ratio) {
			t.Errorf("R=%d: ratio %v ± %v, exact %v", reps, c.Ratio, c.RatioCI95, ratio)
		}
		wantUnits := map[int]string{10: "replications", 1: "batch quantiles"}[reps]
		if c.Metric != "p99_response" || c.Units != wantUnits {
			t.Errorf("R=%d: metric %q over %s, want p99_response over %s", reps, c.Metric, c.Units, wantUnits)
		}
		t.Logf("R=%d: p99 response RND - RR %.4g ± %.3g (unpaired ± %.3g), exact %.4g; ratio %.4g ± %.3g, exact %.4g",
			reps, c.Diff, c.DiffCI95, c.UnpairedDiffCI95, exact, c.Ratio, c.RatioCI95, ratio)
	}
}

// An unknown metric is refused, naming the allowed ones.
func TestCompareUnknownMetric(t *testing.T) {
	ca, cb := rndVsRR(2)
	ca.Jobs, cb.Jobs = 2000, 2000
	_, err := compare.ResultsOn(run(t, ca), run(t, cb), "p95_wait")
	if err == nil || !strings.Contains(err.Error(), `"p95_wait"`) || !strings.Contains(err.Error(), "p99_response") {
		t.Errorf("metric p95_wait: %v, want an error naming it and the allowed metrics", err)
	}
	if _, err := compare.ByLoadOn(nil, "RND", "RR", "p97_wait"); err == nil || !strings.Contains(err.Error(), "mean_wait") {
		t.Errorf("ByLoadOn with p97_wait: %v", err)
	}
}

// Replays of a trace are summed into the batches of one run (lbsim's
// CIMethod says so): compare calls its units batch means, not the
// replications it was given.
func TestCompareTraceUnits(t *testing.T) {
	tr := lbsim.Trace{}
	for i := range 20_000 {
		tr.Times = append(tr.Times, float64(i)*0.4)
		tr.Sizes = append(tr.Sizes, float64(1+i%3)*0.5)
	}
	var rows []lbsim.Row
	for _, p := range []lbsim.Policy{lbsim.RoundRobin{}, lbsim.LeastLoaded{}} {
		r, err := lbsim.Run(lbsim.Config{Servers: 2, Policy: p, Trace: &tr, Reps: 5, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, lbsim.NewRow(r))
	}
	c, err := compare.Rows(rows[0], rows[1])
	if err != nil {
		t.Fatal(err)
	}
	if c.Units != "batch means" {
		t.Errorf("a trace's 5 replays (%s): units %q, want batch means", rows[0].CIMethod, c.Units)
	}
}

// Pairable judges two configurations before they run, as RowsOn judges
// their rows: a setting outside MayDiffer that differs is an *Unpaired
// naming it and both values; the same configuration is refused; a view, a
// number of dispatchers, a discipline and a policy may differ. Setups names
// each by its policy and what else differs.
func TestPairableSetups(t *testing.T) {
	a := lbsim.Config{Servers: 10, Load: 0.8, Sizes: exp1, Policy: lbsim.JSQ{}, View: lbsim.OwnView, Dispatchers: 4, Jobs: 1000, Seed: 3}
	b := a
	b.Policy, b.View, b.Dispatchers = lbsim.RoundRobin{}, lbsim.LiveView, 1
	if err := compare.Pairable(a, b); err != nil {
		t.Errorf("jsq, own view, 4 dispatchers against rr: %v", err)
	}
	if na, nb := compare.Setups(a, b); na != "jsq, dispatchers 4, view own" || nb != "rr, dispatchers 1, view live" {
		t.Errorf("Setups: %q and %q", na, nb)
	}
	ps := a
	ps.Discipline = lbsim.PS
	if na, nb := compare.Setups(ps, a); na != "jsq, discipline ps" || nb != "jsq, discipline fcfs" {
		t.Errorf("Setups: %q and %q", na, nb)
	}
	for _, tc := range []struct {
		edit          func(*lbsim.Config)
		setting, A, B string
	}{
		{func(c *lbsim.Config) { c.Load = 0.9 }, "load", "0.8", "0.9"},
		{func(c *lbsim.Config) { c.Servers = 20 }, "servers", "10", "20"},
		{func(c *lbsim.Config) { c.Seed = 4 }, "seed", "3", "4"},
		{func(c *lbsim.Config) { c.Reps = 2 }, "reps", "1", "2"},
		{func(c *lbsim.Config) { c.Batches = 10 }, "batches", "0", "10"},
	} {
		other := b
		tc.edit(&other)
		err := compare.Pairable(a, other)
		var u *compare.Unpaired
		if !errors.As(err, &u) || *u != (compare.Unpaired{Setting: tc.setting, A: tc.A, B: tc.B}) {
			t.Errorf("%s: got %v, want %s %s and %s", tc.setting, err, tc.setting, tc.A, tc.B)
		}
	}
	if err := compare.Pairable(a, a); err == nil || !strings.Contains(err.Error(), "A and B are the same configuration") {
		t.Errorf("a set-up against itself: %v", err)
	}
	if !slices.Contains(compare.MayDiffer(), "view") || slices.Contains(compare.MayDiffer(), "load") {
		t.Errorf("MayDiffer %v", compare.MayDiffer())
	}
}
