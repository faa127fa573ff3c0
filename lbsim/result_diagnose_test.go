package lbsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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
	h2, _ := NewH2Balanced(1, 8)
	base := func(k int, load float64, sizes SizeLaw, p Policy, jobs int64, reps int) Config {
		return Config{Servers: k, Load: load, Sizes: sizes, Policy: p, Jobs: jobs, Reps: reps, Seed: 7}
	}
	cases := []struct {
		name string
		cfg  Config
		rule string
		want bool
	}{
		{"pareto 1.5 FCFS", base(10, 0.8, par15, Random{}, 100000, 2), RuleInfiniteSecondMoment, true},
		{"pareto 1.5 PS", func() Config { c := base(10, 0.8, par15, Random{}, 100000, 2); c.Discipline = PS; return c }(), RuleInfiniteSecondMoment, true},
		{"pareto 2.2 PS", func() Config { c := base(10, 0.8, par22, Random{}, 100000, 2); c.Discipline = PS; return c }(), RuleInfiniteSecondMoment, false},
		{"pareto 2.2", base(100, 0.9, par22, Random{}, 100000, 2), RuleInfiniteThirdMoment, true},
		{"pareto 3.5", base(100, 0.9, par35, Random{}, 100000, 2), RuleInfiniteThirdMoment, false},
		{"bounded pareto, 2e4 jobs", base(10, 0.5, parBounded, Random{}, 20000, 2), RuleTailUndersampled, true},
		{"exponential sizes", base(10, 0.5, exp, Random{}, 20000, 2), RuleTailUndersampled, false},
		{"SITA-20, 2e5 jobs, rho 0.9", base(100, 0.9, hand, SITA{C: 20}, 200000, 4), RuleInitialTransient, true},
		{"RND, handout sizes, rho 0.5", base(50, 0.5, hand, Random{}, 200000, 2), RuleInitialTransient, false},
		{"one replication at rho 0.99", base(1, 0.99, exp, Random{}, 200000, 1), RuleCorrelatedBatches, true},
		{"one replication at rho 0.5", base(10, 0.5, exp, Random{}, 200000, 1), RuleCorrelatedBatches, false},
		{"JSQ-2 from empty at rho 0.99, short", base(100, 0.99, exp, JSQ{D: 2}, 20000, 4), RuleDrift, true},
		{"JSQ-2 at rho 0.5", base(100, 0.5, exp, JSQ{D: 2}, 20000, 4), RuleDrift, false},
		{"handout rho 0.95, 2e5 jobs", base(50, 0.95, hand, Random{}, 200000, 4), RuleExactOutsideCI, true},
		{"handout rho 0.5, 2e5 jobs", base(50, 0.5, hand, Random{}, 200000, 4), RuleExactOutsideCI, false},
		// SRPT on a server a policy of one's own overloads (1.4): its big
		// jobs never leave while arrivals go on (sim.hasTail), which the
		// configuration cannot tell; at 0.95 on RND they all leave.
		{"SRPT, own policy overloads server 1", func() Config {
			c := base(4, 0.5, exp, favourite{0.6}, 20000, 2)
			c.Discipline = SRPT
			return c
		}(), RuleCutShort, true},
		{"SRPT at rho 0.95", func() Config { c := base(4, 0.95, h2, Random{}, 100000, 2); c.Discipline = SRPT; return c }(), RuleCutShort, false},
		{"overload allowed", func() Config { c := base(10, 1.1, exp, LeastLoaded{D: 2}, 20000, 2); c.AllowOverload = true; return c }(), RuleUnstable, true},
		// LL-2 on speeds 0.1..10 passes the d-sampling bound (0.298) at
		// 0.29, but LL-2 sends the slow servers more than the bound: they
		// measure 1.004. At 0.1 they are far from it.
		{"LL-2 unequal speeds at 0.29", speeds7(base(7, 0.29, h2, LeastLoaded{D: 2}, 400000, 2)), RuleUnstable, true},
		{"LL-2 unequal speeds at 0.1", speeds7(base(7, 0.1, h2, LeastLoaded{D: 2}, 400000, 2)), RuleUnstable, false},
		{"drift, overloaded: no warm-up advice", speeds7(base(7, 0.6, exp, JIQ{}, 100000, 4)), RuleUnstable, true},
		// A policy of one's own that sends server 1 a share p + (1-p)/4:
		// load 4 rho share = 1.4 for p = 0.6, 0.8 for p = 0.2 (rho = 0.5).
		{"own policy overloads server 1", base(4, 0.5, exp, favourite{0.6}, 100000, 4), RuleUnstable, true},
		{"own policy, server 1 at 0.8", base(4, 0.5, exp, favourite{0.2}, 100000, 4), RuleUnstable, false},
		{"JIQ unequal speeds at 0.1", speeds7(base(7, 0.1, exp, JIQ{}, 100000, 4)), RuleUnstable, false},
		// The same policy claiming an even split: the measured load speaks.
		{"own policy, claimed even split, overloads server 1", base(4, 0.5, exp, evenClaim{favourite{0.6}}, 100000, 4), RuleUnstable, true},
		{"own policy, claimed even split, server 1 at 0.8", base(4, 0.5, exp, evenClaim{favourite{0.2}}, 100000, 4), RuleUnstable, false},
		// RND on speeds 3,1 puts the slow server at load 2 rho: a ramp
		// passes its limit 0.5 long before it reaches 0.9.
		{"ramp past RND's limit on speeds 3,1", func() Config {
			c := base(2, 1, exp, Random{}, 20000, 2)
			c.Speeds, c.Arrivals = []float64{3, 1}, Ramp{From: 0.2, To: 0.9, Over: 100}
			return c
		}(), RuleUnstable, true},
		{"ramp below RND's limit on speeds 3,1", func() Config {
			c := base(2, 1, exp, Random{}, 20000, 2)
			c.Speeds, c.Arrivals = []float64{3, 1}, Ramp{From: 0.2, To: 0.45, Over: 100}
			return c
		}(), RuleUnstable, false},
		{"ramp to 1.2 reached", func() Config {
			c := base(10, 1, exp, Random{}, 20000, 2)
			c.Arrivals = Ramp{From: 0.5, To: 1.2, Over: 100}
			return c
		}(), RuleUnstable, true},
		{"ramp to 0.9 reached", func() Config {
			c := base(10, 1, exp, Random{}, 20000, 2)
			c.Arrivals = Ramp{From: 0.5, To: 0.9, Over: 100}
			return c
		}(), RuleUnstable, false},
		{"ramp over 1e100", func() Config {
			c := base(10, 1, exp, Random{}, 20000, 2)
			c.Arrivals = Ramp{From: 0.5, To: 0.9, Over: 1e100}
			return c
		}(), RuleRampNotReached, true},
		{"ramp over 100", func() Config {
			c := base(10, 1, exp, Random{}, 20000, 2)
			c.Arrivals = Ramp{From: 0.5, To: 0.9, Over: 100}
			return c
		}(), RuleRampNotReached, false},
		{"ramp: no relaxation verdict", func() Config {
			c := base(10, 0.9, exp, Random{}, 20000, 1) // the load a ramp ignores
			c.Arrivals = Ramp{From: 0.5, To: 0.9, Over: 1e100}
			return c
		}(), RuleInitialTransient, false},
		// 1e5 jobs at K=10, load 0.8 last about 12,500 time units.
		{"board T=1e4", func() Config { c := base(10, 0.8, exp, JSQ{D: 2}, 100000, 2); c.Refresh = 1e4; return c }(), RuleFewRefreshes, true},
		{"board T=100", func() Config { c := base(10, 0.8, exp, JSQ{D: 2}, 100000, 2); c.Refresh = 100; return c }(), RuleFewRefreshes, false},
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
			if r.Warnings.Has(RuleUnstable) {
				for _, w := range r.Warnings {
					if strings.Contains(w.Message, "use a warm-up") {
						t.Errorf("an unstable run advises a warm-up: %v", w)
					}
				}
			}
		})
	}
}

// favourite is a user's policy: server 1 with probability P, else uniform.
type favourite struct{ P float64 }

func (f favourite) String() string { return fmt.Sprintf("favourite:p=%v", f.P) }
func (f favourite) Pick(v *View, _ float64) int {
	if v.Rand().Float64() < f.P {
		return 0
	}
	return v.Rand().IntN(v.K())
}

// evenClaim is a policy that claims an even split (WorkShares) whatever it does.
type evenClaim struct{ favourite }

func (evenClaim) Describe(Config) Description {
	return Description{Reads: NoState, WorkShares: []float64{0.25, 0.25, 0.25, 0.25}}
}

// speeds7 gives c the seven speeds 0.1 to 10 of the stability tests.
func speeds7(c Config) Config {
	c.Speeds = []float64{0.1, 0.2, 0.5, 1, 2, 5, 10}
	return c
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
			// Unequal speeds, every server stable.
			{Servers: 10, Speeds: []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, Load: 0.6, Sizes: Exponential{M: 1}, Policy: RoundRobin{}, Jobs: 100000, Reps: 4},
			{Servers: 7, Speeds: []float64{0.1, 0.2, 0.5, 1, 2, 5, 10}, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LeastLoaded{}, Jobs: 100000, Reps: 4},
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
		cfg := Config{Servers: 20, Load: 0.8, Sizes: h2, Policy: JSQ{D: 2}, Jobs: 40000, Warmup: 20000, Seed: uint64(seed + 1)}
		for _, r := range runPrefixes(t, cfg, 4, 12) {
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

// runPrefixes is Run(cfg) with Reps = each of reps, from one set of
// replications: replication r draws from streams of (Seed, r) whatever
// Reps, so the run with fewer is the first of the run with more.
func runPrefixes(t *testing.T, cfg Config, reps ...int) []Result {
	t.Helper()
	cfg.Reps = slices.Max(reps)
	all, err := runReps(&cfg, 0, cfg.Reps, cfg.poolWorkers())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Result, len(reps))
	for i, r := range reps {
		c := cfg
		c.Reps = r
		out[i] = aggregate(&c, all[:r])
	}
	return out
}

// TestExactOutsideNamesBoth: under FCFS the warning names the simulated quantity as it names
// the exact one (mean wait), and gives both in mean response too, which tables of time in
// system show: a reader sees the same numbers in the row and in its warning.
func TestExactOutsideNamesBoth(t *testing.T) {
	cfg := Config{Servers: 4, Load: 0.5, Sizes: NewTwoPointBeta(1, 1000, 0.8), Policy: Random{}, Jobs: 2, Seed: 1}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var msg string
	for _, w := range r.Warnings {
		if w.Rule == RuleExactOutsideCI {
			msg = w.Message
		}
	}
	for _, want := range []string{
		fmt.Sprintf("the exact mean wait is %.6g", r.Exact.Wait),
		fmt.Sprintf("mean response %.6g)", r.Exact.Response),
		fmt.Sprintf("from the simulated mean wait %s; mean response %.6g:", r.Wait, r.Response.Mean),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("%s warning %q lacks %q", RuleExactOutsideCI, msg, want)
		}
	}
}

// A weighted split is judged by each server's own load. On speeds 3,1
// rnd:weights=speed puts both servers at rho = 0.9, with H2 sizes (mean 1,
// SCV 10: E[X^2] = 11), lambda = 0.9 * 4 = 3.6: by Pollaczek-Khinchine
// per server, W_1 = 2.7 (11/9) / (2 * 0.1) = 16.5 and W_2 = 0.9 * 11 /
// (2 * 0.1) = 49.5, so E[W] = 0.75 W_1 + 0.25 W_2 = 24.75. The run-length
// analysis, which once saw the slow server at 1.8 and said nothing on 11
// of 20 seeds, warns every seed (as it does the equal-speed control), and
// names a queue at 0.9. Weighted round robin on 5@2,5@1 at 0.5 is never
// said to have "a queue at load 0.75", the slow servers' load under an
// even split.
func TestWeightedSplitRunLength(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	lambda, m2 := 0.9*4.0, 11.0
	pk := func(lambdaK, mu float64) float64 {
		rho := lambdaK / mu
		return lambdaK * m2 / (mu * mu) / (2 * (1 - rho))
	}
	want := 0.75*pk(0.75*lambda, 3) + 0.25*pk(0.25*lambda, 1)
	cfg := Config{Servers: 2, Speeds: []float64{3, 1}, Load: 0.9, Sizes: h2, Policy: WeightedRandom{Weights: Weights{Speed: true}}, Jobs: 20000}
	// What the model's loads imply: sum p_k W_k, W_k = rho_k E[S_k^2] / (2 E[S_k] (1 - rho_k)), S_k = X / mu_k.
	implied := 0.0
	for _, q := range cfg.serverLoads() {
		implied += float64(q.to-q.from) * q.share * q.rho * q.m2 / q.speed / (2 * q.m1 * (1 - q.rho))
		if math.Abs(q.rho-0.9) > 1e-12 {
			t.Errorf("servers %d..%d at load %v, want 0.9", q.from+1, q.to, q.rho)
		}
	}
	ref, ok := Exact(cfg)
	if math.Abs(want-24.75) > 1e-12 || math.Abs(implied-want) > 1e-9 || !ok || math.Abs(ref.Wait-want) > 1e-9 {
		t.Errorf("mean wait by hand %v, from the model's loads %v, Exact %v (%v): want 24.75 for all", want, implied, ref.Wait, ok)
	}
	transient := 0
	for seed := range uint64(20) {
		cfg.Seed = seed + 1
		r := run(t, cfg)
		if !r.Warnings.Has(RuleInitialTransient) && !r.Warnings.Has(RuleCorrelatedBatches) {
			t.Errorf("seed %d: %s, exact %v: no run-length warning (%v)", cfg.Seed, r.Wait, want, r.Warnings)
		}
		for _, w := range r.Warnings {
			if w.Rule == RuleInitialTransient {
				transient++
				if !strings.Contains(w.Message, "a queue at load 0.9 ") {
					t.Errorf("seed %d: %v; want a queue at load 0.9", cfg.Seed, w)
				}
			}
		}
	}
	if transient < 3 {
		t.Errorf("initial-transient fired on %d of 20 seeds, want at least 3", transient)
	}
	rr := Config{Servers: 10, Speeds: []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, Load: 0.5, Sizes: h2,
		Policy: WeightedRoundRobin{Weights: Weights{Speed: true}}, Jobs: 2000, Reps: 5}
	for seed := range uint64(5) {
		rr.Seed = seed + 1
		for _, w := range run(t, rr).Warnings {
			if strings.Contains(w.Message, "load 0.75") {
				t.Errorf("rr:weights=speed at 0.5, seed %d: %v; every server is at 0.5", rr.Seed, w)
			}
		}
	}
}

// A trace is never refused, but warned about when a server cannot keep
// up: at offered load 2 under RND, and under RR on 20@1,20@1.6 at 0.85,
// whose 20 slow servers get 1/40 of the jobs, a load of 0.85 * 52/40 =
// 1.105 (measured 1.06 to 1.19). At 0.5 no server is overloaded.
func TestTraceOverloadUnstable(t *testing.T) {
	speeds := make([]float64, 40)
	for k := range speeds {
		speeds[k] = 1 + 0.6*float64(k/20)
	}
	for _, c := range []struct {
		name   string
		cfg    Config
		load   float64 // the trace's offered load
		unstab bool
	}{
		{"rnd at 2", Config{Servers: 4, Policy: Random{}}, 2, true},
		{"rr on 20@1,20@1.6 at 0.85", Config{Servers: 40, Speeds: speeds, Policy: RoundRobin{}}, 0.85, true},
		{"rnd at 0.5", Config{Servers: 4, Policy: Random{}}, 0.5, false},
		{"rr on 20@1,20@1.6 at 0.5", Config{Servers: 40, Speeds: speeds, Policy: RoundRobin{}}, 0.5, false},
	} {
		cfg := c.cfg
		cfg.Trace = poissonTrace(40000, c.load*cfg.Capacity(), 5)
		cfg.Reps, cfg.Seed = 2, 1
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s: a trace refused: %v", c.name, err)
			continue
		}
		r := run(t, cfg)
		if r.Warnings.Has(RuleUnstable) != c.unstab {
			t.Errorf("%s (offered load %.4g, server utilisations %.4g): unstable %v, want %v; warnings %v",
				c.name, r.Config.offeredLoad(), r.ServerUtilization, !c.unstab, c.unstab, r.Warnings)
		}
	}
}

// poissonTrace is n jobs of a Poisson process of rate lambda with Exp(1)
// sizes, from a seeded generator.
func poissonTrace(n int, lambda float64, seed uint64) *Trace {
	r := rand.New(rand.NewPCG(seed, 0))
	tr := &Trace{Times: make([]float64, n), Sizes: make([]float64, n)}
	t := 0.0
	for i := range n {
		t += r.ExpFloat64() / lambda
		tr.Times[i], tr.Sizes[i] = t, r.ExpFloat64()
	}
	return tr
}

// Item 24, the other side of "0 ± NaN": a mean shown without an interval,
// or with one of width 0, is not shown without a word when the run is far
// too short (1 or 2 jobs of a queue that relaxes in 80); it is when the
// system truly has no waiting (deterministic arrivals and sizes under
// round robin: every wait is 0, the interval's width 0 is right).
func TestNoIntervalWarns(t *testing.T) {
	for _, c := range []struct {
		jobs  int64
		rules []string
	}{{1, []string{RuleInitialTransient}}, {2, []string{RuleInitialTransient, RuleExactOutsideCI}}} {
		cfg := Config{Servers: 4, Load: 0.5, Sizes: NewTwoPointBeta(1, 1000, 0.8), Policy: Random{}, Jobs: c.jobs, Seed: 1}
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range c.rules {
			if !r.Warnings.Has(rule) {
				t.Errorf("%d jobs: mean wait %v ± %v without %s (warnings %v)", c.jobs, r.Wait.Mean, r.Wait.CI95, rule, r.Warnings)
			}
		}
	}
	cfg := Config{Servers: 2, Load: 0.5, Sizes: Deterministic{X0: 1}, Arrivals: DeterministicArrivals{}, Policy: RoundRobin{}, Jobs: 1000, Seed: 1}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Wait.Mean != 0 || r.Wait.CI95 != 0 || r.Warnings.Has(RuleInitialTransient) || r.Warnings.Has(RuleExactOutsideCI) {
		t.Errorf("D/D round robin: wait %v ± %v, warnings %v; want 0 ± 0 without a warning", r.Wait.Mean, r.Wait.CI95, r.Warnings)
	}
}

// TestOverloadSeenWhateverTheShares: a measured utilisation far above 1 is
// unstable under every policy, also one whose theory keeps every server
// below 1 (RR's even split, a symmetric policy on equal speeds), where a
// utilisation just above 1 in a short run is sampling error. The
// utilisations are set by hand: the run that gave 251 (M = 500 round-robin
// pointers started in step at K = 20,000, load 0.5, 20,000 jobs) no longer
// happens.
func TestOverloadSeenWhateverTheShares(t *testing.T) {
	for _, c := range []struct {
		name   string
		cfg    Config
		u      float64 // the first server's measured utilisation
		unstab bool
	}{
		{"rr K=20000 M=500, 251", Config{Servers: 20000, Dispatchers: 500, Load: 0.5, Jobs: 20000, Policy: RoundRobin{}}, 251, true},
		{"rr K=20000 M=500, 4.1", Config{Servers: 20000, Dispatchers: 500, Load: 0.5, Jobs: 20000, Policy: RoundRobin{}}, 4.1, false},
		{"jsq-2 K=10, 3", Config{Servers: 10, Load: 0.9, Jobs: 100_000, Policy: JSQ{D: 2}}, 3, true},
		{"jsq-2 K=10 1e3 jobs, 1.2", Config{Servers: 10, Load: 0.95, Jobs: 1000, Policy: JSQ{D: 2}}, 1.2, false},
		{"rnd H2 scv 50, 1.5", Config{Servers: 10, Load: 0.95, Jobs: 10_000, Policy: Random{}, Sizes: mustH2(t, 50)}, 1.5, false},
	} {
		cfg := c.cfg
		if cfg.Sizes == nil {
			cfg.Sizes = Exponential{M: 1}
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r := Result{ServerUtilization: make([]float64, cfg.Servers)}
		for k := range r.ServerUtilization {
			r.ServerUtilization[k] = cfg.Load
		}
		r.ServerUtilization[0] = c.u
		why := instability(&cfg, make([]replication, 2), &r)
		if (why != "") != c.unstab {
			t.Errorf("%s: instability %q, want unstable %v", c.name, why, c.unstab)
		}
	}
}

func mustH2(t *testing.T, scv float64) H2 {
	h, err := NewH2Balanced(1, scv)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestNearCriticalServer: JIQ on speeds 3,1 at load 0.74 (its stability
// limit is 0.75) runs its slow server at a measured 0.99, whose queue
// relaxes in about 8,000 jobs; the pooled system at 0.74 relaxes in a few.
// One replication of 2e6 jobs has batches under 6 relaxation times of that
// server, and 5 of 2e5 jobs a bias of about 12%: both are said, and name
// the server's measured utilisation. JSQ-2 on equal speeds keeps every
// server near the offered load and stays with the pooled system (silent).
func TestNearCriticalServer(t *testing.T) {
	base := Config{Servers: 2, Speeds: []float64{3, 1}, Load: 0.74, Sizes: Exponential{M: 1}, Policy: JIQ{}, Seed: 3}
	for _, c := range []struct {
		jobs int64
		reps int
		rule string
	}{{2_000_000, 1, RuleCorrelatedBatches}, {200_000, 5, RuleInitialTransient}} {
		cfg := base
		cfg.Jobs, cfg.Reps = c.jobs, c.reps
		r := run(t, cfg)
		var w Warning
		for _, x := range r.Warnings {
			if x.Rule == c.rule {
				w = x
			}
		}
		t.Logf("jiq 3,1 at 0.74, %d jobs x %d: wait %v, utilisations %.4g, warnings %v", c.jobs, c.reps, r.Wait, r.ServerUtilization, r.Warnings)
		if !strings.Contains(w.Message, "measured utilisation 0.9") {
			t.Errorf("jiq 3,1 at 0.74, %d jobs x %d: no %s naming the slow server's measured utilisation: %v", c.jobs, c.reps, c.rule, r.Warnings)
		}
	}
	r := run(t, Config{Servers: 10, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}, Jobs: 200_000, Reps: 5, Seed: 3})
	if len(r.Warnings) > 0 {
		t.Errorf("jsq-2 K=10 at 0.9: warned %v", r.Warnings)
	}
}

// Under SRPT the heavy-tail rules are PS's: with E[X^2] = inf the mean
// response exists and the warning says why the interval fails (not FCFS's
// infinite mean wait); with E[X^2] < inf = E[X^3] the response time has a
// finite variance (its tail is the size's), so no third-moment warning.
// The rules read the configuration only: diagnose is asked of an empty
// result.
func TestWarningsSRPT(t *testing.T) {
	par15, _ := NewPareto(1.5, 1, 0)
	par22, _ := NewPareto(2.2, 1, 0)
	warnings := func(sizes SizeLaw, d Discipline) map[string]string {
		cfg := Config{Servers: 10, Load: 0.8, Sizes: sizes, Policy: Random{}, Discipline: d, Jobs: 100000, Reps: 2}
		out := map[string]string{}
		for _, w := range diagnose(&cfg, nil, &Result{}) {
			out[w.Rule] = w.Message
		}
		return out
	}
	msg, ok := warnings(par15, SRPT)[RuleInfiniteSecondMoment]
	if !ok || !strings.Contains(msg, "under SRPT the mean response exists") || strings.Contains(msg, "FCFS server") {
		t.Errorf("pareto 1.5 under SRPT: %q, want SRPT's reason", msg)
	}
	ws := warnings(par22, SRPT)
	if _, third := ws[RuleInfiniteThirdMoment]; third {
		t.Errorf("pareto 2.2 under SRPT: %v, want no third-moment warning", ws)
	}
	if _, third := warnings(par22, FCFS)[RuleInfiniteThirdMoment]; !third {
		t.Error("pareto 2.2 under FCFS: want the third-moment warning")
	}
}
