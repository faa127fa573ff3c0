package lbsim

import "math"

// fixedPow is x^y for one exponent y and many x, as the Pareto law draws
// its sizes (X = L U^(-1/Alpha)): math.Pow's own steps, with the split of
// y into its whole part and a fraction in [-1/2, 1/2] done once instead of
// at every call, so the bits are math.Pow's for every x
// (TestFixedPowIsMathPow). x^y = 2^(ae) a1, a1 = e^(yf ln x) times the
// repeated squares of x's mantissa for the bits of yi; 1/x^|y| for y < 0.
type fixedPow struct {
	y        float64
	yi       int64   // |y|'s whole part, plus one when its fraction is above 1/2
	yf       float64 // |y| - yi, in [-1/2, 1/2]
	negative bool    // y < 0: the power is inverted
	// special: y is one of the exponents math.Pow treats apart (0, ±1/2,
	// 1, not finite, beyond 2^63); at calls math.Pow.
	special bool
}

func newFixedPow(y float64) fixedPow {
	p := fixedPow{y: y, negative: y < 0}
	yi, yf := math.Modf(math.Abs(y))
	if y == 0 || y == 1 || y == 0.5 || y == -0.5 || math.IsNaN(y) || math.IsInf(y, 0) || yi >= 1<<63 {
		p.special = true
		return p
	}
	if yf > 0.5 {
		yf--
		yi++
	}
	p.yi, p.yf = int64(yi), yf
	return p
}

// at is math.Pow(x, p.y).
func (p fixedPow) at(x float64) float64 {
	// The cases of x that math.Pow answers before its general steps.
	if p.special || !(x > 0) || x == 1 || x > math.MaxFloat64 {
		return math.Pow(x, p.y)
	}
	a1, ae := 1.0, 0
	if p.yf != 0 {
		a1 = math.Exp(p.yf * math.Log(x))
	}
	x1, xe := math.Frexp(x)
	for i := p.yi; i != 0; i >>= 1 {
		if xe < -1<<12 || 1<<12 < xe { // the result under- or overflows: as math.Pow
			ae += xe
			break
		}
		if i&1 == 1 {
			a1 *= x1
			ae += xe
		}
		x1 *= x1
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	if p.negative {
		a1, ae = 1/a1, -ae
	}
	return math.Ldexp(a1, ae)
}
