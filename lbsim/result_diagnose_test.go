package lbsim

import (
	"testing"
)

// Every warning rule fires on a run it is meant for and stays silent on a
// benign twin.
func TestWarnings(t *testing.T) {
	par15, _ := NewPareto(1.5, 1, 0)
	par22, _ := NewPareto(2.2, 1, 0)
	par35, _ := NewPareto(3.5, 1, 0)
	parBounded, _ := NewPareto(1.9, 1, 1e8) // all moments finite, E[X^2] set by sizes near 1e8
	hand := NewTwoPointBeta(1, 1000, 0.8)
	exp := Exponential{M: 1}
	base := func(k int, load float64, sizes SizeLaw, p Policy, jobs int64, reps int) Config {
		return Config{Servers: k, Load: load, Sizes: sizes, Policy: p, Jobs: jobs, Reps: reps, Seed: 7}
	}
	cases := []struct {
		name string
		cfg  Config
		rule string
		want bool
	}{
		{"pareto 1.5 FCFS", base(10, 0.8, par15, Random{}, 100000, 2), RuleInfiniteVariance, true},
		{"pareto 1.5 PS", func() Config { c := base(10, 0.8, par15, Random{}, 100000, 2); c.Discipline = PS; return c }(), RuleInfiniteVariance, false},
		{"pareto 2.2", base(100, 0.9, par22, Random{}, 100000, 2), RuleInfiniteThirdMoment, true},
		{"pareto 3.5", base(100, 0.9, par35, Random{}, 100000, 2), RuleInfiniteThirdMoment, false},
		{"bounded pareto, 2e4 jobs", base(10, 0.5, parBounded, Random{}, 20000, 2), RuleSampleMoment, true},
		{"exponential sizes", base(10, 0.5, exp, Random{}, 20000, 2), RuleSampleMoment, false},
		{"SITA-20, 2e5 jobs, rho 0.9", base(100, 0.9, hand, SITA{C: 20}, 200000, 4), RuleFewLongJobs, true},
		{"RND, handout sizes, rho 0.5", base(50, 0.5, hand, Random{}, 200000, 2), RuleFewLongJobs, false},
		{"one replication at rho 0.99", base(1, 0.99, exp, Random{}, 200000, 1), RuleCorrelatedBatches, true},
		{"one replication at rho 0.5", base(10, 0.5, exp, Random{}, 200000, 1), RuleCorrelatedBatches, false},
		{"JSQ-2 from empty at rho 0.99, short", base(100, 0.99, exp, JSQ{D: 2}, 20000, 4), RuleDrift, true},
		{"JSQ-2 at rho 0.5", base(100, 0.5, exp, JSQ{D: 2}, 20000, 4), RuleDrift, false},
		{"handout rho 0.95, 2e5 jobs", base(50, 0.95, hand, Random{}, 200000, 4), RuleExactOutside, true},
		{"handout rho 0.5, 2e5 jobs", base(50, 0.5, hand, Random{}, 200000, 4), RuleExactOutside, false},
		{"overload allowed", func() Config { c := base(10, 1.1, exp, LeastLoaded{D: 2}, 20000, 2); c.AllowOverload = true; return c }(), RuleUnstable, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Run(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Warnings.Has(c.rule); got != c.want {
				t.Errorf("rule %s fired: %v, want %v (warnings: %v; wait %v)", c.rule, got, c.want, r.Warnings, r.Wait)
			}
		})
	}
}

// Benign runs carry no warning at all: crying wolf is a defect too.
func TestNoWarningsOnBenignRuns(t *testing.T) {
	h2, _ := NewH2Balanced(1, 4)
	for seed := range uint64(10) {
		for _, cfg := range []Config{
			{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 100000, Reps: 4},
			{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LeastLoaded{D: 2}, Jobs: 100000},
			{Servers: 20, Load: 0.7, Sizes: h2, Policy: JSQ{D: 2}, Jobs: 100000, Reps: 5},
			{Servers: 10, Load: 0.7, Sizes: Deterministic{X0: 1}, Policy: RoundRobin{}, Jobs: 100000, Reps: 3, Discipline: PS},
		} {
			cfg.Seed = seed
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Warnings) > 0 {
				t.Errorf("%s seed %d: %v", cfg.Key(), seed, r.Warnings)
			}
		}
	}
}

// The drift rule does not cry wolf: of 600 benign runs in steady state (a
// warm-up of 1,000 jobs a server; JSQ-2, K=20, load 0.8, H2 sizes of SCV 4;
// 4 or 12 replications), a test at the 0.1% level flags about 0.6; at the
// 1% level it flagged 6, one or two of every sweep of a hundred points.
func TestDriftFalseAlarmRate(t *testing.T) {
	h2, err := NewH2Balanced(1, 4)
	if err != nil {
		t.Fatal(err)
	}
	n, flagged := 0, 0
	for seed := range 300 {
		for _, reps := range []int{4, 12} {
			cfg := Config{Servers: 20, Load: 0.8, Sizes: h2, Policy: JSQ{D: 2}, Jobs: 40000, Warmup: 20000, Reps: reps, Seed: uint64(seed + 1)}
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, w := range r.Warnings {
				if w.Rule == RuleDrift {
					flagged++
				}
			}
		}
	}
	// Binomial(600, 0.001): more than 3 has probability 0.3%.
	if flagged > 3 {
		t.Errorf("drift flagged %d of %d benign runs: more than a 0.1%% test allows", flagged, n)
	}
}
