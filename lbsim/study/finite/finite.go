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

// Limit returns the mean-field mean delays (N -> infinity) of policy p at
// per-server load rho, as lbsim.Limit knows them (the one theory lookup):
// JSQ-d (Mitzenmacher) and LL-d (Hellemans and Van Houdt) with D >= 2
// distinct samples, JSQ(d,1), JIQ, or a policy of your own whose Theory
// gives a LimitValue. The limit does not depend on N, so it is looked up for
// limitServers servers. Policies that look at all servers have no such limit
// (their theory is exact or a bound).
func Limit(p lbsim.Policy, rho float64) (theory.Delay, error) {
	cfg := lbsim.Config{Servers: limitServers, Load: rho, Sizes: lbsim.Exponential{M: 1}, Policy: p, Jobs: 1}
	if ref, ok := lbsim.Limit(cfg); ok && ref.Kind == lbsim.LimitValue {
		return theory.Delay{Wait: ref.Wait, Response: ref.Response}, nil
	}
	return theory.Delay{}, fmt.Errorf("finite: policy %s at load %v has no mean-field limit here: use jsq:d=D or ll:d=D with D >= 2 (distinct samples) and 0 < load < 1", p, rho)
}

// limitServers is the system size at which Limit asks for a limit: any N
// that the sampled policies accept.
const limitServers = 1000

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
