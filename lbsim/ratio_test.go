package lbsim

import (
	"math"
	"testing"
)

// The delta method by hand: 6 ± 0.3 over 2 ± 0.2 is 3 with relative half-widths 5% and 10%,
// so 3 sqrt(0.05^2 + 0.1^2) = 0.33541.
func TestEstimateOver(t *testing.T) {
	got := Estimate{Mean: 6, CI95: 0.3}.Over(Estimate{Mean: 2, CI95: 0.2})
	if math.Abs(got.Mean-3) > 1e-12 || math.Abs(got.CI95-0.3354101966249685) > 1e-12 {
		t.Errorf("6 ± 0.3 over 2 ± 0.2 = %v, want 3 ± 0.33541", got)
	}
	if neg := (Estimate{Mean: -6, CI95: 0.3}).Over(Estimate{Mean: 2, CI95: 0.2}); !(neg.CI95 > 0) {
		t.Errorf("a negative ratio has half-width %v, want it positive", neg.CI95)
	}
}
