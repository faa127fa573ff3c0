package lbsim

import (
	"math"
	"testing"
)

// Quantiles of known values come back within the bins' 0.8%, zeros as 0.
func TestHistogramQuantiles(t *testing.T) {
	h := newHistogram()
	for i := range 1000 {
		h.add(float64(i)) // 0, 1, ..., 999
	}
	for _, q := range []float64{0.0005, 0.25, 0.5, 0.95, 0.999} {
		want := math.Ceil(q*1000) - 1
		if got := h.quantile(q); math.Abs(got-want) > 0.008*want {
			t.Errorf("q=%v: %v, want %v within 0.8%%", q, got, want)
		}
	}
	z := newHistogram()
	z.add(0)
	z.add(0)
	z.add(3)
	if z.quantile(0.5) != 0 || math.Abs(z.quantile(0.9)-3) > 0.03 {
		t.Errorf("zeros: p50 %v p90 %v", z.quantile(0.5), z.quantile(0.9))
	}
	big := newHistogram()
	big.add(1e300)
	if q := big.quantile(0.5); !(q > 1e11) {
		t.Errorf("huge value clamped to %v", q)
	}
}
