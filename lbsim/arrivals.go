package lbsim

import (
	"fmt"
	"math"
)

// ArrivalProcess is the exogenous arrival process. Its rate is given as a load:
// at load rho the arrival rate is lambda = rho * sum(mu_k) / E[X].
type ArrivalProcess interface {
	Validate() error
	String() string
	// start returns the generator for a run whose rate at load 1 is lambda1
	// and whose configured load is rho.
	start(lambda1, rho float64) arrivalGen
	// overloads reports whether the process ever reaches load 1.
	overloads(rho float64) bool
}

type arrivalGen interface {
	// next returns the arrival time that follows time t.
	next(t float64, r *Stream) float64
}

// Poisson arrivals at the configured load: exponential interarrival times of
// mean 1/lambda.
type Poisson struct{}

// DeterministicArrivals at the configured load: one every 1/lambda.
type DeterministicArrivals struct{}

// Ramp is a Poisson process whose load changes linearly from From to To over
// the first Over time units and stays at To afterwards (overload ramps); the
// configured load is ignored. Arrival times are drawn exactly by inverting the
// cumulative rate Lambda(s) = a s + (b-a) s^2/(2 Over) for s <= Over, with a
// and b the rates at loads From and To; no thinning is needed.
type Ramp struct{ From, To, Over float64 }

func (Poisson) Validate() error                       { return nil }
func (Poisson) String() string                        { return "poisson" }
func (Poisson) overloads(rho float64) bool            { return rho >= 1 }
func (Poisson) start(lambda1, rho float64) arrivalGen { return poissonGen{1 / (lambda1 * rho)} }

func (DeterministicArrivals) Validate() error            { return nil }
func (DeterministicArrivals) String() string             { return "det" }
func (DeterministicArrivals) overloads(rho float64) bool { return rho >= 1 }
func (DeterministicArrivals) start(lambda1, rho float64) arrivalGen {
	return detGen{1 / (lambda1 * rho)}
}

func (p Ramp) Validate() error {
	if math.IsNaN(p.From) || p.From < 0 || math.IsInf(p.From, 0) {
		return fmt.Errorf("ramp from=%v is invalid: need a finite load >= 0; e.g. ramp:from=0.5,to=1.2,over=1000", p.From)
	}
	if err := positive("ramp to", p.To, "the final load must be positive, e.g. to=1.2"); err != nil {
		return err
	}
	return positive("ramp over", p.Over, "give the ramp's duration in time units, e.g. over=1000")
}
func (p Ramp) String() string {
	return "ramp:from=" + fmtNum(p.From) + ",to=" + fmtNum(p.To) + ",over=" + fmtNum(p.Over)
}
func (p Ramp) overloads(float64) bool { return false } // overload is the point of a ramp
func (p Ramp) start(lambda1, _ float64) arrivalGen {
	a, b := p.From*lambda1, p.To*lambda1
	c := (b - a) / p.Over
	return rampGen{a: a, b: b, c: c, over: p.Over, lamOver: a*p.Over + c*p.Over*p.Over/2}
}

type poissonGen struct{ mean float64 }

func (g poissonGen) next(t float64, r *Stream) float64 { return t + r.ExpFloat64()*g.mean }

type detGen struct{ gap float64 }

func (g detGen) next(t float64, _ *Stream) float64 { return t + g.gap }

type rampGen struct{ a, b, c, over, lamOver float64 }

// cum is the cumulative rate Lambda(s).
func (g rampGen) cum(s float64) float64 {
	if s <= g.over {
		return g.a*s + g.c*s*s/2
	}
	return g.lamOver + g.b*(s-g.over)
}

// next solves Lambda(s) = Lambda(t) + E with E ~ Exp(1).
func (g rampGen) next(t float64, r *Stream) float64 {
	target := g.cum(t) + r.ExpFloat64()
	if target > g.lamOver {
		return g.over + (target-g.lamOver)/g.b
	}
	// Root of c s^2/2 + a s - target = 0, in the form that is stable for c -> 0.
	return 2 * target / (g.a + math.Sqrt(g.a*g.a+2*g.c*target))
}
