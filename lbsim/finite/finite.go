// Package finite compares dispatching among a finite number N of servers with
// its mean-field limit (N -> infinity), for exponential sizes of mean 1, speed-1
// FCFS servers and Poisson arrivals at per-server load rho: the setting of
// Mitzenmacher's power-of-d result and of Godtschalk and Ciucu, "Randomized
// load balancing in finite regimes" (ICDCS 2016).
//
// It supplies the limits (JSQ-d and LL-d), the relative error of a limit
// against a finite-N value, and simple bounds that hold for every N: the
// central M/M/N queue below and random dispatching (M/M/1 per server) above.
package finite

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// Limit returns the mean-field mean delays of a power-of-d policy at per-server
// load rho: JSQ{D} (Mitzenmacher) or LeastLoaded{D} (Hellemans and Van Houdt),
// D >= 2 distinct samples, as lbsim.Exact knows them (the one theory lookup).
// The limit does not depend on N, so it is looked up for N = D+1 servers, where
// LL-d is not yet the central queue. Policies that look at all servers have no
// such limit.
func Limit(p lbsim.Policy, rho float64) (theory.Delay, error) {
	d := 0
	switch q := p.(type) {
	case lbsim.JSQ:
		d = q.D
	case lbsim.LeastLoaded:
		d = q.D
	}
	if d >= 2 {
		cfg := lbsim.Config{Servers: d + 1, Load: rho, Sizes: lbsim.Exponential{M: 1}, Policy: p, Jobs: 1}
		if ref, ok := lbsim.Exact(cfg); ok && ref.Kind == lbsim.LimitValue {
			return theory.Delay{Wait: ref.Wait, Response: ref.Response}, nil
		}
	}
	return theory.Delay{}, fmt.Errorf("finite: policy %s at load %v has no mean-field limit here: use jsq:d=D or ll:d=D with D >= 2 (distinct samples) and 0 < load < 1", p, rho)
}

// Excess is the relative error of a limit against the finite-N value it is
// meant to predict, taken relative to the limit:
//
//	e = (E_N - E_inf) / E_inf.
//
// e = 1 means the finite system's delay is twice the limit ("the limit is off
// by 100%"); it is the measure under which errors above 100% are possible.
func Excess(finite, limit float64) float64 { return (finite - limit) / limit }

// Bounds returns mean delays that bound every dispatching of Poisson arrivals
// (per-server load rho, exponential sizes of mean 1) to N speed-1 FCFS queues
// that does at least as well as blind random splitting:
//
//	lower: the central M/M/N queue (theory.MMK); no dispatcher to separate
//	       queues beats it, since it never idles a server while a job waits;
//	upper: random dispatching, every server an M/M/1 queue: E[R] = 1/(1-rho).
//
// JSQ-d, LL-d, JSQ and LWL all lie between the two; LWL equals the lower one.
func Bounds(n int, rho float64) (lower, upper theory.Delay, err error) {
	if n < 1 {
		return lower, upper, fmt.Errorf("finite: N=%d is invalid: need N >= 1 servers", n)
	}
	if math.IsNaN(rho) || rho <= 0 || rho >= 1 {
		return lower, upper, fmt.Errorf("finite: load rho=%v is invalid: need 0 < rho < 1", rho)
	}
	lower, err = theory.MMK(rho*float64(n), n, 1)
	if err != nil {
		return lower, upper, err
	}
	upper, err = theory.MM1(rho, 1, 1)
	return lower, upper, err
}
