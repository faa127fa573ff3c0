package lbsim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// within checks a simulated estimate against an exact value. The tolerance
// is the run's own 95% confidence interval widened by 1.5 (about three
// standard errors), plus slack for a documented bias (finite K, truncation).
func within(t *testing.T, what string, got lbsim.Estimate, exact, slack float64) {
	t.Helper()
	tol := 1.5*got.CI95 + slack
	if math.IsNaN(got.CI95) || math.Abs(got.Mean-exact) > tol {
		t.Errorf("%s: simulated %.5g ± %.3g, exact %.5g (|diff| %.3g > tolerance %.3g)", what, got.Mean, got.CI95, exact, math.Abs(got.Mean-exact), tol)
	} else {
		t.Logf("%s: simulated %.5g ± %.3g, exact %.5g", what, got.Mean, got.CI95, exact)
	}
}

func run(t *testing.T, cfg lbsim.Config) lbsim.Result {
	t.Helper()
	if cfg.Seed == 0 {
		cfg.Seed = 2026
	}
	r, err := lbsim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

var (
	exp1     = lbsim.Exponential{M: 1}
	handout  = lbsim.NewTwoPointBeta(1, 1000, 0.8)
	h2scv10  = must(lbsim.NewH2Balanced(1, 10))
	allSizes = []lbsim.SizeLaw{exp1, h2scv10, lbsim.Deterministic{X0: 1}}
)

// RND: each server is M/G/1 with rate lambda/K (Pollaczek-Khinchine).
func TestRandomMatchesPollaczekKhinchine(t *testing.T) {
	for _, size := range allSizes {
		for _, rho := range []float64{0.5, 0.8} {
			cfg := lbsim.Config{Servers: 10, Load: rho, Sizes: size, Policy: lbsim.Random{}, Jobs: 400_000, Reps: 8}
			r := run(t, cfg)
			exact := must(theory.RandomDispatch(cfg.ArrivalRate(), size, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}))
			within(t, size.String()+" wait", r.Wait, exact.Wait, 0)
			within(t, size.String()+" response", r.Response, exact.Response, 0)
		}
	}
}

// The handout's heavy-tailed sizes at moderate load: W = 400 rho/(1-rho).
func TestRandomHandoutSizes(t *testing.T) {
	cfg := lbsim.Config{Servers: 50, Load: 0.5, Sizes: handout, Policy: lbsim.Random{}, Jobs: 2_000_000, Reps: 8}
	r := run(t, cfg)
	exact := must(theory.RandomDispatch(cfg.ArrivalRate(), handout, make50(1)))
	within(t, "handout sizes rho=0.5", r.Wait, exact.Wait, 0)
}

func make50(mu float64) []float64 {
	s := make([]float64, 50)
	for i := range s {
		s[i] = mu
	}
	return s
}

// Heterogeneous speeds: RND sends 1/K of the jobs to each server whatever
// its speed; server k is M/G/1 with service X/mu_k.
func TestRandomHeterogeneousSpeeds(t *testing.T) {
	speeds := []float64{0.5, 1, 1.5, 3}
	cfg := lbsim.Config{Servers: 4, Speeds: speeds, Load: 0.2, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 400_000, Reps: 8}
	r := run(t, cfg)
	exact := must(theory.RandomDispatch(cfg.ArrivalRate(), exp1, speeds))
	within(t, "speeds wait", r.Wait, exact.Wait, 0)
	// Server 1 (speed 0.5) gets load lambda/K E[X] / 0.5.
	wantU := cfg.ArrivalRate() / 4 / 0.5
	if u := r.ServerUtilization[0]; math.Abs(u-wantU) > 0.01 {
		t.Errorf("utilization of the slow server: %.4f, want %.4f", u, wantU)
	}
}

// SITA-c with two-point sizes: the short group is M/D/1 with x_m, the long
// group M/D/1 with x_M, each with random splitting.
func TestSITAMatchesMD1PerClass(t *testing.T) {
	sizes := lbsim.TwoPoint{Xm: 1, XM: 20, P: 0.05}
	for _, c := range []int{3, 5} {
		cfg := lbsim.Config{Servers: 10, Load: 0.6, Sizes: sizes, Policy: lbsim.SITA{C: c}, Jobs: 500_000, Reps: 8}
		r := run(t, cfg)
		exact := must(theory.SITATwoPoint(cfg.ArrivalRate(), 10, c, 1, 20, 0.05))
		short, _ := r.Class("short")
		long, _ := r.Class("long")
		within(t, "sita short", short.Wait, exact.Short.Wait, 0)
		within(t, "sita long", long.Wait, exact.Long.Wait, 0)
		within(t, "sita overall", r.Wait, exact.Overall.Wait, 0)
	}
	// A size cut-off between the two sizes is the same policy.
	a := run(t, lbsim.Config{Servers: 10, Load: 0.6, Sizes: sizes, Policy: lbsim.SITA{C: 5}, Jobs: 100_000})
	b := run(t, lbsim.Config{Servers: 10, Load: 0.6, Sizes: sizes, Policy: lbsim.SITA{C: 5, Cut: 10}, Jobs: 100_000})
	if a.Wait != b.Wait {
		t.Errorf("sita:c=5 and sita:cut=10,c=5 differ on two-point sizes: %v vs %v", a.Wait, b.Wait)
	}
}

// SITA with several groups, simulated, against its exact value per group
// (M/G/1 of the group's conditional law, see TestSITAGroupsExactByHand):
// SITA-E's 4 groups of exponential sizes on 10 servers (3, 3, 2 and 2),
// and 3 given cuts of Erlang-2 sizes (group loads 0.8, 0.99 and 1.06 rho),
// at a light and a heavy load.
func TestSITAGroupsMatchConditionalMG1(t *testing.T) {
	for _, tc := range []struct {
		sizes lbsim.SizeLaw
		p     lbsim.SITA
	}{
		{exp1, lbsim.SITA{Groups: 4}},
		{lbsim.Erlang{K: 2, M: 1}, lbsim.SITA{Cuts: []float64{0.5, 1.5}, Servers: []int{1, 5, 4}}},
	} {
		for _, load := range []float64{0.5, 0.8} {
			cfg := lbsim.Config{Servers: 10, Load: load, Sizes: tc.sizes, Policy: tc.p, Jobs: 300_000, Reps: 8}
			r := run(t, cfg)
			ref, ok := lbsim.Exact(cfg)
			if !ok || len(ref.Classes) != len(r.Classes) || len(r.Classes) < 3 {
				t.Fatalf("%s load %v: exact %+v (%v), classes %+v", tc.p, load, ref, ok, r.Classes)
			}
			what := fmt.Sprintf("%s %s load %v", tc.p, tc.sizes, load)
			within(t, what, r.Wait, ref.Wait, 0)
			for i, c := range r.Classes {
				within(t, what+" "+c.Name, c.Wait, ref.Classes[i].Wait, 0)
			}
		}
	}
}

// RR with exponential sizes: every server is E_K/M/1, whose wait solves the
// GI/M/1 root equation (Kleinrock, Queueing Systems I, 1975, sec. 6.4).
func TestRoundRobinMatchesEKM1(t *testing.T) {
	for _, tc := range []struct {
		k     int
		rho   float64
		table float64 // published W
	}{{2, 0.9, 6.588}, {4, 0.9, 5.383}, {10, 0.9, 4.660}, {2, 0.5, 0.618}} {
		cfg := lbsim.Config{Servers: tc.k, Load: tc.rho, Sizes: exp1, Policy: lbsim.RoundRobin{}, Jobs: 1_000_000, Reps: 8}
		r := run(t, cfg)
		exact := must(theory.RoundRobinExp(cfg.ArrivalRate(), tc.k, 1))
		if math.Abs(exact.Wait-tc.table) > 0.001 {
			t.Errorf("E_%d/M/1 at rho=%v: theory %.4f, table %.3f", tc.k, tc.rho, exact.Wait, tc.table)
		}
		within(t, "rr", r.Wait, exact.Wait, 0)
	}
}

// Deterministic arrivals with RR: each server is D/M/1, sigma = exp(-(1-sigma)/(K rho... )).
func TestDeterministicArrivalsDM1(t *testing.T) {
	const k, rho = 3, 0.7
	// D/M/1 with interarrival a = 1/(per-server rate) = 1/rho (mean size 1):
	// sigma = exp(-(1 - sigma) a), solved by fixed-point iteration.
	sigma := 0.5
	for range 1000 {
		sigma = math.Exp(-(1 - sigma) / rho)
	}
	cfg := lbsim.Config{Servers: k, Load: rho, Sizes: exp1, Arrivals: lbsim.DeterministicArrivals{}, Policy: lbsim.RoundRobin{}, Jobs: 500_000, Reps: 8}
	r := run(t, cfg)
	within(t, "D/M/1", r.Wait, sigma/(1-sigma), 0)
}

// LWL under FCFS is the central M/M/K queue (Erlang C).
func TestLWLMatchesErlangC(t *testing.T) {
	for _, tc := range []struct {
		k   int
		rho float64
	}{{2, 0.9}, {10, 0.8}, {50, 0.95}} {
		cfg := lbsim.Config{Servers: tc.k, Load: tc.rho, Sizes: exp1, Policy: lbsim.LeastLoaded{}, Jobs: 500_000, Reps: 8}
		r := run(t, cfg)
		exact := must(theory.MMK(cfg.ArrivalRate(), tc.k, 1))
		within(t, "lwl", r.Wait, exact.Wait, 0)
		// LL-d with d = K is the same policy.
		cfg.Policy = lbsim.LeastLoaded{D: tc.k}
		within(t, "ll:d=K", run(t, cfg).Wait, exact.Wait, 0)
	}
}

// PS with RND: M/G/1-PS has E[R] = E[X]/(1-rho) for any size law.
func TestProcessorSharingInsensitive(t *testing.T) {
	for _, size := range []lbsim.SizeLaw{exp1, h2scv10, lbsim.TwoPoint{Xm: 1, XM: 50, P: 0.02}} {
		cfg := lbsim.Config{Servers: 5, Load: 0.7, Sizes: size, Policy: lbsim.Random{}, Discipline: lbsim.PS, Jobs: 400_000, Reps: 8}
		r := run(t, cfg)
		within(t, "ps "+size.String(), r.Response, size.Mean()/(1-0.7), 0)
	}
}

// JSQ and JSQ-d on few servers against the exactly solved Markov chain,
// truncated where its boundary holds 1e-8 of the mass (JSQdExact's 1e-10
// needs 2-3 times the states and 4 times the time): E[R] within 1e-6 of
// JSQdExact's (2.1970060 against 2.1970061 for JSQ-3 on 6 servers at
// 0.85, 3.7527179 against 3.7527188 for JSQ-2 on 4 at 0.9), thousands of
// times inside the runs' intervals (+- 0.008 to 0.06).
func TestJSQMatchesExactMarkovChain(t *testing.T) {
	t.Parallel() // no process-wide state; its exact reference is solved on one core
	for _, tc := range []struct {
		n, d int
		rho  float64
		p    lbsim.Policy
	}{{2, 2, 0.8, lbsim.JSQ{}}, {4, 2, 0.9, lbsim.JSQ{D: 2}}, {6, 3, 0.85, lbsim.JSQ{D: 3}}, {3, 3, 0.7, lbsim.JSQ{D: 3}}} {
		exact := must(theory.JSQdChain{N: tc.n, D: tc.d, Rho: tc.rho, BoundaryTol: 1e-8}.Solve())
		for _, disc := range []lbsim.Discipline{lbsim.FCFS} {
			cfg := lbsim.Config{Servers: tc.n, Load: tc.rho, Sizes: exp1, Policy: tc.p, Discipline: disc, Jobs: 500_000, Reps: 8}
			within(t, cfg.Policy.String(), run(t, cfg).Response, exact.MeanResponse, 0)
		}
	}
}

// JSQ-2 on many servers approaches Mitzenmacher's limit; at K = 1000 and
// rho = 0.5 the finite-K excess is below 0.5% (see notebook 07).
func TestJSQ2MeanFieldLimit(t *testing.T) {
	cfg := lbsim.Config{Servers: 1000, Load: 0.5, Sizes: exp1, Policy: lbsim.JSQ{D: 2}, Jobs: 1_000_000, Reps: 6, Warmup: 100_000}
	limit := must(theory.JSQdMeanField(2, 0.5))
	within(t, "jsq:d=2 K=1000", run(t, cfg).Response, limit.Response, 0.005*limit.Response)
	cfg.Policy = lbsim.LeastLoaded{D: 2}
	ll := must(theory.LLdMeanField(2, 0.5))
	within(t, "ll:d=2 K=1000", run(t, cfg).Response, ll.Response, 0.005*ll.Response)
}

// A board that is never refreshed during the run (T beyond the last
// arrival) shows every server empty, so JSQ and LL-2 without tally choose
// uniformly: they are random dispatching, whose exact value is known.
func TestStaleBoardForeverIsRandom(t *testing.T) {
	for _, p := range []lbsim.Policy{lbsim.JSQ{}, lbsim.JSQ{D: 2}, lbsim.LeastLoaded{D: 2}, lbsim.LeastLoaded{}} {
		cfg := lbsim.Config{Servers: 10, Load: 0.7, Sizes: exp1, Policy: p, Refresh: 1e12, Jobs: 300_000, Reps: 8}
		exact := must(theory.RandomDispatch(cfg.ArrivalRate(), exp1, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}))
		within(t, p.String()+" on a frozen board", run(t, cfg).Wait, exact.Wait, 0)
	}
}

// A board refreshed far more often than jobs arrive is live state.
func TestBoardRefreshedOftenIsLive(t *testing.T) {
	for _, p := range []lbsim.Policy{lbsim.JSQ{}, lbsim.LeastLoaded{}} {
		cfg := lbsim.Config{Servers: 2, Load: 0.8, Sizes: exp1, Policy: p, Refresh: 1e-4, Jobs: 100_000, Reps: 8}
		var exact float64
		if _, ok := p.(lbsim.JSQ); ok {
			exact = must(theory.JSQdExact(2, 2, 0.8)).MeanResponse - 1
		} else {
			exact = must(theory.MMK(cfg.ArrivalRate(), 2, 1)).Wait
		}
		within(t, p.String()+" board T=1e-4", run(t, cfg).Wait, exact, 0)
	}
}

// Waiting-time quantiles of M/M/1: P(W > w) = rho exp(-(1-rho) w), so the
// q-quantile is ln(rho/(1-q))/(1-rho) when q > 1-rho, and 0 otherwise.
func TestQuantilesMM1(t *testing.T) {
	for _, rho := range []float64{0.3, 0.6} {
		r := run(t, lbsim.Config{Servers: 1, Load: rho, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 2_000_000})
		for i, p := range lbsim.Percentiles() {
			c := struct{ got, q float64 }{r.WaitQuantiles[i].Mean, p.P}
			want := max(0, math.Log(rho/(1-c.q))/(1-rho))
			if math.Abs(c.got-want) > 0.02*want {
				t.Errorf("rho=%v: p%v wait %.4f, want %.4f within 2%%", rho, c.q*100, c.got, want)
			}
		}
	}
}

// The handout's quantity is E[(W + X - A)^+] per job: for M/M/1 with rate
// lambda and mean size 1, (W + X) is the response time R ~ Exp(1 - rho)
// and A ~ Exp(lambda) independent of it, so E[(R - A)^+] = E[R] - E[min(R, A)]
// = 1/(1-rho) - 1/(1 - rho + lambda) = 1/(1-rho) - 1.
func TestHandoutQuantityMM1(t *testing.T) {
	const rho = 0.6
	r := run(t, lbsim.Config{Servers: 1, Load: rho, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 500_000, Reps: 8})
	within(t, "handout quantity", r.Handout, 1/(1-rho)-1, 0)
}

// Static policies ignore speeds: a slow server can be unstable although the
// system load is below 1; that must be an error, not a silent wrong answer.
func TestUnstableSlowServerRejected(t *testing.T) {
	for _, p := range []lbsim.Policy{lbsim.Random{}, lbsim.RoundRobin{}} {
		cfg := lbsim.Config{Servers: 4, Speeds: []float64{0.5, 1, 1.5, 3}, Load: 0.45, Sizes: exp1, Policy: p, Jobs: 10}
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: server 1 at load 1.35 accepted", p)
		} else {
			t.Log(err)
		}
	}
}

// SITA with a size cut-off on H2 sizes: each group is M/G/1 with the
// conditional law of its sizes under random splitting. The conditional
// moments of the H2 density below and above the cut come from a numerical
// integral (Simpson's rule), an independent route to the exact waits.
func TestSITACutMatchesConditionalMG1(t *testing.T) {
	const k, c, cut = 10, 6, 2.0
	cfg := lbsim.Config{Servers: k, Load: 0.5, Sizes: h2scv10, Policy: lbsim.SITA{C: c, Cut: cut}, Jobs: 400_000, Reps: 8}
	r := run(t, cfg)
	density := func(x float64) float64 {
		h := h2scv10
		return h.P1*h.Rate1*math.Exp(-h.Rate1*x) + (1-h.P1)*h.Rate2*math.Exp(-h.Rate2*x)
	}
	moments := func(a, b float64) (p, m1, m2 float64) {
		const n = 200_000
		dx := (b - a) / n
		for i := 0; i <= n; i++ {
			w := 2.0
			if i == 0 || i == n {
				w = 1
			} else if i%2 == 1 {
				w = 4
			}
			x := a + float64(i)*dx
			f := density(x) * w * dx / 3
			p, m1, m2 = p+f, m1+x*f, m2+x*x*f
		}
		return p, m1 / p, m2 / p
	}
	pS, m1S, m2S := moments(0, cut)
	pL, m1L, m2L := moments(cut, 400) // the tail beyond 400 is below 1e-40
	lambda := cfg.ArrivalRate()
	for _, g := range []struct {
		name   string
		rate   float64
		m1, m2 float64
	}{{"short", lambda * pS / c, m1S, m2S}, {"long", lambda * pL / (k - c), m1L, m2L}} {
		exact := must(theory.MG1{Lambda: g.rate, Size: theory.Law{M1: g.m1, M2: g.m2}, Mu: 1}.FCFS())
		got, ok := r.Class(g.name)
		if !ok {
			t.Fatalf("no %s class in %+v", g.name, r.Classes)
		}
		within(t, "sita cut "+g.name, got.Wait, exact.Wait, 0)
		// lbsim's own exact value, from the law's closed-form moments
		// below the cut, against this integration.
		ref, ok := lbsim.Exact(cfg)
		cl, has := ref.Class(g.name)
		if !ok || !has || math.Abs(cl.Wait-exact.Wait) > 1e-9*exact.Wait || ref.Kind != lbsim.ExactValue {
			t.Errorf("sita cut %s: lbsim.Exact %+v (ok %v), want wait %.12g", g.name, ref, ok, exact.Wait)
		}
	}
	if !r.HasExact || len(r.Warnings) > 0 {
		t.Errorf("sita cut: HasExact %v, warnings %v", r.HasExact, r.Warnings)
	}
}

// Hellemans' finite-K LL-2 values (the simulations behind Hellemans and Van Houdt,
// "On the power-of-d-choices with least loaded server selection", SIGMETRICS 2018:
// exponential sizes, rho = 0.9, mean response K=10 2.6022, K=20 2.3042,
// K=50 2.1500, K=100 2.0976) are reproduced when the two servers are
// sampled with replacement; distinct sampling is measurably better at small
// K (notebook 07).
func TestLL2FiniteKHellemans(t *testing.T) {
	for _, tc := range []struct {
		k     int
		table float64
	}{{10, 2.6022}, {20, 2.3042}, {50, 2.1500}, {100, 2.0976}} {
		cfg := lbsim.Config{Servers: tc.k, Load: 0.9, Sizes: exp1, Policy: lbsim.LeastLoaded{D: 2, Replace: true},
			Jobs: 1_000_000, Warmup: 100_000, Reps: 8}
		// The published values carry their own simulation noise: allow 0.3%.
		within(t, cfg.Policy.String(), run(t, cfg).Response, tc.table, 0.003*tc.table)
	}
	distinct := run(t, lbsim.Config{Servers: 10, Load: 0.9, Sizes: exp1, Policy: lbsim.LeastLoaded{D: 2}, Jobs: 1_000_000, Warmup: 100_000, Reps: 8})
	if d := distinct.Response; d.Mean+d.CI95 > 2.6022*0.97 {
		t.Errorf("LL-2 with distinct servers at K=10: %v, expected clearly below the with-replacement 2.6022", d)
	}
}

// The exact values added for trust at the edges, each against the
// simulation (their formulas are tested against independent computations in
// package theory): small-K chains for JSQ-d, JSQ and JIQ (any speeds, FCFS
// and PS), RR at unequal speeds and with H2 sizes, deterministic arrivals
// (D/M/1, GI/M/1 with geometric gaps), the central M/D/K, SITA with a cut
// under PS. Every run is benign: it must carry no warning.
func TestEdgeExactValuesMatchSimulation(t *testing.T) {
	h4 := must(lbsim.NewH2Balanced(1, 4))
	par := must(lbsim.NewPareto(2.5, 1, 0))
	cases := []struct {
		name string
		cfg  lbsim.Config
	}{
		{"JSQ-2 K=3 chain", lbsim.Config{Servers: 3, Load: 0.7, Sizes: exp1, Policy: lbsim.JSQ{D: 2}}},
		{"JSQ K=2 chain, PS", lbsim.Config{Servers: 2, Load: 0.7, Sizes: exp1, Policy: lbsim.JSQ{}, Discipline: lbsim.PS}},
		{"JIQ K=2 speeds 2,1 chain", lbsim.Config{Servers: 2, Speeds: []float64{2, 1}, Load: 0.6, Sizes: exp1, Policy: lbsim.JIQ{}}},
		{"JSQ-2 K=3 speeds 3,2,1 chain", lbsim.Config{Servers: 3, Speeds: []float64{3, 2, 1}, Load: 0.5, Sizes: lbsim.Exponential{M: 2}, Policy: lbsim.JSQ{D: 2}}},
		{"RR speeds 2,1 E_2/M/1", lbsim.Config{Servers: 2, Speeds: []float64{2, 1}, Load: 0.6, Sizes: exp1, Policy: lbsim.RoundRobin{}}},
		{"RR H2 E_3/H2/1", lbsim.Config{Servers: 3, Load: 0.8, Sizes: h4, Policy: lbsim.RoundRobin{}}},
		{"RND det arrivals GI/M/1", lbsim.Config{Servers: 3, Load: 0.7, Sizes: exp1, Policy: lbsim.Random{}, Arrivals: lbsim.DeterministicArrivals{}}},
		{"RR det arrivals D/M/1, speeds", lbsim.Config{Servers: 2, Speeds: []float64{1.5, 1}, Load: 0.6, Sizes: exp1, Policy: lbsim.RoundRobin{}, Arrivals: lbsim.DeterministicArrivals{}}},
		{"LWL det sizes M/D/4", lbsim.Config{Servers: 4, Load: 0.8, Sizes: lbsim.Deterministic{X0: 1}, Policy: lbsim.LeastLoaded{}}},
		{"SITA cut PS Pareto 2.5", lbsim.Config{Servers: 4, Load: 0.6, Sizes: par, Policy: lbsim.SITA{C: 2, Cut: 1.5}, Discipline: lbsim.PS}},
	}
	for _, c := range cases {
		c.cfg.Jobs, c.cfg.Reps = 400_000, 8
		r := run(t, c.cfg)
		if !r.HasExact || r.HasLimit {
			t.Errorf("%s: HasExact %v, HasLimit %v (%s)", c.name, r.HasExact, r.HasLimit, r.Limit.Method)
			continue
		}
		if c.cfg.Discipline == lbsim.PS {
			within(t, c.name+" ("+r.Exact.Method+") response", r.Response, r.Exact.Response, 0)
		} else {
			within(t, c.name+" ("+r.Exact.Method+") wait", r.Wait, r.Exact.Wait, 0)
		}
		if len(r.Warnings) > 0 {
			t.Errorf("%s: warnings on a benign run: %v", c.name, r.Warnings)
		}
	}
}
