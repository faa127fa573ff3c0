package theory

import (
	"fmt"
	"math"
	"math/cmplx"
)

// MDcMaxServers bounds the number of servers MDc accepts (its cost grows
// linearly in c).
const MDcMaxServers = 10_000

// MDc returns the exact mean delays of the M/D/c queue: Poisson arrivals at
// rate lambda, c servers, one FCFS queue, every service lasting d. With
// a = lambda d (offered load in servers) and rho = a/c < 1,
//
//	E[W] = E[Lq] / lambda,  E[R] = E[W] + d.
//
// Crommelin (1932): the number Q_n in system at the times n d is a Markov
// chain, Q_{n+1} = (Q_n - c)^+ + A_n with A_n ~ Poisson(a) (a job in
// service at n d has left by (n+1) d; one that starts later has not), and
// U_n = (Q_n - c)^+, the number waiting at n d, is a Lindley recursion
// U_{n+1} = (U_n + A_n - c)^+. Sampling the stationary queue at fixed
// times sees its time-stationary law, so E[Lq] = E[U]. Two exact ways to it:
//
//   - roots (Franx 2001, Oper. Res. Lett. 29): the generating function of Q
//     has one unknown per root of z^c = exp(a (z - 1)) in |z| < 1, z != 1;
//     they are z_k = w_k exp(rho (z_k - 1)), w_k = exp(2 pi i k/c),
//     k = 1..c-1 (the right side contracts the unit disc by rho, so each
//     w_k gives exactly one root, found by fixed-point steps and Newton),
//     and differentiating the generating function at 1 gives
//
//     E[Lq] = sum_{k=1}^{c-1} 1/(1 - z_k) - (c(c-1) - a^2) / (2 (c - a));
//
//   - Spitzer's identity for the Lindley recursion (Crommelin's series):
//
//     E[Lq] = sum_{n>=1} (1/n) E[(P_n - n c)^+],  P_n ~ Poisson(n a).
//
// The root formula subtracts two terms of order c: when E[Lq] is small
// against them (light load, many servers) it loses digits, and there the
// series converges fast (its terms fall like exp(-n c (rho - 1 - ln rho)));
// MDc uses the series when the root formula's result is below 1e-3 of its
// terms, the roots otherwise. c = 1 gives Pollaczek-Khinchine,
// E[W] = rho d / (2 (1 - rho)).
//
// Conditions: 1 <= c <= MDcMaxServers, d > 0, 0 <= lambda, rho < 1.
func MDc(lambda float64, c int, d float64) (Delay, error) {
	lq, err := mdcQueue(lambda, c, d)
	if err != nil {
		return Delay{}, err
	}
	if lambda == 0 {
		return Delay{Wait: 0, Response: d}, nil
	}
	w := lq / lambda
	return Delay{Wait: w, Response: w + d}, nil
}

// mdcQueue validates and returns E[Lq].
func mdcQueue(lambda float64, c int, d float64) (float64, error) {
	if c < 1 || c > MDcMaxServers {
		return 0, fmt.Errorf("theory: number of servers c=%d is invalid for M/D/c: need 1 <= c <= %d; pass a positive server count", c, MDcMaxServers)
	}
	if err := checkArrivalRate(lambda); err != nil {
		return 0, err
	}
	if err := checkPositive("service time d", d); err != nil {
		return 0, err
	}
	a := lambda * d
	rho := a / float64(c)
	if err := checkLoad(rho); err != nil {
		return 0, fmt.Errorf("%w (M/D/c with lambda=%g, c=%d, d=%g: rho = lambda d / c)", err, lambda, c, d)
	}
	if a == 0 {
		return 0, nil
	}
	lq, scale := mdcRoots(a, c)
	if lq >= 1e-3*scale {
		return lq, nil
	}
	s, ok := mdcSeries(a, c, 1e-15, 100_000)
	if !ok {
		return lq, nil // not reached for loads where the roots lose digits
	}
	return s, nil
}

// mdcRoots returns E[Lq] by the root formula and the magnitude of its two
// terms (the scale of its rounding error).
func mdcRoots(a float64, c int) (lq, scale float64) {
	cf := float64(c)
	rho := a / cf
	sum := 0.0
	// Roots come in conjugate pairs k, c-k; k = c/2 (c even) is real.
	for k := 1; 2*k <= c; k++ {
		w := cmplx.Rect(1, 2*math.Pi*float64(k)/cf)
		z := mdcRoot(w, rho)
		term := real(1 / (1 - z))
		if 2*k == c {
			sum += term
		} else {
			sum += 2 * term
		}
	}
	konst := (cf*(cf-1) - a*a) / (2 * (cf - a))
	return sum - konst, math.Max(math.Abs(sum), math.Abs(konst))
}

// mdcRoot solves z = w exp(rho (z - 1)) in the unit disc (|w| = 1,
// 0 < rho < 1): fixed-point steps, a contraction of factor rho |z|, then
// Newton on h(z) = z - w exp(rho (z - 1)), h'(z) = 1 - rho w exp(rho (z-1)),
// which is 1 - rho z != 0 at the root.
func mdcRoot(w complex128, rho float64) complex128 {
	z := complex(0, 0)
	for range 30 {
		z = w * cmplx.Exp(complex(rho, 0)*(z-1))
	}
	for range 100 {
		e := w * cmplx.Exp(complex(rho, 0)*(z-1))
		h := z - e
		step := h / (1 - complex(rho, 0)*e)
		next := z - step
		if cmplx.Abs(next) > 1 { // stay in the disc: fall back to a fixed-point step
			next = e
		}
		z = next
		if cmplx.Abs(step) <= 1e-16*math.Max(cmplx.Abs(z), 1e-300) {
			break
		}
	}
	return z
}

// mdcSeries sums Spitzer's series until a term falls below tol times the
// sum (and the terms decrease); ok is false if maxTerms did not suffice.
func mdcSeries(a float64, c int, tol float64, maxTerms int) (float64, bool) {
	sum := 0.0
	for n := 1; n <= maxTerms; n++ {
		nf := float64(n)
		t := poissonExcess(nf*a, nf*float64(c)) / nf
		sum += t
		if t <= tol*sum || sum == 0 {
			return sum, true
		}
	}
	return sum, false
}

// poissonExcess returns E[(P - m)^+] for P ~ Poisson(mu), m a whole number
// above mu: sum_{j>m} (j - m) p_j with p_j by recurrence from p_{m+1},
// computed in logs so that large means do not underflow the start.
func poissonExcess(mu, m float64) float64 {
	j := m + 1
	lg, _ := math.Lgamma(j + 1)
	lp := -mu + j*math.Log(mu) - lg
	if lp < -745 {
		// Terms start below the smallest double; they only decrease while
		// j > mu, so the excess underflows too.
		return 0
	}
	p := math.Exp(lp)
	s := 0.0
	for k := 1.0; ; k++ {
		t := k * p
		s += t
		if t < 1e-17*s && j > mu {
			return s
		}
		j++
		p *= mu / j
		if p == 0 {
			return s
		}
	}
}
