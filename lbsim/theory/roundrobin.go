package theory

import (
	"fmt"
	"math"
)

// EKM1Root returns the root sigma in (0,1) of the GI/M/1 equation for an
// E_K/M/1 queue at load rho (Erlang-K interarrival times, exponential service):
//
//	sigma = A*(mu (1 - sigma)) = (K rho / (K rho + 1 - sigma))^K.
//
// The root depends only on K and rho. It is found by bisection on
// f(sigma) = sigma - A*(mu(1-sigma)), which is negative at 0 and positive just
// below the trivial root 1 whenever rho < 1. K=1 gives sigma = rho (M/M/1).
func EKM1Root(K int, rho float64) (float64, error) {
	if K < 1 {
		return 0, fmt.Errorf("theory: number of servers K=%d is invalid: need K >= 1; pass a positive server count", K)
	}
	if err := checkLoad(rho); err != nil {
		return 0, err
	}
	if rho == 0 {
		return 0, nil
	}
	kr := float64(K) * rho
	f := func(s float64) float64 { return s - math.Pow(kr/(kr+1-s), float64(K)) }
	// Find hi < 1 with f(hi) > 0: f(1-e) ~ e (1/rho - 1) for small e.
	hi := 1 - (1-rho)/2
	for f(hi) <= 0 {
		hi = 1 - (1-hi)/2
		if 1-hi < 1e-300 {
			return 0, fmt.Errorf("theory: E_K/M/1 root not bracketed for K=%d rho=%g: load too close to 1; lower the load", K, rho)
		}
	}
	lo := 0.0
	for i := 0; i < 200 && hi-lo > 1e-16; i++ {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return (lo + hi) / 2, nil
}

// RoundRobinExp returns the exact mean delays of round-robin dispatching to K
// speed-1 FCFS servers with Poisson arrivals at total rate lambda and
// exponential sizes of mean m. Each server receives every K-th arrival, so its
// interarrival times are Erlang-K with rate lambda per phase: it is an E_K/M/1
// queue with load rho = lambda m / K and
//
//	E[W] = m sigma / (1 - sigma),  E[R] = E[W] + m,
//
// where sigma is EKM1Root(K, rho). Conditions: rho < 1.
func RoundRobinExp(lambda float64, K int, m float64) (Delay, error) {
	if err := checkArrivalRate(lambda); err != nil {
		return Delay{}, err
	}
	if err := checkPositive("mean size m", m); err != nil {
		return Delay{}, err
	}
	if K < 1 {
		return Delay{}, fmt.Errorf("theory: number of servers K=%d is invalid: need K >= 1; pass a positive server count", K)
	}
	sigma, err := EKM1Root(K, lambda*m/float64(K))
	if err != nil {
		return Delay{}, err
	}
	w := m * sigma / (1 - sigma)
	return Delay{Wait: w, Response: w + m}, nil
}

// RoundRobinKingmanApprox approximates the mean delays of round robin with
// general sizes by Kingman's GI/G/1 formula for one server:
//
//	E[W] ~ (c_a^2 + c_s^2)/2 * rho/(1 - rho) * E[X],
//
// with rho = lambda E[X] / K, arrival SCV c_a^2 = 1/K (Erlang-K interarrivals)
// and size SCV c_s^2 = E[X^2]/E[X]^2 - 1. It is an APPROXIMATION: exact for
// K=1 (Pollaczek-Khinchine), asymptotically exact as rho -> 1, and it
// overestimates at moderate loads (e.g. K=2, rho=0.5, exponential sizes:
// 0.75 against the exact 0.618).
func RoundRobinKingmanApprox(lambda float64, K int, size Moments) (Delay, error) {
	if K < 1 {
		return Delay{}, fmt.Errorf("theory: number of servers K=%d is invalid: need K >= 1; pass a positive server count", K)
	}
	if err := checkArrivalRate(lambda); err != nil {
		return Delay{}, err
	}
	if err := checkMoments(size); err != nil {
		return Delay{}, err
	}
	m := size.Mean()
	rho := lambda * m / float64(K)
	if err := checkLoad(rho); err != nil {
		return Delay{}, err
	}
	ca2 := 1 / float64(K)
	cs2 := max(size.SecondMoment()/(m*m)-1, 0)
	w := (ca2 + cs2) / 2 * rho / (1 - rho) * m
	return Delay{Wait: w, Response: w + m}, nil
}
