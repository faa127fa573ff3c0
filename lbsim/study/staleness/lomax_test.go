package staleness

import (
	"math"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

func TestLomaxMoments(t *testing.T) {
	l, err := NewLomax(2.2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(l.S-1.2) > 1e-15 || math.Abs(l.Mean()-1) > 1e-15 || math.Abs(l.SecondMoment()-12) > 1e-12 {
		t.Fatalf("Lomax(2.2, mean 1) = %+v: mean %v E[X^2] %v, want S=1.2, 1, 12", l, l.Mean(), l.SecondMoment())
	}
	if got := (Lomax{A: 2, S: 1}).SecondMoment(); !math.IsInf(got, 1) {
		t.Errorf("A=2: E[X^2] = %v, want +Inf", got)
	}
	for _, bad := range []Lomax{{A: 1, S: 1}, {A: 2, S: 0}, {A: math.NaN(), S: 1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// Draws follow the ccdf (1 + x/S)^-A at several points (binomial 5-sigma bounds) and have mean 1.
func TestLomaxSampling(t *testing.T) {
	l, _ := NewLomax(2.2, 1)
	r := lbsim.NewStream(7, 11)
	const n = 1_000_000
	xs := []float64{0.1, 1, 5, 30}
	above := make([]int, len(xs))
	var sum float64
	for i := 0; i < n; i++ {
		x := l.Rand(r)
		sum += x
		for j, c := range xs {
			if x > c {
				above[j]++
			}
		}
	}
	for j, c := range xs {
		p := math.Pow(1+c/l.S, -l.A)
		if got := float64(above[j]) / n; math.Abs(got-p) > 5*math.Sqrt(p*(1-p)/n) {
			t.Errorf("P(X > %v) = %v, want %v", c, got, p)
		}
	}
	// Var[X] = 11, so the sample mean's standard deviation is sqrt(11/n) = 0.0033.
	if m := sum / n; math.Abs(m-1) > 5*math.Sqrt(11.0/n) {
		t.Errorf("sample mean %v, want 1", m)
	}
}

// The note's Lomax (tail index 2.2) has E[X^3] = inf, and a run says so: lbsim's warning rule
// reads the law's tail index.
func TestLomaxRunWarnsInfiniteThirdMoment(t *testing.T) {
	l, err := NewLomax(2.2, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lbsim.Run(lbsim.Config{Servers: 2, Load: 0.5, Sizes: l, Policy: lbsim.Random{}, Jobs: 10_000, Reps: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Warnings.Has(lbsim.RuleInfiniteThirdMoment) {
		t.Errorf("Lomax a=2.2 run: warnings %v, want %s", res.Warnings, lbsim.RuleInfiniteThirdMoment)
	}
}
