package theory

import (
	"fmt"
	"math"
)

// JIQWithdrawals is the mean-field limit (K servers and M dispatchers to
// infinity, r = K/M servers per dispatcher fixed) of join-the-idle-queue with
// I-queues and token withdrawals, the model of B. Van Houdt, "On the
// performance evaluation of distributed join-idle-queue load balancing with
// and without token withdrawals" (2024). Every dispatcher has an I-queue of
// tokens; a server that becomes idle puts a token in the I-queue of one
// dispatcher, the shortest of d distinct ones drawn at random (d = 1:
// JIQ-Random; as M -> infinity d distinct draws are d independent ones,
// whence the s_j^d below); a
// dispatcher sends a job to a server of its I-queue if it has one, else to a
// server drawn at random; a server that gets a job withdraws its token, so
// the tokens are the idle servers. Poisson arrivals, equal speeds, per-server
// load rho, any sizes.
//
// A busy server then receives jobs only at random, at the rate lambda q0 of
// a Poisson process, where q0 is the fraction of jobs that find their
// dispatcher's I-queue empty: its busy periods are those of an M/G/1 queue
// at load rho q0, and a job's delay is that queue's (Van Houdt's result):
//
//	E[W] = lambda q0 E[X^2] / (2 (1 - rho q0)),   lambda = rho / E[X].
//
// q0 is the fixed point of the I-queue lengths. In units of a server's job
// rate, a dispatcher with j tokens loses one at rate r (its own jobs) plus
// j q0 (withdrawals), and gains one at rate tau (s_j^d - s_(j+1)^d) / u_j,
// where u_j is the fraction of dispatchers with j tokens and s_j = sum_(l>=j)
// u_l (the shortest of d sampled I-queues has j tokens). The birth-death
// balance across each cut
//
//	u_(j+1) (r + (j+1) q0) = tau (s_j^d - s_(j+1)^d),   u_0 = q0,
//
// with sum_j u_j = 1 and sum_j j u_j = r (1 - rho) (one token per idle
// server), fixes tau and q0. For d = 1 the u_j are the product form
// u_j = u_0 tau^j / prod_(i<=j) (r + i q0).
type JIQWithdrawals struct {
	Rho float64 // per-server load, 0 <= rho < 1
	R   float64 // servers per dispatcher, K/M > 0
	D   int     // I-queues sampled by an idle server, >= 1
}

func (j JIQWithdrawals) check() error {
	if err := checkMeanField(j.D, j.Rho); err != nil {
		return err
	}
	if !finite(j.R) || j.R <= 0 {
		return fmt.Errorf("theory: servers per dispatcher r=%g is invalid: need 0 < r < inf (r = K/M)", j.R)
	}
	return nil
}

// EmptyFraction is q0, the fraction of jobs that find their dispatcher's
// I-queue empty and are sent at random.
func (j JIQWithdrawals) EmptyFraction() (float64, error) {
	if err := j.check(); err != nil {
		return 0, err
	}
	return j.fixedPoint(), nil
}

// fixedPoint solves for q0 by bisection: the mean number of tokens a
// dispatcher holds falls as q0 (the withdrawal rate) grows. f is not
// evaluated at the ends: as q0 -> 0 the mean grows without bound for d = 1
// (the recursion's cost with it), and a root below 2^-64 is 0 to any
// precision a wait needs.
func (j JIQWithdrawals) fixedPoint() float64 {
	want := j.R * (1 - j.Rho)
	lo, hi := 0.0, 1.0
	for range 64 {
		mid := (lo + hi) / 2
		if j.meanTokens(mid) > want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// meanTokens is sum_j j u_j at u_0 = q, with tau set so that the u_j sum
// to 1: tau too large places more than all the mass, too small less.
func (j JIQWithdrawals) meanTokens(q float64) float64 {
	lengths := j.lengthsSampled
	if j.D == 1 {
		lengths = j.lengthsRandom
	}
	over := func(tau float64) float64 { left, _ := lengths(q, tau); return left }
	hi := j.R
	for over(hi) > 0 {
		hi *= 2
	}
	_, mean := lengths(q, bisectRoot(over, 0, hi))
	return mean
}

// lengthsRandom is the product form of d = 1: with w_j = prod_(i<=j) tau /
// (r + i q), u_j = q w_j and the u_j sum to 1 when sum_j w_j = 1/q. It
// returns 1 - q sum_j w_j (the mass left unplaced, negative when the u_j
// overshoot) and sum_j j u_j.
func (j JIQWithdrawals) lengthsRandom(q, tau float64) (left, mean float64) {
	w, sum, sumJ := 1.0, 1.0, 0.0
	for n := 1; n < 100_000_000; n++ {
		ratio := tau / (j.R + float64(n)*q)
		w *= ratio
		sum += w
		sumJ += float64(n) * w
		if q*sum > 2 { // overshoots: the sign is all that matters
			break
		}
		if ratio < 1 && w < 1e-17*sum {
			break
		}
	}
	return 1 - q*sum, q * sumJ
}

// lengthsSampled runs the balance recursion for d >= 2 from u_0 = q: it
// returns the mass left unplaced (s_n once the u_j vanish; negative as
// soon as they overshoot) and sum_j j u_j. The chance that the shortest of
// d sampled I-queues has exactly j tokens, s_j^d - s_(j+1)^d, is computed
// from u_j = s_j - s_(j+1) without cancellation.
func (j JIQWithdrawals) lengthsSampled(q, tau float64) (left, mean float64) {
	d := float64(j.D)
	s, u := 1.0, q // s_j and u_j
	for n := 1; n < 100_000_000; n++ {
		hit := -math.Pow(s, d) * math.Expm1(d*math.Log1p(-u/s))
		next := tau * hit / (j.R + float64(n)*q) // u_n
		s -= u                                   // s_n
		mean += float64(n) * next
		if next > s {
			return s - next - 1, mean // overshoots
		}
		ratio := next / u
		u = next
		// The ratio of successive u_j only falls from here on (s_j falls,
		// the death rate grows): the rest of the u_j sum to less than
		// u ratio / (1 - ratio).
		if ratio < 1 && (u*ratio/(1-ratio) < 0.5*(s-u) || s < 1e-13) {
			return s - u, mean
		}
	}
	return s - u, mean
}

// Delay is the mean wait and response of a job with sizes of mean m1 and
// second moment m2 (speed 1): the M/G/1 queue at load rho q0.
func (j JIQWithdrawals) Delay(m1, m2 float64) (Delay, error) {
	q0, err := j.EmptyFraction()
	if err != nil {
		return Delay{}, err
	}
	if !finite(m1) || m1 <= 0 || !finite(m2) || m2 < m1*m1 {
		return Delay{}, fmt.Errorf("theory: size moments E[X]=%g, E[X^2]=%g are invalid: need E[X] > 0 and E[X^2] >= E[X]^2, both finite", m1, m2)
	}
	a := j.Rho * q0
	w := a / m1 * m2 / (2 * (1 - a))
	return Delay{Wait: w, Response: w + m1}, nil
}

// DelayPS is the mean wait and response under processor sharing, sizes of
// mean m1 (speed 1): the busy periods are the same, and a job's response is
// that of the M/G/1-PS queue at load a = rho q0, m1 / (1 - a), whatever the
// law beyond its mean; the wait is the response less m1.
func (j JIQWithdrawals) DelayPS(m1 float64) (Delay, error) {
	q0, err := j.EmptyFraction()
	if err != nil {
		return Delay{}, err
	}
	if !finite(m1) || m1 <= 0 {
		return Delay{}, fmt.Errorf("theory: size mean E[X]=%g is invalid: need 0 < E[X] < inf", m1)
	}
	r := m1 / (1 - j.Rho*q0)
	return Delay{Wait: r - m1, Response: r}, nil
}

// MessagesPerJob is the tokens and withdrawals a job costs: a busy period
// of the M/G/1 queue at load rho q0 serves 1/(1 - rho q0) jobs and ends with
// one token, which costs msgsPerToken messages (1 for d = 1: the token; 2d
// + 1 for d >= 2: d queries, d replies and the token); a job sent at random
// (a fraction q0) finds its server idle with probability 1 - rho and makes
// it withdraw its token, one message.
func (j JIQWithdrawals) MessagesPerJob() (float64, error) {
	q0, err := j.EmptyFraction()
	if err != nil {
		return 0, err
	}
	perToken := 1.0
	if j.D > 1 {
		perToken = float64(2*j.D + 1)
	}
	return perToken*(1-j.Rho*q0) + q0*(1-j.Rho), nil
}
