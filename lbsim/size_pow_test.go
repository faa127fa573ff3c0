package lbsim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFixedPowIsMathPow: fixedPow gives math.Pow's bits for the Pareto
// exponents -1/Alpha (whole part 0 and 1 after rounding), whole and
// special exponents, and x across the floats: tiny, huge, near 1, the
// edges (0, 1, Inf, NaN, negative).
func TestFixedPowIsMathPow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ys := []float64{-1 / 1.2, -1 / 1.5, -1 / 2.2, -1 / 2.5, -1 / 1.01, -1 / 3.0, -0.5, 0.5, 0, 1, -1, 2, -2, 3.7, -7.25, 1e3 + 0.5,
		-1e6 - 0.25, 1 << 40, math.Inf(1), math.Inf(-1), math.NaN(), 1e300}
	for range 50 {
		ys = append(ys, -1/(1+4*r.Float64()), (r.Float64()-0.5)*40)
	}
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64,
		math.MaxFloat64, 1 - 0x1p-53, 1 + 0x1p-52, -3.5, 1e-300, 1e300}
	for range 20_000 {
		xs = append(xs, r.Float64(), 1-r.Float64()*0.9, math.Ldexp(1+r.Float64(), r.IntN(2100)-1075))
	}
	bad := 0
	for _, y := range ys {
		p := newFixedPow(y)
		for _, x := range xs {
			got, want := p.at(x), math.Pow(x, y)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				if bad++; bad <= 10 {
					t.Errorf("fixedPow(%v).at(%v) = %v, math.Pow gives %v", y, x, got, want)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(ys)*len(xs))
	}
}
