package staleness

import (
	"fmt"
	"math"
	"strconv"

	"github.com/perfeval/lbsim/lbsim"
)

// Lomax is the Pareto law of the second kind (shifted to start at 0) with shape A and scale S:
//
//	P(X > x) = (1 + x/S)^(-A),  E[X] = S/(A-1),  E[X^2] = 2 S^2 / ((A-1)(A-2)),
//
// finite mean for A > 1 and finite variance for A > 2. Its tail exponent is A. It is the
// reading of the document's "Pareto with a tail exponent of 2.2" that reproduces its
// Pollaczek-Khinchine value of 55: at mean 1, E[X^2] = 2 (A-1)/(A-2) = 12 for A = 2.2, and random
// dispatch at load 0.9 gives E[R] = 1 + 0.9 * 12 / 0.2 = 55. The classical Pareto (type I, support
// [L, inf)) with the same tail index and mean has E[X^2] = (A-1)^2 / (A) = 3.27 and gives
// 15.7 instead (lbsim.NewPareto(2.2, 1, 0)).
type Lomax struct{ A, S float64 }

// NewLomax returns the Lomax law of shape a > 1 and the given mean: S = mean (a - 1).
func NewLomax(a, mean float64) (Lomax, error) {
	l := Lomax{A: a, S: mean * (a - 1)}
	return l, l.Validate()
}

// Rand inverts the distribution function: X = S (U^(-1/A) - 1), U uniform on (0, 1].
func (l Lomax) Rand(r *lbsim.Stream) float64 { return l.S * (math.Pow(1-r.Float64(), -1/l.A) - 1) }

// Mean is E[X] = S/(A-1).
func (l Lomax) Mean() float64 { return l.S / (l.A - 1) }

// SecondMoment is E[X^2] = 2 S^2 / ((A-1)(A-2)), +Inf for A <= 2.
func (l Lomax) SecondMoment() float64 {
	if l.A <= 2 {
		return math.Inf(1)
	}
	return 2 * l.S * l.S / ((l.A - 1) * (l.A - 2))
}

// ThirdMoment is E[X^3] = 6 S^3 / ((A-1)(A-2)(A-3)), +Inf for A <= 3.
func (l Lomax) ThirdMoment() float64 {
	if l.A <= 3 {
		return math.Inf(1)
	}
	return 6 * l.S * l.S * l.S / ((l.A - 1) * (l.A - 2) * (l.A - 3))
}

// BelowCut shifts the Pareto law: Y = X + S is lbsim.Pareto of index A on [S, inf), so
// with (q0, q1, q2) its lbsim.BelowCut(cut + S), the moments of X below cut are (q0, q1 - S q0,
// q2 - 2 S q1 + S^2 q0); for cut << S the differences leave E[X^2; X <= cut] a relative
// error near 1e-15 (S/cut)^2.
func (l Lomax) BelowCut(cut float64) (p, m1, m2 float64) {
	if math.IsInf(cut, 1) {
		return 1, l.Mean(), l.SecondMoment()
	}
	q0, q1, q2, _ := lbsim.BelowCut(lbsim.Pareto{Alpha: l.A, L: l.S, H: math.Inf(1)}, cut+l.S)
	return q0, q1 - l.S*q0, q2 - l.S*(2*q1-l.S*q0)
}

// Validate checks A > 1 (finite mean) and S > 0.
func (l Lomax) Validate() error {
	if !(l.A > 1) || math.IsInf(l.A, 0) {
		return fmt.Errorf("lomax shape A=%v is invalid: need a finite A > 1 for a finite mean; the document uses 2.2", l.A)
	}
	if !(l.S > 0) || math.IsInf(l.S, 0) {
		return fmt.Errorf("lomax scale S=%v is invalid: need a finite S > 0; give a positive mean", l.S)
	}
	return nil
}

// String names the law and its parameters exactly (it keys result caches).
func (l Lomax) String() string {
	return "lomax:shape=" + strconv.FormatFloat(l.A, 'g', -1, 64) + ",scale=" + strconv.FormatFloat(l.S, 'g', -1, 64)
}

// TailIndex is A: E[X^j] is finite only for j < A. lbsim's warnings read it (A <= 3: the waiting
// time has infinite variance, so a run's confidence interval is too narrow).
func (l Lomax) TailIndex() float64 { return l.A }
