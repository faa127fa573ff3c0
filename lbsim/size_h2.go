package lbsim

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// H2 is a two-phase hyperexponential: with probability P1 an exponential of
// rate Rate1, else of rate Rate2.
//
//	E[X] = P1/Rate1 + (1-P1)/Rate2,  E[X^2] = 2 P1/Rate1^2 + 2 (1-P1)/Rate2^2.
type H2 struct {
	P1, Rate1, Rate2 float64
	mean, scv        float64 // the balanced-means parameters NewH2Balanced had, for String
}

func init() {
	mustRegister(sizeRegistry, Family[SizeLaw]{Name: "h2", Params: []string{"mean", "scv", "p1", "rate1", "rate2"},
		Example: "h2:mean=1,scv=10", Summary: "hyperexponential with balanced means, given mean and SCV >= 1 (or h2:p1=P,rate1=A,rate2=B)",
		New: func(p Params) (SizeLaw, error) {
			balanced, phases := p.Has("mean") || p.Has("scv"), p.Has("p1") || p.Has("rate1") || p.Has("rate2")
			switch {
			case balanced && phases:
				return nil, fmt.Errorf("h2: give mean and scv, or p1, rate1 and rate2, not both; e.g. h2:mean=1,scv=10")
			case phases && (!p.Has("p1") || !p.Has("rate1") || !p.Has("rate2")):
				return nil, fmt.Errorf("h2: give all of p1, rate1 and rate2; e.g. h2:p1=0.9,rate1=1.8,rate2=0.2")
			case phases:
				return H2{P1: p["p1"], Rate1: p["rate1"], Rate2: p["rate2"]}, nil
			case !p.Has("mean") || !p.Has("scv"):
				return nil, fmt.Errorf("h2: missing parameter mean or scv; e.g. h2:mean=1,scv=10")
			}
			return NewH2Balanced(p["mean"], p["scv"])
		}})
}

// maxH2SCV keeps 1-P1 (about 1/(4 scv)) far above float64's resolution.
const maxH2SCV = 1e12

// NewH2Balanced returns the H2 law with balanced means (P1/Rate1 = (1-P1)/Rate2)
// of mean m and squared coefficient of variation c2 >= 1:
//
//	P1 = (1 + sqrt((c2-1)/(c2+1)))/2,  Rate1 = 2 P1/m,  Rate2 = 2 (1-P1)/m.
func NewH2Balanced(m, c2 float64) (H2, error) {
	if err := inRange("h2 mean", m, "e.g. h2:mean=1,scv=10"); err != nil {
		return H2{}, err
	}
	if math.IsNaN(c2) || math.IsInf(c2, 0) || c2 < 1 {
		return H2{}, fmt.Errorf("h2 scv=%v is invalid: need a finite scv >= 1 (an H2 law is at least as variable as the exponential); use exp for scv 1 or det/twopoint below it", c2)
	}
	if c2 > maxH2SCV {
		return H2{}, fmt.Errorf("h2 scv=%v is too large: need 1 <= scv <= %g (the rare phase has probability about 1/(4 scv), which float64 cannot resolve beyond); use pareto for heavier tails", c2, float64(maxH2SCV))
	}
	p1 := (1 + math.Sqrt((c2-1)/(c2+1))) / 2
	return H2{P1: p1, Rate1: 2 * p1 / m, Rate2: 2 * (1 - p1) / m, mean: m, scv: c2}, nil
}

func (s H2) Rand(r *Stream) float64 {
	if r.Float64() < s.P1 {
		return r.ExpFloat64() / s.Rate1
	}
	return r.ExpFloat64() / s.Rate2
}
func (s H2) fill(r *Stream, out []float64) { r.fillHyperExp(out, s.P1, s.Rate1, s.Rate2) }
func (s H2) Mean() float64                 { return s.P1/s.Rate1 + (1-s.P1)/s.Rate2 }
func (s H2) SecondMoment() float64 {
	return 2*s.P1/(s.Rate1*s.Rate1) + 2*(1-s.P1)/(s.Rate2*s.Rate2)
}

// belowCut mixes its phases' (Exponential.belowCut): with w the phase's
// probability and u = cut Rate, each adds w (1 - e^-u, P(2, u)/Rate,
// 2 P(3, u)/Rate^2), P the regularized lower incomplete gamma function.
func (s H2) belowCut(cut float64) (p, m1, m2 float64) {
	phase := func(w, rate float64) (p, m1, m2 float64) {
		f0, f1, f2 := gammaBelow(1, cut*rate)
		return w * f0, w / rate * f1, 2 * w / (rate * rate) * f2
	}
	p, m1, m2 = phase(s.P1, s.Rate1)
	q, q1, q2 := phase(1-s.P1, s.Rate2)
	return p + q, m1 + q1, m2 + q2
}

// thirdMoment is E[X^3] = 6 P1/Rate1^3 + 6 (1-P1)/Rate2^3.
func (s H2) thirdMoment() float64 {
	return 6*s.P1/(s.Rate1*s.Rate1*s.Rate1) + 6*(1-s.P1)/(s.Rate2*s.Rate2*s.Rate2)
}

// mg1Tails: M/H2/1, a mixture of two exponentials of rates Rate_i mu
// (theory.MG1HyperExpTails).
func (s H2) mg1Tails(lambda, mu float64) (wait, response theory.Tail, how string, err error) {
	wait, response, err = theory.MG1HyperExpTails(lambda, []float64{s.P1, 1 - s.P1}, []float64{s.Rate1 * mu, s.Rate2 * mu})
	return wait, response, "from the roots of its transform (M/H2/1)", err
}

func (s H2) Validate() error {
	if !(s.P1 >= 0 && s.P1 <= 1) {
		return fmt.Errorf("h2 p1=%v is invalid: need 0 <= p1 <= 1; give the law as h2:mean=M,scv=C", s.P1)
	}
	if err := inRange("h2 rate1", s.Rate1, "give the law as h2:mean=M,scv=C"); err != nil {
		return err
	}
	return inRange("h2 rate2", s.Rate2, "give the law as h2:mean=M,scv=C")
}

// String gives the mean and SCV while they give the phases exactly, else the phases.
func (s H2) String() string {
	if s.balanced() {
		return "h2:mean=" + fmtNum(s.mean) + ",scv=" + fmtNum(s.scv)
	}
	return "h2:p1=" + fmtNum(s.P1) + ",rate1=" + fmtNum(s.Rate1) + ",rate2=" + fmtNum(s.Rate2)
}

// balanced: the phases are still those NewH2Balanced made of mean and scv.
func (s H2) balanced() bool {
	b, err := NewH2Balanced(s.mean, s.scv)
	return err == nil && b == s
}

// closedSCV is the SCV the balanced law was made from (see SCV).
func (s H2) closedSCV() (float64, bool) { return s.scv, s.balanced() }

// WithSCV is the balanced-means H2 law of the same mean and SCV scv.
func (s H2) WithSCV(scv float64) (SizeLaw, error) { return NewH2Balanced(s.Mean(), scv) }
