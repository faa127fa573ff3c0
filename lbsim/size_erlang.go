package lbsim

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim/theory"
	"gonum.org/v1/gonum/mathext"
)

// Erlang sizes: the sum of K exponential phases of mean M/K each, the law
// of SCV 1/K between the exponential (K = 1) and the deterministic
// (K -> infinity):
//
//	E[X] = M,  E[X^2] = M^2 (1 + 1/K),  SCV = 1/K.
type Erlang struct {
	K int
	M float64
}

// maxErlangPhases bounds K: a draw costs K exponentials (and SCV 1/K below
// 1e-3 is det's business).
const maxErlangPhases = 1000

func init() {
	mustRegister(sizeRegistry, Family[SizeLaw]{Name: "erlang", Params: []string{"k", "mean"}, Need: []string{"k", "mean"},
		Example: "erlang:k=4,mean=1", Summary: "Erlang: k exponential phases, mean M (SCV 1/k)",
		New: func(p Params) (SizeLaw, error) {
			k, err := p.Int("k", 0)
			if err != nil {
				return nil, fmt.Errorf("erlang: %w (the number of phases, 1..%d)", err, maxErlangPhases)
			}
			return Erlang{K: k, M: p["mean"]}, nil
		}})
}

// Rand sums K exponentials of mean M/K.
func (s Erlang) Rand(r *Stream) float64 {
	sum := 0.0
	for range s.K {
		sum += r.ExpFloat64()
	}
	return sum * s.M / float64(s.K)
}
func (s Erlang) Mean() float64              { return s.M }
func (s Erlang) SecondMoment() float64      { return s.M * s.M * (1 + 1/float64(s.K)) }
func (s Erlang) closedSCV() (float64, bool) { return 1 / float64(s.K), true }

// thirdMoment is E[X^3] = M^3 (1 + 1/K) (1 + 2/K).
func (s Erlang) thirdMoment() float64 {
	k := float64(s.K)
	return s.M * s.M * s.M * (1 + 1/k) * (1 + 2/k)
}

// belowCut is (P(K, u), M P(K+1, u), M^2 (1 + 1/K) P(K+2, u)) with u = cut K/M,
// P the regularized lower incomplete gamma function: E[X^j; X <= cut] =
// E[X^j] P(K+j, u).
func (s Erlang) belowCut(cut float64) (p, m1, m2 float64) {
	f0, f1, f2 := gammaBelow(float64(s.K), cut*float64(s.K)/s.M)
	return f0, s.Mean() * f1, s.SecondMoment() * f2
}

// gammaBelow is (P(k, u), P(k+1, u), P(k+2, u)), P the regularized lower
// incomplete gamma function: the shares of E[1], E[X] and E[X^2] a gamma
// law of shape k has below u times its scale; (0, 0, 0) for u <= 0.
func gammaBelow(k, u float64) (f0, f1, f2 float64) {
	if !(u > 0) {
		return 0, 0, 0
	}
	return mathext.GammaIncReg(k, u), mathext.GammaIncReg(k+1, u), mathext.GammaIncReg(k+2, u)
}

// mg1Tails: M/E_K/1, K phases of rate K mu/M (theory.MPH1Tails), up to
// theory.MaxTailPhases phases.
func (s Erlang) mg1Tails(lambda, mu float64) (wait, response theory.Tail, how string, err error) {
	wait, response, err = theory.MPH1Tails(lambda, theory.ErlangPhases(s.K, float64(s.K)*mu/s.M))
	return wait, response, "from its phase-type form (M/E_k/1)", err
}

func (s Erlang) Validate() error {
	if s.K < 1 || s.K > maxErlangPhases {
		return fmt.Errorf("erlang k=%d is invalid: need 1 <= k <= %d phases; use det for a smaller SCV", s.K, maxErlangPhases)
	}
	return inRange("erlang mean", s.M, "e.g. erlang:k=4,mean=1")
}
func (s Erlang) String() string { return fmt.Sprintf("erlang:k=%d,mean=%s", s.K, fmtNum(s.M)) }
