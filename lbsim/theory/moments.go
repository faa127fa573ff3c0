package theory

import (
	"fmt"
	"math"
)

// Moments is what the formulas need from a job-size law: E[X] and E[X^2].
// The size laws of the lbsim core implement it; Law carries plain numbers.
type Moments interface {
	Mean() float64
	SecondMoment() float64
}

// Law is a job-size law given only by its first two moments,
// M1 = E[X] and M2 = E[X^2] (M2 >= M1^2).
type Law struct {
	M1, M2 float64
}

// Mean returns E[X] = M1.
func (l Law) Mean() float64 { return l.M1 }

// SecondMoment returns E[X^2] = M2.
func (l Law) SecondMoment() float64 { return l.M2 }

// ExpMoments returns the moments of an exponential size with the given
// mean m: E[X] = m, E[X^2] = 2 m^2.
func ExpMoments(mean float64) Law { return Law{M1: mean, M2: 2 * mean * mean} }

// DetMoments returns the moments of a constant size x: E[X] = x, E[X^2] = x^2.
func DetMoments(x float64) Law { return Law{M1: x, M2: x * x} }

// TwoPointMoments returns the moments of the handout's two-point size:
// x_m with probability 1-p and x_M with probability p,
// E[X] = (1-p) x_m + p x_M, E[X^2] = (1-p) x_m^2 + p x_M^2.
func TwoPointMoments(xm, xM, p float64) Law {
	return Law{M1: (1-p)*xm + p*xM, M2: (1-p)*xm*xm + p*xM*xM}
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkMoments validates a size law: 0 < E[X] < inf and E[X]^2 <= E[X^2] < inf.
func checkMoments(x Moments) error {
	if x == nil {
		return fmt.Errorf("theory: size law is nil: pass a law with Mean and SecondMoment, e.g. theory.ExpMoments(1)")
	}
	m1, m2 := x.Mean(), x.SecondMoment()
	if !finite(m1) || m1 <= 0 {
		return fmt.Errorf("theory: mean size E[X]=%g is invalid: need 0 < E[X] < inf; use a size law with a positive finite mean", m1)
	}
	if !finite(m2) {
		return fmt.Errorf("theory: second moment E[X^2]=%g is not finite: the formula needs E[X^2] < inf; use a law with finite variance (e.g. a bounded Pareto)", m2)
	}
	// Allow rounding error in M2 of a deterministic law.
	if m2 < m1*m1*(1-1e-12) {
		return fmt.Errorf("theory: second moment E[X^2]=%g is below E[X]^2=%g: need E[X^2] >= E[X]^2; check the law's moments", m2, m1*m1)
	}
	return nil
}

// checkPositive validates a rate, speed or size that must be positive and finite.
func checkPositive(name string, v float64) error {
	if !finite(v) || v <= 0 {
		return fmt.Errorf("theory: %s=%g is invalid: need 0 < %s < inf; pass a positive finite value", name, v, name)
	}
	return nil
}

// checkLoad validates a per-server load: 0 <= rho < 1.
func checkLoad(rho float64) error {
	if !finite(rho) || rho < 0 {
		return fmt.Errorf("theory: load rho=%g is invalid: need 0 <= rho < 1; pass a non-negative load", rho)
	}
	if rho >= 1 {
		return fmt.Errorf("theory: load rho=%g is unstable: need 0 <= rho < 1; lower the arrival rate", rho)
	}
	return nil
}

// Delay is a pair of mean delays: Wait = E[W] (arrival to start of service)
// and Response = E[R] = E[W] + E[X/mu].
type Delay struct {
	Wait, Response float64
}

// checkArrivalRate validates a total arrival rate: 0 <= lambda < inf.
func checkArrivalRate(lambda float64) error {
	if !finite(lambda) || lambda < 0 {
		return fmt.Errorf("theory: arrival rate lambda=%g is invalid: need 0 <= lambda < inf; pass a non-negative finite rate", lambda)
	}
	return nil
}
