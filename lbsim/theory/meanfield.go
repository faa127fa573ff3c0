package theory

import (
	"fmt"
	"math"
)

// checkMeanField validates the common inputs of the mean-field limits.
func checkMeanField(d int, rho float64) error {
	if d < 1 {
		return fmt.Errorf("theory: number of choices d=%d is invalid: need d >= 1; pass d=2 for power-of-two", d)
	}
	return checkLoad(rho)
}

// JSQdMeanField returns Mitzenmacher's mean-field limit (K -> infinity) for
// JSQ-d: each job joins the queue with the fewest jobs among d sampled
// servers; Poisson arrivals, exponential sizes of mean 1, speed 1, per-server
// load rho. The fraction of servers with at least i jobs is
// s_i = rho^((d^i - 1)/(d - 1)), so by Little's law
//
//	E[R] = (1/rho) sum_{i>=1} s_i = sum_{i>=1} rho^((d^i - d)/(d - 1)),
//
// and E[W] = E[R] - 1. The exponent is summed as 1 + d + ... + d^(i-1), which
// also covers d = 1 (M/M/1: E[R] = 1/(1 - rho)).
func JSQdMeanField(d int, rho float64) (Delay, error) {
	if err := checkMeanField(d, rho); err != nil {
		return Delay{}, err
	}
	if rho == 0 {
		return Delay{Wait: 0, Response: 1}, nil
	}
	r := 0.0
	e := 0.0   // (d^i - d)/(d - 1) = d + ... + d^(i-1), zero for i = 1
	pow := 1.0 // d^(i-1)
	for i := 1; ; i++ {
		t := math.Pow(rho, e)
		r += t
		if t < 1e-17*r {
			break
		}
		pow *= float64(d)
		e += pow
	}
	return Delay{Wait: r - 1, Response: r}, nil
}

// LLdMeanField returns the mean-field limit (K -> infinity) for LL-d, where
// each job joins the least *workload* among d sampled FCFS servers, with
// exponential sizes of mean 1 (Hellemans & Van Houdt 2018). The workload
// ccdf is LLdWorkloadCCDF; a job waits the minimum of d workloads, so
// E[W] = int_0^inf Fbar(w)^d dw. Substituting x = Fbar(w) gives
//
//	E[W] = int_0^rho x^(d-1) / (1 - rho x^(d-1)) dx = sum_{k>=1} rho^(d k) / ((d-1) k + 1),
//
// E[R] = 1 + E[W]. For d = 2 this is E[R] = -ln(1 - rho^2) / rho^2; for
// d = 1 it is M/M/1.
func LLdMeanField(d int, rho float64) (Delay, error) {
	if err := checkMeanField(d, rho); err != nil {
		return Delay{}, err
	}
	w := 0.0
	rd := math.Pow(rho, float64(d))
	t := 1.0
	for k := 1; rho > 0; k++ {
		t *= rd
		term := t / float64((d-1)*k+1)
		w += term
		if term < 1e-17*w {
			break
		}
	}
	return Delay{Wait: w, Response: 1 + w}, nil
}

// LLdWorkloadCCDF returns the mean-field ccdf P(workload > w) of a server
// under LL-d with exponential sizes of mean 1 and per-server load rho:
//
//	Fbar(w) = (rho + (rho^(1-d) - rho) e^((d-1) w))^(1/(1-d)),  d >= 2,
//
// the solution of Fbar'(w) = -(Fbar(w) - rho Fbar(w)^d) with Fbar(0) = rho; for
// d = 1 it is the M/M/1 workload ccdf rho e^(-(1-rho) w).
func LLdWorkloadCCDF(d int, rho, w float64) (float64, error) {
	if err := checkMeanField(d, rho); err != nil {
		return 0, err
	}
	if !finite(w) && !math.IsInf(w, 1) || w < 0 {
		return 0, fmt.Errorf("theory: workload level w=%g is invalid: need w >= 0; pass a non-negative level", w)
	}
	if rho == 0 || math.IsInf(w, 1) {
		return 0, nil
	}
	if d == 1 {
		return rho * math.Exp(-(1-rho)*w), nil
	}
	// Written as rho (rho^d + (1 - rho^d) e^((d-1)w))^(1/(1-d)) to avoid
	// rho^(1-d) overflowing for small rho.
	dm := float64(d - 1)
	rd := math.Pow(rho, float64(d))
	inner := rd + (1-rd)*math.Exp(dm*w)
	return rho * math.Pow(inner, -1/dm), nil
}
