package theory

import "fmt"

// ErlangC returns the probability that an arriving job waits in a central
// M/M/K queue with offered load a = lambda E[X] (in servers), a < K:
//
//	C(K, a) = K B(K, a) / (K - a (1 - B(K, a))),
//
// with the Erlang B blocking probability from the stable recursion
// B(0, a) = 1, B(k, a) = a B(k-1, a) / (k + a B(k-1, a)),
// which avoids the factorials and powers of the textbook sum.
func ErlangC(K int, a float64) (float64, error) {
	if K < 1 {
		return 0, fmt.Errorf("theory: number of servers K=%d is invalid: need K >= 1; pass a positive server count", K)
	}
	if !finite(a) || a < 0 {
		return 0, fmt.Errorf("theory: offered load a=%g is invalid: need 0 <= a < K=%d; pass lambda*E[X] >= 0", a, K)
	}
	if a >= float64(K) {
		return 0, fmt.Errorf("theory: offered load a=%g is unstable for K=%d servers: need 0 <= a < %d (per-server load a/K=%g < 1); lower the arrival rate", a, K, K, a/float64(K))
	}
	b := 1.0
	for k := 1; k <= K; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return float64(K) * b / (float64(K) - a*(1-b)), nil
}

// MMK returns the mean delays of the central M/M/K FCFS queue (one shared
// queue, K speed-1 servers, exponential sizes of mean m, total rate lambda).
// With a = lambda m and rho = a/K < 1:
//
//	E[W] = C(K, a) m / (K - a),  E[R] = E[W] + m.
//
// Least-work-left dispatching (LWL) to FCFS servers has exactly these delays.
func MMK(lambda float64, K int, m float64) (Delay, error) {
	if err := checkArrivalRate(lambda); err != nil {
		return Delay{}, err
	}
	if err := checkPositive("mean size m", m); err != nil {
		return Delay{}, err
	}
	a := lambda * m
	c, err := ErlangC(K, a)
	if err != nil {
		return Delay{}, err
	}
	w := c * m / (float64(K) - a)
	return Delay{Wait: w, Response: w + m}, nil
}
