package theory

import "fmt"

// GIH2 returns the exact mean delays of the GI/H2/1 FCFS queue: renewal
// arrivals with gaps g, sizes of the two-phase hyperexponential law size
// on a server of speed mu (a job of phase i is served at rate
// m_i = mu Rate_i with probability p_i).
//
// Method (Cohen, The Single Server Queue, II.5.10, for service with a
// rational transform; Adan and Zhao, Oper. Res. Lett. 19 (1996), for the
// dual GI/E_r/1): the waiting time is an atom at 0 plus a mixture of two
// exponentials, with transform
//
//	W*(t) = (t + m_1)(t + m_2) / (m_1 m_2) * eta_1/(t + eta_1) * eta_2/(t + eta_2),
//
// where eta_1 in (0, min m) and eta_2 in (min m, max m) are the roots with
// positive real part of E[exp(eta (S - A))] = 1, that is
//
//	A*(eta) (p_1 m_1/(m_1 - eta) + p_2 m_2/(m_2 - eta)) = 1.
//
// Hence
//
//	E[W] = 1/eta_1 + 1/eta_2 - 1/m_1 - 1/m_2,  E[R] = E[W] + p_1/m_1 + p_2/m_2.
//
// The roots are found by bisection on the equation multiplied out and
// divided by its trivial root eta = 0,
//
//	h(eta) = eta - m_1 - m_2 + A*(eta) (p_1 m_1 + p_2 m_2) + m_1 m_2 (1 - A*(eta))/eta,
//
// positive at 0+ (h(0) = m_1 m_2 (E[A] - E[S])), negative at min m and
// positive at max m. With one exponential phase (p_i in {0, 1} or equal
// rates) it is GIM1.
//
// Conditions: rho = E[S]/E[A] < 1.
func GIH2(g Gaps, size HyperExp, mu float64) (Delay, error) {
	if err := g.check(); err != nil {
		return Delay{}, err
	}
	if err := checkPositive("speed mu", mu); err != nil {
		return Delay{}, err
	}
	p1, m1, m2 := size.P1, size.Rate1*mu, size.Rate2*mu
	if !(p1 >= 0 && p1 <= 1) || !finite(m1) || !finite(m2) || m1 <= 0 || m2 <= 0 {
		return Delay{}, fmt.Errorf("theory: H2 size law %+v is invalid: need 0 <= P1 <= 1 and positive finite rates; build it with HyperExpBalanced", size)
	}
	p2 := 1 - p1
	es := p1/m1 + p2/m2
	rho := es / g.Mean
	if err := checkLoad(rho); err != nil {
		return Delay{}, fmt.Errorf("%w (GI/H2/1 with %s gaps, E[S]=%g: rho = E[S]/E[A])", err, g.Name, es)
	}
	switch { // one exponential phase
	case p1 == 1 || m1 == m2:
		return GIM1(g, m1)
	case p1 == 0:
		return GIM1(g, m2)
	}
	if m1 > m2 {
		p1, p2, m1, m2 = p2, p1, m2, m1
	}
	q := p1*m1 + p2*m2
	h := func(eta float64) float64 {
		phi := g.complement(eta) / eta
		return eta - m1 - m2 + g.LST(eta)*q + m1*m2*phi
	}
	// eta_1 in (0, m1): h > 0 near 0, h(m1) < 0.
	hi := m1
	lo := m1 / 2
	for h(lo) <= 0 {
		hi, lo = lo, lo/2
		if lo < 1e-300*m1 {
			return Delay{}, fmt.Errorf("theory: GI/H2/1 root eta_1 not bracketed for %s gaps, size %+v, mu=%g (rho=%g): load too close to 1; lower the load", g.Name, size, mu, rho)
		}
	}
	eta1 := bisectRoot(h, lo, hi)
	eta2 := bisectRoot(h, m1, m2) // h(m1) < 0 < h(m2)
	w := (1/eta1 - 1/m1) + (1/eta2 - 1/m2)
	return Delay{Wait: w, Response: w + es}, nil
}

// bisectRoot returns the root of f in (lo, hi) where f changes sign, to
// full precision.
func bisectRoot(f func(float64) float64, lo, hi float64) float64 {
	flo := f(lo)
	for range 2100 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if fm := f(mid); (fm > 0) == (flo > 0) {
			lo, flo = mid, fm
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// RoundRobinH2 returns the exact mean delays of round-robin dispatching of
// Poisson arrivals at total rate lambda to K FCFS servers of speed mu with
// H2 sizes: each server sees Erlang-K gaps of mean K/lambda, an E_K/H2/1
// queue (GIH2). Conditions: per-server load lambda E[X] / (K mu) < 1.
func RoundRobinH2(lambda float64, K int, size HyperExp, mu float64) (Delay, error) {
	if err := checkArrivalRate(lambda); err != nil {
		return Delay{}, err
	}
	if lambda == 0 {
		if err := checkPositive("speed mu", mu); err != nil {
			return Delay{}, err
		}
		return Delay{Wait: 0, Response: size.Mean() / mu}, nil
	}
	g, err := ErlangGaps(K, float64(K)/lambda)
	if err != nil {
		return Delay{}, err
	}
	return GIH2(g, size, mu)
}
