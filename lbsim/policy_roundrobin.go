package lbsim

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// RoundRobin (RR) sends the n-th job to server n mod K: with Poisson arrivals
// every server sees Erlang-K interarrival times (E_K/G/1).
type RoundRobin struct{}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "rr", Example: "rr", Summary: "round robin: job n to server n mod K",
		New: func(Params) (Policy, error) { return RoundRobin{}, nil }})
}

func (RoundRobin) String() string                  { return "rr" }
func (RoundRobin) Label() string                   { return "RR" }
func (RoundRobin) Reads() State                    { return 0 }
func (RoundRobin) Pick(v *View, _ float64) int     { return int(v.Job() % int64(v.K())) }
func (RoundRobin) newDispatcher(s *sim) dispatcher { return &rrDispatcher{k: s.k} }

type rrDispatcher struct{ k, next int }

func (d *rrDispatcher) pick(float64, float64) int {
	k := d.next
	if d.next++; d.next == d.k {
		d.next = 0
	}
	return k
}

func (*rrDispatcher) lean(*sim) leanPolicy { return leanRoundRobin }

// Theory: with exponential sizes and equal speeds every server is an
// E_K/M/1 queue (Erlang-K gaps: K Poisson gaps between a server's jobs),
// solved by the GI/M/1 root; under PS the same mean (exponential sizes make
// the number of jobs the same process under any work-conserving discipline).
func (RoundRobin) Theory(c Config) (Reference, bool) {
	s := systemOf(c)
	if !s.exp || !s.equal {
		return Reference{}, false
	}
	d, err := theory.RoundRobinExp(s.lambda, s.k, s.sizes.Mean()/s.mu)
	return reference(d, err, fmt.Sprintf("E_%d/M/1 (GI/M/1 root)", s.k), ExactValue)
}

// WorkShares: job n to server n mod K, so 1/K of the work to every server.
func (RoundRobin) WorkShares(c Config) []float64 { return evenShares(c.Servers) }
