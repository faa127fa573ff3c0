package lbsim

import (
	"math"
	"testing"
)

// The ziggurat's exponential has mean 1, E[X^2] = 2 and P(X > 3) = e^-3;
// IntN is uniform (chi-square over 7 cells).
func TestStreamLaws(t *testing.T) {
	s := NewStream(1, 2)
	const n = 2_000_000
	var m1, m2, tail float64
	for range n {
		x := s.ExpFloat64()
		m1 += x
		m2 += x * x
		if x > 3 {
			tail++
		}
	}
	m1, m2, tail = m1/n, m2/n, tail/n
	// Standard errors: sd(X)/sqrt(n) = 7e-4; sd(X^2) = sqrt(20)/sqrt(n) = 3.2e-3.
	if math.Abs(m1-1) > 0.003 || math.Abs(m2-2) > 0.013 || math.Abs(tail-math.Exp(-3)) > 0.001 {
		t.Errorf("exponential: mean %.5f (1), E[X^2] %.5f (2), P(X>3) %.5f (%.5f)", m1, m2, tail, math.Exp(-3))
	}
	var cells [7]float64
	for range n {
		cells[s.IntN(7)]++
	}
	chi2 := 0.0
	for _, c := range cells {
		chi2 += (c - n/7.0) * (c - n/7.0) / (n / 7.0)
	}
	if chi2 > 22.46 { // 0.999 quantile of chi-square with 6 degrees of freedom
		t.Errorf("IntN(7) cells %v: chi-square %.2f", cells, chi2)
	}
	u := 0.0
	for range n {
		u += s.Float64()
	}
	if math.Abs(u/n-0.5) > 0.001 {
		t.Errorf("Float64 mean %.5f", u/n)
	}
}
