package theory

import (
	"math"
	"testing"
)

func TestH2BalancedMeans(t *testing.T) {
	for _, m := range []float64{0.5, 1, 7} {
		for _, c2 := range []float64{1, 4, 10, 30, 160} {
			h, err := HyperExpBalanced(m, c2)
			if err != nil {
				t.Fatal(err)
			}
			if !near(h.Mean(), m, 1e-12) || !near(h.SecondMoment(), (1+c2)*m*m, 1e-12) || !near(h.SCV(), c2, 1e-9) {
				t.Errorf("m=%g c2=%g: mean %g E[X^2] %g SCV %g", m, c2, h.Mean(), h.SecondMoment(), h.SCV())
			}
			// Balanced means: each phase carries half the work.
			if !near(h.P1/h.Rate1, m/2, 1e-12) || !near((1-h.P1)/h.Rate2, m/2, 1e-12) {
				t.Errorf("m=%g c2=%g: phase work %g and %g, want %g", m, c2, h.P1/h.Rate1, (1-h.P1)/h.Rate2, m/2)
			}
		}
	}
	// Blog post: at SCV 30 about 1 job in 61 is a giant averaging 30.5,
	// the rest average about half a service time.
	h, _ := HyperExpBalanced(1, 30)
	if n := 1 / (1 - h.P1); math.Abs(n-61) > 0.5 {
		t.Errorf("SCV 30: 1 giant in %g, want about 61", n)
	}
	if g := 1 / h.Rate2; math.Abs(g-30.5) > 0.05 {
		t.Errorf("SCV 30: giant mean %g, want about 30.5", g)
	}
	if s := 1 / h.Rate1; math.Abs(s-0.508) > 0.001 {
		t.Errorf("SCV 30: small mean %g, want about 0.508", s)
	}
}

func TestH2Errors(t *testing.T) {
	_, err := HyperExpBalanced(1, 0.5)
	wantErr(t, err, "c2=0.5", "1 <= c2")
	_, err = HyperExpBalanced(0, 2)
	wantErr(t, err, "mean size m=0")
	_, err = HyperExpBalanced(1, math.Inf(1))
	wantErr(t, err, "c2=+Inf")
}
