package plots

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

func TestByLabelAndExactCurve(t *testing.T) {
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
	c, err := ExactCurve(rows, "RND")
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
	if c, err := ExactCurve(rows, "LL-2"); err != nil || c.Name != "LL-2 limit K→∞" {
		t.Errorf("LL-2 curve %q, %v", c.Name, err)
	}
	pareto := rows[:1]
	pareto[0].Config.Sizes = lbsim.Pareto{Alpha: 1.5, L: 1.0 / 3, H: math.Inf(1)}
	if _, err := ExactCurve(pareto, "RND"); err == nil || !strings.Contains(err.Error(), "no finite mean wait") {
		t.Errorf("infinite E[X^2]: %v", err)
	}
}
