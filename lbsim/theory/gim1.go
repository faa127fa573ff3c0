package theory

import (
	"fmt"
	"math"
)

// Gaps is the interarrival-time law of a renewal arrival stream, given by
// its mean and its Laplace-Stieltjes transform A*(s) = E[exp(-s A)].
type Gaps struct {
	Name string  // for messages, e.g. "deterministic(a=2)"
	Mean float64 // E[A] > 0
	// LST returns A*(s) for s >= 0.
	LST func(s float64) float64
	// Complement, optional, returns 1 - A*(s) without the cancellation of
	// 1 - LST(s) at small s (nil: 1 - LST(s)).
	Complement func(s float64) float64
}

func (g Gaps) complement(s float64) float64 {
	if g.Complement != nil {
		return g.Complement(s)
	}
	return 1 - g.LST(s)
}

func (g Gaps) check() error {
	if g.LST == nil {
		return fmt.Errorf("theory: interarrival law %q has no LST: pass a law from DetGaps, ErlangGaps, ExpGaps or ThinnedDetGaps, or set LST", g.Name)
	}
	if !finite(g.Mean) || g.Mean <= 0 {
		return fmt.Errorf("theory: mean gap E[A]=%g of %q is invalid: need 0 < E[A] < inf; pass a positive finite mean", g.Mean, g.Name)
	}
	return nil
}

// ExpGaps returns exponential gaps of the given mean m (Poisson arrivals):
// A*(s) = 1 / (1 + s m).
func ExpGaps(m float64) (Gaps, error) {
	if err := checkPositive("mean gap", m); err != nil {
		return Gaps{}, err
	}
	return Gaps{Name: fmt.Sprintf("exponential(mean=%g)", m), Mean: m,
		LST:        func(s float64) float64 { return 1 / (1 + s*m) },
		Complement: func(s float64) float64 { return s * m / (1 + s*m) },
	}, nil
}

// DetGaps returns constant gaps a (a deterministic stream): A*(s) = exp(-s a).
func DetGaps(a float64) (Gaps, error) {
	if err := checkPositive("gap a", a); err != nil {
		return Gaps{}, err
	}
	return Gaps{Name: fmt.Sprintf("deterministic(a=%g)", a), Mean: a,
		LST:        func(s float64) float64 { return math.Exp(-s * a) },
		Complement: func(s float64) float64 { return -math.Expm1(-s * a) },
	}, nil
}

// ErlangGaps returns Erlang-K gaps of the given mean m (K phases of rate
// K/m): A*(s) = (K / (K + s m))^K. A server that receives every K-th job of
// a Poisson stream of rate lambda (round robin) sees ErlangGaps(K, K/lambda).
func ErlangGaps(K int, m float64) (Gaps, error) {
	if K < 1 {
		return Gaps{}, fmt.Errorf("theory: Erlang shape K=%d is invalid: need K >= 1 (K=1 is exponential); pass a positive number of phases", K)
	}
	if err := checkPositive("mean gap", m); err != nil {
		return Gaps{}, err
	}
	k := float64(K)
	return Gaps{Name: fmt.Sprintf("Erlang-%d(mean=%g)", K, m), Mean: m,
		LST:        func(s float64) float64 { return math.Exp(-k * math.Log1p(s*m/k)) },
		Complement: func(s float64) float64 { return -math.Expm1(-k * math.Log1p(s*m/k)) },
	}, nil
}

// ThinnedDetGaps returns the gaps seen by a server that receives each job
// of a deterministic stream of gap a independently with probability p (a
// geometric number of gaps a): mean a/p and, with e = exp(-s a),
//
//	A*(s) = p e / (1 - (1-p) e),  1 - A*(s) = (1 - e) / (p + (1-p)(1 - e)).
//
// p = 1 is DetGaps(a).
func ThinnedDetGaps(a, p float64) (Gaps, error) {
	if err := checkPositive("gap a", a); err != nil {
		return Gaps{}, err
	}
	if !(p > 0 && p <= 1) {
		return Gaps{}, fmt.Errorf("theory: thinning probability p=%g is invalid: need 0 < p <= 1 (p=1 keeps every job); pass the share of the stream the server gets", p)
	}
	return Gaps{Name: fmt.Sprintf("thinned deterministic(a=%g, p=%g)", a, p), Mean: a / p,
		LST: func(s float64) float64 {
			e := math.Exp(-s * a)
			return p * e / (1 - (1-p)*e)
		},
		Complement: func(s float64) float64 {
			u := -math.Expm1(-s * a) // 1 - e
			return u / (p + (1-p)*u)
		},
	}, nil
}

// GIM1Root returns the root sigma in (0, 1) of the GI/M/1 equation for gaps
// g and exponential service at rate mu,
//
//	sigma = A*(mu (1 - sigma)),
//
// the probability that an arrival finds the server busy (the number an
// arrival finds is geometric: P(N >= n) = sigma^n). It needs
// rho = 1/(mu E[A]) < 1. The root is found by bisection on x = 1 - sigma,
// h(x) = (1 - A*(mu x)) - x, which is concave, zero at 0, positive just
// above 0 (slope 1/rho - 1) and negative at 1; bisecting in x keeps
// 1 - sigma to full relative precision as rho -> 1 (given an accurate
// Complement).
//
// At light load (sigma < 1/2) sigma itself is then refined by bisection on
// f(sigma) = sigma - A*(mu (1 - sigma)) (negative below the root, positive
// above), so that a small sigma keeps its relative precision too.
func GIM1Root(g Gaps, mu float64) (float64, error) {
	sigma, _, err := gim1Root(g, mu)
	return sigma, err
}

// gim1Root returns sigma and x = 1 - sigma, each to full relative precision.
func gim1Root(g Gaps, mu float64) (sigma, x float64, err error) {
	x, err = gim1X(g, mu)
	if err != nil || x <= 0.5 {
		return 1 - x, x, err
	}
	f := func(s float64) float64 { return s - g.LST(mu*(1-s)) }
	lo, hi := 0.0, 0.5
	for range 1100 { // enough to reach relative precision down to 1e-300
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi || hi-lo <= 1e-16*hi {
			break
		}
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, x, nil
}

// gim1X returns x = 1 - sigma.
func gim1X(g Gaps, mu float64) (float64, error) {
	if err := g.check(); err != nil {
		return 0, err
	}
	if err := checkPositive("service rate mu", mu); err != nil {
		return 0, err
	}
	rho := 1 / (mu * g.Mean)
	if err := checkLoad(rho); err != nil {
		return 0, fmt.Errorf("%w (GI/M/1 with %s gaps and service rate mu=%g: rho = 1/(mu E[A]))", err, g.Name, mu)
	}
	h := func(x float64) float64 { return g.complement(mu*x) - x }
	hi := 1.0
	if h(hi) >= 0 { // A*(mu) = 0: every arrival finds the server idle
		return 1, nil
	}
	lo := 0.5
	for h(lo) <= 0 {
		hi, lo = lo, lo/2
		if lo < 1e-300 {
			return 0, fmt.Errorf("theory: GI/M/1 root not bracketed for %s gaps, mu=%g (rho=%g): the LST is too flat near 0 or the load too close to 1; check the law's LST and mean", g.Name, mu, rho)
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if h(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, nil
}

// GIM1 returns the exact mean delays of the GI/M/1 FCFS queue with gaps g
// and exponential service at rate mu (for sizes of mean m on a server of
// speed v, mu = v/m): with sigma = GIM1Root(g, mu),
//
//	E[W] = sigma / (mu (1 - sigma)),  E[R] = E[W] + 1/mu = 1 / (mu (1 - sigma)).
//
// Exponential gaps give M/M/1 (sigma = rho); Erlang-K gaps give the E_K/M/1
// queue of EKM1Root and RoundRobinExp. Conditions: rho = 1/(mu E[A]) < 1.
func GIM1(g Gaps, mu float64) (Delay, error) {
	sigma, x, err := gim1Root(g, mu)
	if err != nil {
		return Delay{}, err
	}
	return Delay{Wait: sigma / (mu * x), Response: 1 / (mu * x)}, nil
}
