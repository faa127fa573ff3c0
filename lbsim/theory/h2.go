package theory

import (
	"fmt"
	"math"
)

// HyperExp is a two-phase hyperexponential size law: with probability P1 the size
// is exponential with rate Rate1, otherwise exponential with rate Rate2.
type HyperExp struct {
	P1, Rate1, Rate2 float64
}

// HyperExpBalanced returns the HyperExp law with mean m and squared coefficient of
// variation c2 >= 1 whose two phases carry equal shares of the work
// (P1/Rate1 = (1-P1)/Rate2 = m/2):
//
//	P1 = (1 + sqrt((c2 - 1)/(c2 + 1))) / 2,  Rate1 = 2 P1 / m,  Rate2 = 2 (1 - P1) / m.
//
// Then E[X^2] = (1 + c2) m^2. c2 = 1 gives the exponential law (both phases
// have rate 1/m).
func HyperExpBalanced(m, c2 float64) (HyperExp, error) {
	if err := checkPositive("mean size m", m); err != nil {
		return HyperExp{}, err
	}
	if !finite(c2) || c2 < 1 {
		return HyperExp{}, fmt.Errorf("theory: SCV c2=%g is invalid for H2: need 1 <= c2 < inf; use an Erlang or deterministic law for c2 < 1", c2)
	}
	p1 := (1 + math.Sqrt((c2-1)/(c2+1))) / 2
	return HyperExp{P1: p1, Rate1: 2 * p1 / m, Rate2: 2 * (1 - p1) / m}, nil
}

// Mean returns E[X] = P1/Rate1 + (1-P1)/Rate2.
func (h HyperExp) Mean() float64 { return h.P1/h.Rate1 + (1-h.P1)/h.Rate2 }

// SecondMoment returns E[X^2] = 2 P1/Rate1^2 + 2 (1-P1)/Rate2^2.
func (h HyperExp) SecondMoment() float64 {
	return 2*h.P1/(h.Rate1*h.Rate1) + 2*(1-h.P1)/(h.Rate2*h.Rate2)
}

// SCV returns the squared coefficient of variation E[X^2]/E[X]^2 - 1.
func (h HyperExp) SCV() float64 {
	m := h.Mean()
	return h.SecondMoment()/(m*m) - 1
}
