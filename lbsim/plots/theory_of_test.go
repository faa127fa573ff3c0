package plots

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// TestTheoryCurveOf: the exact curve of any metric is read from the rows
// (Row.MetricExact) and agrees with formulas written here: one server,
// exponential sizes of mean 1 (M/M/1: E[T] = 1/(1 - rho), T exponential of
// rate 1 - rho, so its p99 is ln(100)/(1 - rho)); PS with exponential sizes
// has FCFS's mean response; a two-point law under FCFS has the
// Pollaczek-Khinchine response E[X] + lambda E[X^2]/(2(1 - rho)) and under
// SRPT Schrage and Miller's (ties served FCFS). A metric with no exact
// value is a gap, an unknown metric an error naming the allowed ones.
func TestTheoryCurveOf(t *testing.T) {
	loads := []float64{0.3, 0.6, 0.9}
	sweep := func(sizes lbsim.SizeLaw, ds ...lbsim.Discipline) []lbsim.Row {
		t.Helper()
		var rows []lbsim.Row
		for _, d := range ds {
			g := lbsim.Grid{
				Base:     lbsim.Config{Servers: 1, Sizes: sizes, Discipline: d, Jobs: 2_000, Reps: 2, Seed: 3},
				Policies: []lbsim.Policy{lbsim.Random{}},
				Loads:    loads,
			}
			rs, err := lbsim.Sweep(g, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range rs {
				rs[i].Label = "RND " + d.String()
			}
			rows = append(rows, rs...)
		}
		return rows
	}
	check := func(c Curve, err error, name string, want func(rho float64) float64) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(c.X) != len(loads) || c.Name != name {
			t.Fatalf("curve %q at %v, want %q at %v", c.Name, c.X, name, loads)
		}
		for i, rho := range loads {
			if w := want(rho); c.X[i] != rho || math.Abs(c.Y[i]-w) > 1e-9*w {
				t.Errorf("%s at %v: (%v, %v), by hand %v", name, rho, c.X[i], c.Y[i], w)
			}
		}
	}

	exp := sweep(lbsim.Exponential{M: 1}, lbsim.FCFS, lbsim.PS)
	mm1 := func(rho float64) float64 { return 1 / (1 - rho) }
	c, err := TheoryCurveOf(exp, "mean_response", "RND fcfs")
	check(c, err, "RND fcfs exact", mm1)
	if c.Of != "RND fcfs" {
		t.Errorf("curve drawn in the colour of %q, want the series RND fcfs", c.Of)
	}
	c, err = TheoryCurveOf(exp, "mean_response", "RND ps")
	check(c, err, "RND ps exact", mm1)
	c, err = TheoryCurveOf(exp, "mean_wait", "RND fcfs")
	check(c, err, "RND fcfs exact", func(rho float64) float64 { return rho / (1 - rho) })
	c, err = TheoryCurveOf(exp, "p99_response", "RND fcfs")
	check(c, err, "RND fcfs exact", func(rho float64) float64 { return math.Log(100) / (1 - rho) })

	const xm, xM, p = 1.0, 100.0, 0.01
	two := sweep(lbsim.TwoPoint{Xm: xm, XM: xM, P: p}, lbsim.FCFS, lbsim.SRPT)
	m1, m2 := (1-p)*xm+p*xM, (1-p)*xm*xm+p*xM*xM
	c, err = TheoryCurveOf(two, "mean_response", "RND fcfs")
	check(c, err, "RND fcfs exact", func(rho float64) float64 { return m1 + rho/m1*m2/(2*(1-rho)) })
	c, err = TheoryCurveOf(two, "mean_response", "RND srpt")
	check(c, err, "RND srpt exact", func(rho float64) float64 {
		lambda := rho / m1
		rs := lambda * (1 - p) * xm // the short jobs' load
		short := lambda*xm*xm/(2*(1-rs)) + xm
		long := lambda*m2/(2*(1-rs)*(1-rho)) + xm + (xM-xm)/(1-rs)
		return (1-p)*short + p*long
	})

	// A gap, not a zero: the row at 0.6 has lost its exact value.
	gap := append([]lbsim.Row(nil), exp[:3]...)
	gap[1].ExactResponse = math.NaN()
	if c, err := TheoryCurveOf(gap, "mean_response", "RND fcfs"); err != nil || len(c.X) != 2 || c.X[0] != 0.3 || c.X[1] != 0.9 {
		t.Errorf("curve with a NaN row: %v at %v, want the points at 0.3 and 0.9 only", err, c.X)
	}
	gap[0].ExactResponse, gap[2].ExactResponse = math.NaN(), math.NaN()
	if _, err := TheoryCurveOf(gap, "mean_response", "RND fcfs"); err == nil || !strings.Contains(err.Error(), "no exact mean_response") {
		t.Errorf("no exact value anywhere: %v", err)
	}
	if _, err := TheoryCurveOf(exp, "mean_slowness", "RND fcfs"); err == nil || !strings.Contains(err.Error(), `"mean_slowness"`) || !strings.Contains(err.Error(), "mean_response") {
		t.Errorf("unknown metric: %v; want an error naming it and the allowed ones", err)
	}
	if _, err := TheoryCurveOf(exp, "mean_response", "JSQ"); err == nil || !strings.Contains(err.Error(), "RND fcfs, RND ps") {
		t.Errorf("unknown label: %v", err)
	}
}
