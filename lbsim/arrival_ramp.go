package lbsim

import (
	"fmt"
	"math"
)

// Ramp is a Poisson process whose load changes linearly from From to To over
// the first Over time units and stays at To afterwards (overload ramps); the
// configured load is ignored. Arrival times are drawn exactly by inverting the
// cumulative rate Lambda(s) = a s + (b-a) s^2/(2 Over) for s <= Over, with a
// and b the rates at loads From and To; no thinning is needed.
type Ramp struct{ From, To, Over float64 }

func init() {
	mustRegister(arrivalRegistry, Family[ArrivalProcess]{Name: "ramp", Params: []string{"from", "to", "over"}, Need: []string{"from", "to", "over"},
		Example: "ramp:from=0.5,to=1.2,over=1000", Summary: "Poisson, its load rising linearly from 'from' to 'to' over the first 'over' time units (the configured load is ignored)",
		New: func(p Params) (ArrivalProcess, error) {
			return Ramp{From: p["from"], To: p["to"], Over: p["over"]}, nil
		}})
}

func (p Ramp) Validate() error {
	if math.IsNaN(p.From) || p.From < 0 || math.IsInf(p.From, 0) {
		return fmt.Errorf("ramp from=%v is invalid: need a finite load >= 0; e.g. ramp:from=0.5,to=1.2,over=1000", p.From)
	}
	if err := inRange("ramp to", p.To, "the final load must be positive, e.g. to=1.2"); err != nil {
		return err
	}
	return inRange("ramp over", p.Over, "give the ramp's duration in time units, e.g. over=1000")
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
