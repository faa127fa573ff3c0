package lbsim

import (
	"math"
)

// inverseBelow is a size law that knows E[1/X; X <= cut], what the mean
// slowdown under FCFS reads (Reference.Slowdown): +Inf where it diverges
// at 0, as for the exponential, Erlang k=1 and H2 laws, whose density is
// positive at 0.
type inverseBelow interface{ inverseBelow(cut float64) float64 }

// lawInverse is E[1/X; lo < X <= hi] of s: a finite sum over an atomic
// law's atoms (their probabilities from BelowCut), else the law's
// inverseBelow; ok is false when neither is known (or the difference of two
// infinite ones is asked).
func lawInverse(s SizeLaw, lo, hi float64) (inv float64, ok bool) {
	if atoms, ok := lawAtoms(s); ok {
		prev := 0.0 // F below the atom
		for _, x := range atoms {
			p, _, _, ok := BelowCut(s, x)
			if !ok {
				return 0, false
			}
			if x > lo && x <= hi {
				inv += (p - prev) / x
			}
			prev = p
		}
		return inv, true
	}
	l, ok := s.(inverseBelow)
	if !ok {
		return 0, false
	}
	a, b := l.inverseBelow(lo), l.inverseBelow(hi)
	if math.IsInf(a, 1) {
		return 0, false // (lo, hi] away from 0: not in closed form here
	}
	return b - a, true
}

// inverseBelow: infinite for any cut > 0 (the density is 1/M at 0).
func (s Exponential) inverseBelow(cut float64) float64 { return infiniteAbove0(cut) }

// inverseBelow: infinite for any cut > 0 (a mixture of exponentials).
func (s H2) inverseBelow(cut float64) float64 { return infiniteAbove0(cut) }

// inverseBelow: x^-1 times the Erlang-K density of rate a = K/M is a/(K-1)
// times the Erlang-(K-1) density, so E[1/X; X <= cut] = a/(K-1) P(K-1, a
// cut); infinite for K = 1.
func (s Erlang) inverseBelow(cut float64) float64 {
	if s.K == 1 {
		return infiniteAbove0(cut)
	}
	a, k := float64(s.K)/s.M, float64(s.K-1)
	f, _, _ := gammaBelow(k, a*cut)
	return a / k * f
}

// inverseBelow is below(-1, cut), within [L, H].
func (s Pareto) inverseBelow(cut float64) float64 {
	if !(cut > s.L) {
		return 0
	}
	return s.below(-1, min(cut, s.H))
}

func infiniteAbove0(cut float64) float64 {
	if cut > 0 {
		return math.Inf(1)
	}
	return 0
}
