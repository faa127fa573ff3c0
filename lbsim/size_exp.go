package lbsim

import "github.com/perfeval/lbsim/lbsim/theory"

// Exponential sizes with mean M: E[X] = M, E[X^2] = 2 M^2.
type Exponential struct{ M float64 }

func init() {
	mustRegister(sizeRegistry, Family[SizeLaw]{Name: "exp", Params: []string{"mean"}, Need: []string{"mean"},
		Example: "exp:mean=1", Summary: "exponential of the given mean (SCV 1)",
		New: func(p Params) (SizeLaw, error) { return Exponential{M: p["mean"]}, nil }})
}

func (s Exponential) Rand(r *Stream) float64        { return r.ExpFloat64() * s.M }
func (s Exponential) fill(r *Stream, out []float64) { r.fillExp(out, s.M) }
func (s Exponential) Mean() float64                 { return s.M }
func (s Exponential) SecondMoment() float64         { return 2 * s.M * s.M }

// belowCut is (1 - e^-u, M P(2, u), 2 M^2 P(3, u)) with u = cut/M, P the
// regularized lower incomplete gamma function (the Erlang law of one phase).
func (s Exponential) belowCut(cut float64) (p, m1, m2 float64) {
	f0, f1, f2 := gammaBelow(1, cut/s.M)
	return f0, s.Mean() * f1, s.SecondMoment() * f2
}

// thirdMoment is E[X^3] = 6 M^3.
func (s Exponential) thirdMoment() float64 { return 6 * s.M * s.M * s.M }

// mg1Tails: M/M/1 (theory.MMKTails with one server).
func (s Exponential) mg1Tails(lambda, mu float64) (wait, response theory.Tail, how string, err error) {
	wait, response, err = theory.MMKTails(lambda, 1, s.M/mu)
	return wait, response, "", err
}

func (s Exponential) Validate() error {
	return inRange("exp mean", s.M, "e.g. exp:mean=1")
}
func (s Exponential) String() string { return "exp:mean=" + fmtNum(s.M) }
