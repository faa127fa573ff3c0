package plots

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

func TestByLabelAndTheoryCurve(t *testing.T) {
	g := lbsim.Grid{
		Base:     lbsim.Config{Servers: 4, Sizes: lbsim.Exponential{M: 1}, Jobs: 5_000, Reps: 2, Seed: 5},
		Policies: []lbsim.Policy{lbsim.Random{}, lbsim.LeastLoaded{D: 2}},
		Loads:    []float64{0.2, 0.5, 0.8},
	}
	rows, err := lbsim.Sweep(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows[4].Warnings = lbsim.Warnings{{Rule: "ci-not-believable", Message: "hand-made"}}
	ss, err := ByLabel(rows, MeanWait)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 || ss[0].Name != "RND" || ss[1].Name != "LL-2" || len(ss[1].X) != 3 || ss[1].X[2] != 0.8 {
		t.Fatalf("series %+v", ss)
	}
	if ss[0].Warned != nil || ss[1].Warned[1] != "ci-not-believable" || ss[1].Y[1] != rows[4].MeanWait || ss[1].CI[1] != rows[4].MeanWaitCI95 {
		t.Errorf("LL-2 series %+v: want the row's mean, CI and warning at load 0.5", ss[1])
	}
	if _, err := ByLabel(rows, MeanWait, "RND", "LL-3"); err == nil || !strings.Contains(err.Error(), `"LL-3"; the rows have RND, LL-2`) {
		t.Errorf("unknown label: %v", err)
	}
	// RND with exponential sizes: each server M/M/1, E[W] = rho/(1-rho).
	c, err := TheoryCurve(rows, "RND")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.X) != CurvePoints || c.X[0] != 0.2 || c.X[len(c.X)-1] != 0.8 || c.Of != "RND" || c.Name != "RND exact" {
		t.Fatalf("curve %s of %s over %v..%v (%d points)", c.Name, c.Of, c.X[0], c.X[len(c.X)-1], len(c.X))
	}
	for i, rho := range c.X {
		if want := rho / (1 - rho); math.Abs(c.Y[i]-want) > 1e-12*want {
			t.Errorf("exact at %v = %v, want M/M/1 %v", rho, c.Y[i], want)
		}
	}
	// LL-2 at K=4: theory has the K -> infinity limit, named as such.
	if c, err := TheoryCurve(rows, "LL-2"); err != nil || c.Name != "LL-2 limit K→∞" {
		t.Errorf("LL-2 curve %q, %v", c.Name, err)
	}
	pareto := rows[:1]
	pareto[0].Config.Sizes = lbsim.Pareto{Alpha: 1.5, L: 1.0 / 3, H: math.Inf(1)}
	if _, err := TheoryCurve(pareto, "RND"); err == nil || !strings.Contains(err.Error(), "no finite mean wait") {
		t.Errorf("infinite E[X^2]: %v", err)
	}
}

// biased is a user's own policy on K = 2 servers: server 0 with probability
// P, else server 1. It supplies its theory (each server M/M/1 at its own
// rate, exponential sizes of mean m, speed 1):
//
//	lambda_i = lambda P_i,  rho_i = lambda_i m,  E[W_i] = rho_i m / (1 - rho_i),
//	E[W] = P E[W_0] + (1-P) E[W_1],
//
// times Claim (1 for the truth), and its split of the work, so Validate
// refuses an overloaded server.
type biased struct {
	P, Claim float64
	Kind     lbsim.RefKind // "" for ExactValue
}

func (p biased) String() string { return "biased" }
func (p biased) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.NoState, WorkShares: []float64{p.P, 1 - p.P}}
}
func (p biased) Pick(v *lbsim.View, _ float64) int {
	if v.Rand().Float64() < p.P {
		return 0
	}
	return 1
}
func (p biased) Theory(c lbsim.Config) (lbsim.Reference, bool) {
	exp, ok := c.Sizes.(lbsim.Exponential)
	if !ok || c.Servers != 2 || c.Discipline != lbsim.FCFS {
		return lbsim.Reference{}, false
	}
	m, lambda := exp.M, c.ArrivalRate()
	w := 0.0
	for _, share := range []float64{p.P, 1 - p.P} {
		rho := lambda * share * m
		w += share * rho * m / (1 - rho)
	}
	w *= p.Claim
	kind := lbsim.ExactValue
	if p.Kind != "" {
		kind = p.Kind
	}
	return lbsim.Reference{Wait: w, Response: w + m, Method: "M/M/1 per server", Kind: kind}, true
}

// A policy of one's own that supplies its theory gets what the built-in
// ones get, with no other code: the exact columns of its rows, the
// exact-outside-ci warning when its claim is wrong, the theory curve, and
// (from WorkShares) Validate's refusal of an overloaded server.
func TestUserPolicyTheory(t *testing.T) {
	base := lbsim.Config{Servers: 2, Sizes: lbsim.Exponential{M: 2}, Jobs: 200_000, Reps: 4, Seed: 3}
	g := lbsim.Grid{Base: base, Policies: []lbsim.Policy{biased{P: 0.7, Claim: 1}}, Loads: []float64{0.2, 0.4, 0.6}}
	rows, err := lbsim.Sweep(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		// lambda = 2 rho / m = rho; rho_0 = 1.4 rho, rho_1 = 0.6 rho.
		r0, r1 := 1.4*r.Load, 0.6*r.Load
		want := 0.7*r0*2/(1-r0) + 0.3*r1*2/(1-r1)
		if math.Abs(r.ExactWait-want) > 1e-12*want || r.ExactMethod != "M/M/1 per server" || len(r.Warnings) > 0 {
			t.Errorf("load %v: exact %v (%s), warnings %v; want %v and no warning", r.Load, r.ExactWait, r.ExactMethod, r.Warnings, want)
		}
		if math.Abs(r.MeanWait-want) > 2*r.MeanWaitCI95 {
			t.Errorf("load %v: simulated %v ± %v, want %v", r.Load, r.MeanWait, r.MeanWaitCI95, want)
		}
	}
	c, err := TheoryCurve(rows, "biased")
	if err != nil {
		t.Fatal(err)
	}
	for i, rho := range c.X {
		r0, r1 := 1.4*rho, 0.6*rho
		if want := 0.7*r0*2/(1-r0) + 0.3*r1*2/(1-r1); math.Abs(c.Y[i]-want) > 1e-12*want {
			t.Errorf("curve at %v = %v, want %v", rho, c.Y[i], want)
		}
	}
	if c.Name != "biased exact" || len(c.X) != CurvePoints {
		t.Errorf("curve %q with %d points", c.Name, len(c.X))
	}
	// A wrong claim (30% too high) is caught by the simulation.
	wrong := base
	wrong.Load, wrong.Policy = 0.6, biased{P: 0.7, Claim: 1.3}
	res, err := lbsim.Run(wrong)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Warnings.Has(lbsim.RuleExactOutsideCI) {
		t.Errorf("wrong theory %v against simulated %v: no %s warning", res.Exact.Wait, res.Wait, lbsim.RuleExactOutsideCI)
	}
	// As a lower bound, the same claim is caught (the mean is below it);
	// the truth halved, a valid bound, raises nothing.
	for _, tc := range []struct {
		claim float64
		warn  bool
	}{{1.3, true}, {0.5, false}} {
		wrong.Policy = biased{P: 0.7, Claim: tc.claim, Kind: lbsim.LowerBound}
		res, err := lbsim.Run(wrong)
		if err != nil {
			t.Fatal(err)
		}
		if res.Warnings.Has(lbsim.RuleBelowLowerBound) != tc.warn || res.Warnings.Has(lbsim.RuleExactOutsideCI) {
			t.Errorf("lower bound %v against simulated %v: warnings %v, want %s: %v", res.Exact.Wait, res.Wait, res.Warnings, lbsim.RuleBelowLowerBound, tc.warn)
		}
	}
	// rho = 0.75 puts 1.05 on server 1.
	over := base
	over.Load, over.Policy = 0.75, biased{P: 0.7, Claim: 1}
	if err := over.Validate(); err == nil || !strings.Contains(err.Error(), "server 1 (speed 1) has load 1.05") {
		t.Errorf("overloaded server 1: %v", err)
	}
}

// A grid over K has two LL-2 rows per load: ByLabel says which column to
// filter by instead of joining them into one zigzag line (issue 25, item 6).
func TestByLabelAmbiguous(t *testing.T) {
	g := lbsim.Grid{
		Base:    lbsim.Config{Servers: 4, Sizes: lbsim.Exponential{M: 1}, Jobs: 2_000, Seed: 5, Policy: lbsim.LeastLoaded{D: 2}},
		Servers: []int{4, 8},
		Loads:   []float64{0.3, 0.6},
	}
	rows, err := lbsim.Sweep(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ByLabel(rows, MeanWait); err == nil || !strings.Contains(err.Error(), "servers 4 and 8") || !strings.Contains(err.Error(), "r.Servers == 4") {
		t.Errorf("ByLabel on a grid over K: %v; want an error naming the column servers", err)
	}
	if ss, err := ByLabel(lbsim.Select(rows, func(r lbsim.Row) bool { return r.Servers == 8 }), MeanWait); err != nil || len(ss[0].X) != 2 {
		t.Errorf("after the filter: %v, %v", ss, err)
	}
}

// A metric by name reads its column and half-width; an unknown name is
// refused with the allowed ones.
func TestNamedMetric(t *testing.T) {
	r := lbsim.Row{P99Response: 12.5, P99ResponseCI95: 0.5, MeanWait: 3, MeanWaitCI95: 0.1}
	for name, want := range map[string][2]float64{"p99_response": {12.5, 0.5}, "mean_wait": {3, 0.1}} {
		m, err := Named(name)
		if err != nil {
			t.Fatal(err)
		}
		if got, ci := m(r); got != want[0] || ci != want[1] {
			t.Errorf("%s: %v ± %v, want %v", name, got, ci, want)
		}
	}
	if _, err := Named("p95_wait"); err == nil || !strings.Contains(err.Error(), "p999_response") {
		t.Errorf("unknown metric: %v, want an error naming the allowed", err)
	}
}
