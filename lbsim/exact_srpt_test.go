package lbsim

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// expPartial is the exponential law of mean m written out here (not
// lbsim's Exponential): F = 1 - e^-u, E[X; X <= x] = m (1 - e^-u (1 + u)),
// E[X^2; X <= x] = m^2 (2 - e^-u (u^2 + 2u + 2)), u = x/m; shifted by
// `from` (the sizes from + Exp(m): SITA's long class, by memorylessness)
// and conditioned on X <= to.
type expPartial struct{ m, from, to float64 }

func (l expPartial) raw(x float64) (p, m1, m2 float64) {
	if x <= l.from {
		return 0, 0, 0
	}
	u, c := (x-l.from)/l.m, l.from
	e := math.Exp(-u)
	if math.IsInf(u, 1) {
		e = 0
	}
	f, s1, s2 := -math.Expm1(-u), l.m*(1-e*(1+u)), l.m*l.m*(2-e*(u*u+2*u+2))
	if math.IsInf(u, 1) {
		s1, s2 = l.m, 2*l.m*l.m
	}
	return f, s1 + c*f, s2 + 2*c*s1 + c*c*f
}

func (l expPartial) Below(x float64) (p, m1, m2 float64) {
	if l.to == 0 {
		return l.raw(x)
	}
	pt, _, _ := l.raw(l.to)
	p, m1, m2 = l.raw(math.Min(x, l.to))
	return p / pt, m1 / pt, m2 / pt
}

// srptMean is one M/G/1-SRPT server's mean response, from theory's
// integrator on a law written in the test.
func srptMean(t *testing.T, lambda float64, law theory.Partial, mu float64) float64 {
	t.Helper()
	sol, err := theory.MG1SRPT{Lambda: lambda, Size: law, Mu: mu}.Solve()
	if err != nil {
		t.Fatal(err)
	}
	return sol.Response
}

// Theory under SRPT for random splits: each server (or group) one
// M/G/1-SRPT queue of its rate, speed and (conditional) law, against the
// queue solved on laws written here; deterministic groups against M/D/1
// by hand; the wait is the response less the mean service.
func TestExactSRPTSplit(t *testing.T) {
	for _, rho := range []float64{0.3, 0.8, 0.95} {
		// RND, K=4, exp of mean 2: four M/M/1-SRPT queues at rate lambda/4.
		cfg := Config{Servers: 4, Load: rho, Sizes: Exponential{M: 2}, Policy: Random{}, Discipline: SRPT, Jobs: 1}
		ref, ok := Exact(cfg)
		lambda := cfg.ArrivalRate()
		want := srptMean(t, lambda/4, expPartial{m: 2}, 1)
		if !ok || !near(ref.Response, want, 1e-8) || !near(ref.Wait, want-2, 1e-8) || !strings.Contains(ref.Method, "SRPT") {
			t.Errorf("rnd exp rho=%g: %+v (%v), want response %g", rho, ref, ok, want)
		}

		// RND on speeds 2,1,1: every server lambda/3, at its own speed.
		cfg = Config{Servers: 3, Load: rho, Speeds: []float64{2, 1, 1}, Sizes: Exponential{M: 1}, Policy: Random{}, Discipline: SRPT, Jobs: 1}
		lambda = cfg.ArrivalRate()
		if lambda/3 < 1 { // the slow servers stable
			ref, ok = Exact(cfg)
			want = (srptMean(t, lambda/3, expPartial{m: 1}, 2) + 2*srptMean(t, lambda/3, expPartial{m: 1}, 1)) / 3
			if !ok || !near(ref.Response, want, 1e-8) {
				t.Errorf("rnd speeds 2,1,1 rho=%g: %+v (%v), want response %g", rho, ref, ok, want)
			}
		}

		// SITA with cut 0.96 on exp(1), K=4, C=1 (E[X; X <= 0.96] near
		// 1/4: the groups' loads near rho): the short server sees Exp
		// conditioned on X <= 0.96, the long ones 0.96 + Exp(1).
		cfg = Config{Servers: 4, Load: rho, Sizes: Exponential{M: 1}, Policy: SITA{C: 1, Cut: 0.96}, Discipline: SRPT, Jobs: 1}
		lambda = cfg.ArrivalRate()
		pShort := 1 - math.Exp(-0.96)
		short := srptMean(t, lambda*pShort, expPartial{m: 1, to: 0.96}, 1)
		long := srptMean(t, lambda*(1-pShort)/3, expPartial{m: 1, from: 0.96}, 1)
		ref, ok = Exact(cfg)
		s, _ := ref.Class("short")
		l, _ := ref.Class("long")
		if !ok || !near(s.Response, short, 1e-8) || !near(l.Response, long, 1e-8) || !near(ref.Response, pShort*short+(1-pShort)*long, 1e-8) {
			t.Errorf("sita cut=0.96 rho=%g: %+v (%v), want short %g, long %g", rho, ref, ok, short, long)
		}
		if !near(l.Wait, long-1.96, 1e-8) { // E[X | X > 0.96] = 1.96
			t.Errorf("sita cut=0.96 rho=%g: long wait %g, want %g", rho, l.Wait, long-1.96)
		}
	}

	// SITA on the two-point law (x_m = 1 w.p. 0.9, x_M = 50), K = 10, C = 2:
	// each group deterministic, so M/D/1 by hand: rho_g = lambda p_g x_g /
	// n_g, response x_g + rho_g x_g / (2 (1 - rho_g)); exact sums.
	tp := TwoPoint{Xm: 1, XM: 50, P: 0.1}
	for _, rho := range []float64{0.5, 0.85} {
		cfg := Config{Servers: 10, Load: rho, Sizes: tp, Policy: SITA{C: 2}, Discipline: SRPT, Jobs: 1}
		lambda := cfg.ArrivalRate()
		md1 := func(rate, x float64) float64 { r := rate * x; return x + r*x/(2*(1-r)) }
		short, long := md1(lambda*0.9/2, 1), md1(lambda*0.1/8, 50)
		ref, ok := Exact(cfg)
		s, _ := ref.Class("short")
		l, _ := ref.Class("long")
		if !ok || !near(s.Response, short, 1e-13) || !near(l.Response, long, 1e-13) || !near(ref.Response, 0.9*short+0.1*long, 1e-13) || !strings.Contains(ref.Method, "exact sum") {
			t.Errorf("sita two-point rho=%g: %+v (%v), want short %g, long %g", rho, ref, ok, short, long)
		}
	}

	// Deterministic sizes: SRPT serves them FCFS, so its exact value is
	// M/D/1's, at any speeds.
	for _, rho := range []float64{0.3, 0.9} {
		cfg := Config{Servers: 3, Load: rho, Speeds: []float64{3, 2, 1}, Sizes: Deterministic{X0: 2}, Policy: WeightedRandom{Weights: Weights{Speed: true}}, Jobs: 1}
		fcfs, ok1 := Exact(cfg)
		cfg.Discipline = SRPT
		srpt, ok2 := Exact(cfg)
		if !ok1 || !ok2 || !near(srpt.Response, fcfs.Response, 1e-13) || !near(srpt.Wait, fcfs.Wait, 1e-12) {
			t.Errorf("det rho=%g: SRPT %+v (%v), FCFS %+v (%v)", rho, srpt, ok2, fcfs, ok1)
		}
	}
}

// The known orderings through Theory: under RND, SRPT's mean response is
// at most PS's and FCFS's for every law and load.
func TestExactSRPTOrderings(t *testing.T) {
	h2, _ := NewH2Balanced(1, 30)
	par, _ := NewPareto(2.5, 1, 0)
	par15, _ := NewPareto(1.5, 1, 0)
	for _, sizes := range []SizeLaw{Exponential{M: 1}, h2, par, par15, Erlang{K: 3, M: 1}, TwoPoint{Xm: 1, XM: 100, P: 0.01}, NewModal(100, 500, 1000)} {
		for _, rho := range []float64{0.3, 0.5, 0.7, 0.9, 0.95} {
			cfg := Config{Servers: 4, Load: rho, Sizes: sizes, Policy: Random{}, Jobs: 1}
			fcfs, _ := Exact(cfg)
			cfg.Discipline = PS
			ps, _ := Exact(cfg)
			cfg.Discipline = SRPT
			srpt, ok := Exact(cfg)
			if !ok || srpt.Response > ps.Response || srpt.Response > fcfs.Response || !(srpt.Response >= sizes.Mean()) {
				t.Errorf("%v rho=%g: SRPT %g (%v), PS %g, FCFS %g", sizes, rho, srpt.Response, ok, ps.Response, fcfs.Response)
			}
		}
	}
}

// No formula of FCFS or PS servers is shown for SRPT servers: every
// built-in policy, at one and many servers, equal and unequal speeds,
// exponential, H2 and deterministic sizes, Poisson and deterministic
// arrivals, has under SRPT either no reference or an M/G/1-SRPT one, and
// no limit. RND and SITA do have theirs.
func TestExactSRPTNoOtherFormula(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	var specs []string
	for _, f := range policyRegistry.families() {
		specs = append(specs, f.Example)
	}
	specs = append(specs, "sita:cut=1,c=1", "rnd:weights=speed", "rr:weights=speed", "jsq", "jsq:d=2", "sed", "jiq", "lwl")
	known := map[string]bool{}
	for _, spec := range specs {
		p, err := ParsePolicy(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		for _, k := range []int{1, 2, 4, 100} {
			for _, speeds := range [][]float64{nil, {2, 1}} {
				for _, sizes := range []SizeLaw{Exponential{M: 1}, h2, Deterministic{X0: 1}} {
					for _, arr := range []ArrivalProcess{nil, DeterministicArrivals{}} {
						cfg := Config{Servers: k, Load: 0.5, Speeds: speeds, Sizes: sizes, Policy: p, Arrivals: arr, Discipline: SRPT, Jobs: 1}
						if speeds != nil {
							cfg.Speeds = make([]float64, k)
							for i := range k {
								cfg.Speeds[i] = speeds[i%2]
							}
						}
						if cfg.Validate() != nil {
							continue
						}
						ref, ok := Theory(cfg)
						if ok && (!strings.Contains(ref.Method, "SRPT") || ref.Kind != ExactValue) {
							t.Errorf("%s K=%d speeds %v %v arrivals %v: %s %q %+v under SRPT", spec, k, speeds, sizes, arr, ref.Kind, ref.Method, ref)
						}
						if _, ok := Limit(cfg); ok {
							t.Errorf("%s K=%d %v: a limit under SRPT", spec, k, sizes)
						}
						if ok && k > 1 {
							known[strings.SplitN(spec, ":", 2)[0]] = true
						}
					}
				}
			}
		}
	}
	if !known["rnd"] || !known["sita"] {
		t.Errorf("RND and SITA should have exact SRPT values; had %v", known)
	}
}

// The atomic laws' atoms carry all their mass: BelowCut is 0 below the
// first, flat between two, and the totals at the last.
func TestSizeAtoms(t *testing.T) {
	for _, s := range []SizeLaw{Deterministic{X0: 2}, TwoPoint{Xm: 1, XM: 50, P: 0.1}, NewModal(100, 500, 1000), NewEmpirical([]float64{7, 1, 2, 2})} {
		atoms, ok := lawAtoms(s)
		if !ok || len(atoms) == 0 {
			t.Fatalf("%v: no atoms", s)
		}
		if p, _, _, _ := BelowCut(s, math.Nextafter(atoms[0], 0)); p != 0 {
			t.Errorf("%v: mass %g below its first atom %g", s, p, atoms[0])
		}
		for i := 1; i < len(atoms); i++ {
			p0, a1, a2, _ := BelowCut(s, atoms[i-1])
			p1, b1, b2, _ := BelowCut(s, math.Nextafter(atoms[i], 0))
			if !(atoms[i] > atoms[i-1]) || p0 != p1 || a1 != b1 || a2 != b2 {
				t.Errorf("%v: mass between atoms %g and %g, or not ascending", s, atoms[i-1], atoms[i])
			}
		}
		if p, m1, m2, _ := BelowCut(s, atoms[len(atoms)-1]); !near(p, 1, 1e-15) || !near(m1, s.Mean(), 1e-15) || !near(m2, s.SecondMoment(), 1e-15) {
			t.Errorf("%v: (%g, %g, %g) at its last atom, want the totals", s, p, m1, m2)
		}
	}
	if _, ok := lawAtoms(Exponential{M: 1}); ok {
		t.Error("the exponential law has no atoms")
	}
}

// Simulated SRPT servers against the exact M/G/1-SRPT values: RND (equal
// and unequal speeds; exponential and H2 sizes) and SITA (two-point groups,
// a cut through the exponential law, SITA-E's four groups of H2 sizes and
// three groups of given cuts) at several loads, the simulated
// mean response (and each class's) within 1.5 half-widths of its 95%
// interval (about three standard errors) of the exact value.
func TestExactSRPTMatchesSimulation(t *testing.T) {
	h10, _ := NewH2Balanced(1, 10)
	h30, _ := NewH2Balanced(1, 30)
	cases := []Config{
		{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}},
		{Servers: 4, Load: 0.8, Sizes: Exponential{M: 1}, Policy: Random{}},
		{Servers: 4, Load: 0.7, Sizes: h10, Policy: Random{}},
		{Servers: 2, Load: 0.5, Sizes: h30, Policy: Random{}},
		{Servers: 3, Load: 0.6, Speeds: []float64{2, 1, 1}, Sizes: Exponential{M: 1}, Policy: Random{}},
		{Servers: 3, Load: 0.8, Speeds: []float64{2, 1, 1}, Sizes: Exponential{M: 1}, Policy: WeightedRandom{Weights: Weights{Speed: true}}},
		{Servers: 10, Load: 0.6, Sizes: TwoPoint{Xm: 1, XM: 20, P: 0.05}, Policy: SITA{C: 5}},
		{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Policy: SITA{C: 1, Cut: 0.96}},
		{Servers: 4, Load: 0.8, Sizes: Exponential{M: 1}, Policy: SITA{C: 1, Cut: 0.96}},
		{Servers: 8, Load: 0.7, Sizes: h10, Policy: SITA{Groups: 4}}, // SITA-E's groups, each with its own law
		{Servers: 6, Load: 0.6, Sizes: Exponential{M: 1}, Policy: SITA{Cuts: []float64{0.5, 2}, Servers: []int{2, 2, 2}}},
	}
	for _, cfg := range cases {
		cfg.Discipline, cfg.Jobs, cfg.Reps, cfg.Seed = SRPT, 200_000, 20, 2026
		what := fmt.Sprintf("%s K=%d speeds %v %v rho=%g", policyName(cfg), cfg.Servers, cfg.Speeds, cfg.Sizes, cfg.Load)
		ref, ok := Exact(cfg)
		if !ok {
			t.Fatalf("%s: no exact value", what)
		}
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, got Estimate, exact float64) {
			if math.IsNaN(got.CI95) || math.Abs(got.Mean-exact) > 1.5*got.CI95 {
				t.Errorf("%s %s: simulated %.5g ± %.3g, exact %.6g", what, name, got.Mean, got.CI95, exact)
			} else {
				t.Logf("%s %s: simulated %.5g ± %.3g, exact %.6g", what, name, got.Mean, got.CI95, exact)
			}
		}
		check("response", r.Response, ref.Response)
		for _, c := range ref.Classes {
			if sim, ok := r.Class(c.Name); ok {
				check(c.Name, sim.Response, c.Response)
			} else {
				t.Errorf("%s: no simulated class %s", what, c.Name)
			}
		}
		if r.Warnings.Has(RuleExactOutsideCI) {
			t.Errorf("%s: %v", what, r.Warnings)
		}
	}
}
