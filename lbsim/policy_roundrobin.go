package lbsim

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// RoundRobin (RR) sends the n-th job to server n mod K: with Poisson arrivals
// every server sees Erlang-K interarrival times (E_K/G/1).
type RoundRobin struct{}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "rr", Example: "rr", Params: []string{"weights"}, Lists: []string{"weights"},
		Summary: "round robin: job n to server n mod K (weights=speed: smooth weighted round robin in proportion to speed; weights=2/1/1: to the given weights)",
		New: func(p Params) (Policy, error) {
			w, ok, err := weightsParam("rr", p)
			if err != nil || !ok {
				return RoundRobin{}, err
			}
			return WeightedRoundRobin{Weights: w}, nil
		}})
}

func (RoundRobin) String() string              { return "rr" }
func (RoundRobin) Pick(v *View, _ float64) int { return int(v.Job() % int64(v.K())) }

// describe: job n to server n mod K, so 1/K of the jobs to every server,
// with gaps of SCV c0/K. With M dispatchers a server's arrivals merge M
// such streams, whose gaps are more variable but whose index of
// dispersion, the c_a^2 of heavy traffic that sets the relaxation time, is
// each stream's (Whitt 1982, "Approximating a point process by a renewal
// process"). Each dispatcher has its own pointer: a history.
func (RoundRobin) describe(c *Config) Description {
	k := float64(c.Servers)
	return Description{Label: "RR", Reads: NoState, builtinFacts: builtinFacts{history: true, split: func() []classSplit { return allJobs(c, nil) },
		gapSCV: func(c0 float64, _ serverLoad) float64 { return c0 / k }, detTheory: true}}
}

func (RoundRobin) validate(*Config) error { return nil }
func (p RoundRobin) start(*View) Policy   { return p }
func (RoundRobin) newDispatcher(s *sim) dispatcher {
	return &rrDispatcher{k: s.k, next: startingTurn(s, s.k)}
}

// startingTurn is where a dispatcher's round-robin pointer starts among n
// turns: 0 with one dispatcher (the run of old, to the bit); with several,
// a turn drawn from the dispatcher's own stream, as proxies started at
// different times have. Started in step, M dispatchers would send their
// n-th jobs to the same server at once: a burst the steady state lacks.
func startingTurn(s *sim, n int) int {
	if s.cfg.dispatchers() == 1 {
		return 0
	}
	return s.rDispatch.IntN(n)
}

type rrDispatcher struct{ k, next int }

func (d *rrDispatcher) pick(float64, float64) int {
	k := d.next
	if d.next++; d.next == d.k {
		d.next = 0
	}
	return k
}

func (*rrDispatcher) lean(*sim) leanPolicy { return leanRoundRobin }

// theory: with exponential sizes every server is an E_K/M/1 queue at its
// own speed (K Poisson gaps between its jobs), solved by the GI/M/1 root,
// and the means average the servers; the same under PS (exponential sizes
// make the number of jobs the same process under any work-conserving
// discipline). With H2 sizes under FCFS, E_K/H2/1 (theory.RoundRobinH2:
// the two roots of the GI/H2/1 equation).
func (RoundRobin) theory(c Config) (Reference, bool) {
	s := systemOf(c)
	if _, det := c.arrivals().(DeterministicArrivals); det {
		return gapTheoryRR(s)
	}
	if h, ok := s.sizes.(H2); ok && s.disc == FCFS {
		return perServer(s, fmt.Sprintf("E_%d/H2/1 per server (GI/H2/1 roots)", s.k), func(mu float64) (theory.Delay, error) {
			return theory.RoundRobinH2(s.lambda, s.k, theory.HyperExp{P1: h.P1, Rate1: h.Rate1, Rate2: h.Rate2}, mu)
		})
	}
	if !s.exp || !s.under(FCFS, PS) {
		return Reference{}, false
	}
	ref, ok := perServer(s, fmt.Sprintf("E_%d/M/1 per server (GI/M/1 root)", s.k), func(mu float64) (theory.Delay, error) {
		return theory.RoundRobinExp(s.lambda, s.k, s.sizes.Mean()/mu)
	})
	if ok && s.disc == FCFS {
		ref.Quantiles = rrQuantiles(s)
	}
	return ref, ok
}

// rrQuantiles are the exact quantiles of round robin with exponential sizes
// under FCFS: a job meets each server with probability 1/K (a class of n
// alike servers with n/K), an E_K/M/1 queue whose delays are GI/M/1's
// (theory.GIM1Tails).
func rrQuantiles(s system) *ExactQuantiles {
	g, err := theory.ErlangGaps(s.k, float64(s.k)/s.lambda)
	if err != nil {
		return nil
	}
	n := len(s.classes)
	w, waits, resps := make([]float64, n), make([]theory.Tail, n), make([]theory.Tail, n)
	for i, q := range s.classes {
		w[i] = float64(q.n) / float64(s.k)
		if waits[i], resps[i], err = theory.GIM1Tails(g, q.speed/s.sizes.Mean()); err != nil {
			return nil
		}
	}
	return exactQuantiles(theory.Mixture(w, waits), theory.Mixture(w, resps))
}

// gapTheoryRR: under deterministic arrivals (gap a = 1/lambda) every server
// gets a job every K a: D/M/1 with exponential sizes (FCFS or PS).
func gapTheoryRR(s system) (Reference, bool) {
	if !s.exp || !s.under(FCFS, PS) {
		return Reference{}, false
	}
	g, err := theory.DetGaps(float64(s.k) / s.lambda)
	if err != nil {
		return Reference{}, false
	}
	return perServer(s, "D/M/1 per server (GI/M/1 root)", func(mu float64) (theory.Delay, error) {
		return theory.GIM1(g, mu/s.sizes.Mean())
	})
}
