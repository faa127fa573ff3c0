package theory

import "math"

// Tail is a delay's complementary distribution function, t -> P(D > t):
// non-increasing, tending to 0.
type Tail func(t float64) float64

// MMKTails returns the tails of the waiting and the response time of the
// central M/M/K FCFS queue (K speed-1 servers, exponential sizes of mean m,
// total rate lambda; K = 1 is M/M/1). With a = lambda m < K, C = C(K, a)
// the Erlang C probability of waiting and gamma = K/m - lambda the rate at
// which the queue drains (Kleinrock, Queueing Systems I, sec. 3.5;
// Gross and Harris, Fundamentals of Queueing Theory, sec. 2.3):
//
//	P(W > t) = C exp(-gamma t),
//	P(R > t) = exp(-t/m) + C/(gamma m - 1) (exp(-t/m) - exp(-gamma t)),
//
// the second the convolution of the wait with the job's own Exp(1/m)
// service, (1 + C t/m) exp(-t/m) when gamma m = 1. For M/M/1 the response
// is Exp(1/m - lambda) and the wait 0 with probability 1 - rho, else the
// same law.
func MMKTails(lambda float64, K int, m float64) (wait, response Tail, err error) {
	if err := checkArrivalRate(lambda); err != nil {
		return nil, nil, err
	}
	if err := checkPositive("mean size m", m); err != nil {
		return nil, nil, err
	}
	c, err := ErlangC(K, lambda*m)
	if err != nil {
		return nil, nil, err
	}
	gamma, mu := float64(K)/m-lambda, 1/m
	wait = func(t float64) float64 { return c * math.Exp(-gamma*t) }
	response = func(t float64) float64 {
		if d := gamma - mu; math.Abs(d) > 1e-9*mu {
			return math.Exp(-mu*t) + c*mu/d*(math.Exp(-mu*t)-math.Exp(-gamma*t))
		}
		return (1 + c*mu*t) * math.Exp(-mu*t)
	}
	return wait, response, nil
}

// Mixture is the tail of a delay that is tails[i]'s with probability w[i]
// (the w summing to 1): a job that meets one of several queues at random.
func Mixture(w []float64, tails []Tail) Tail {
	return func(t float64) float64 {
		s := 0.0
		for i, tail := range tails {
			s += w[i] * tail(t)
		}
		return s
	}
}

// Quantile is the p-quantile (0 < p < 1) of the law of tail: the least t
// with P(D > t) <= 1 - p, 0 when that holds at t = 0 (an atom at 0, such as
// the jobs that do not wait). The tail is bracketed by doubling and the
// quantile found by bisection, to a relative 1e-12.
func Quantile(tail Tail, p float64) float64 {
	if !(p > 0 && p < 1) {
		return math.NaN()
	}
	q := 1 - p
	if tail(0) <= q {
		return 0
	}
	lo, hi := 0.0, 1.0
	for tail(hi) > q {
		lo, hi = hi, 2*hi
		if math.IsInf(hi, 1) {
			return math.Inf(1)
		}
	}
	for hi-lo > 1e-12*hi {
		if mid := lo + (hi-lo)/2; tail(mid) > q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// GIM1Tails returns the tails of the waiting and the response time of the
// GI/M/1 FCFS queue with gaps g and service rate mu: with sigma =
// GIM1Root(g, mu), an arrival finds n jobs with probability (1 - sigma)
// sigma^n, so the response is Exp(mu (1 - sigma)) and the wait 0 with
// probability 1 - sigma, else the same law (Kleinrock, Queueing Systems I,
// sec. 6.4):
//
//	P(W > t) = sigma exp(-mu (1 - sigma) t),  P(R > t) = exp(-mu (1 - sigma) t).
func GIM1Tails(g Gaps, mu float64) (wait, response Tail, err error) {
	sigma, x, err := gim1Root(g, mu)
	if err != nil {
		return nil, nil, err
	}
	wait = func(t float64) float64 { return sigma * math.Exp(-mu*x*t) }
	response = func(t float64) float64 { return math.Exp(-mu * x * t) }
	return wait, response, nil
}
