package lbsim

import (
	"math"
	"testing"
)

func TestMeanCI95AgainstTTable(t *testing.T) {
	// 1..5: mean 3, s = sqrt(2.5); t_{0.975,4} = 2.776 (printed table).
	e := MeanCI95([]float64{1, 2, 3, 4, 5})
	if want := 2.776 * math.Sqrt(2.5) / math.Sqrt(5); e.Mean != 3 || math.Abs(e.CI95-want) > 5e-4*want {
		t.Errorf("MeanCI95(1..5) = %v, want 3 ± %v", e, want)
	}
	if e := MeanCI95([]float64{7}); e.Mean != 7 || !math.IsNaN(e.CI95) {
		t.Errorf("one sample: %v, want 7 ± NaN", e)
	}
	if e := MeanCI95(nil); !math.IsNaN(e.Mean) {
		t.Errorf("no samples: %v", e)
	}
}

func TestRatioDeltaMethod(t *testing.T) {
	// 10 ± 1 over 5 ± 0.5: 2 with relative errors 10% each, 2 sqrt(0.02).
	r := Ratio(Estimate{10, 1}, Estimate{5, 0.5})
	if r.Mean != 2 || math.Abs(r.CI95-2*math.Sqrt(0.02)) > 1e-12 {
		t.Errorf("Ratio = %v, want 2 ± %v", r, 2*math.Sqrt(0.02))
	}
	if r := Ratio(Estimate{-4, 0.4}, Estimate{2, 0}); r.Mean != -2 || math.Abs(r.CI95-0.2) > 1e-12 {
		t.Errorf("negative ratio %v, want -2 ± 0.2 (a half-width is never negative)", r)
	}
}
