package lbsim

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// JIQ is join-the-idle-queue (Lu, Xie, Kliot, Geller, Larus and Greenberg,
// Performance Evaluation 2011). With one dispatcher a job goes to an idle
// server (no work) drawn uniformly if there is one, else to any server drawn
// uniformly. With several (live state) each dispatcher has an I-queue of
// idle servers' tokens (sim_iqueues.go). On a stale board "idle" is idle at
// the last refresh (and, with tally, sent nothing since).
type JIQ struct {
	// D > 1: a server that becomes idle puts its token in the shortest of
	// D distinct I-queues drawn at random (JIQ-SQ(d)), so D <= M; 0 or 1:
	// in one drawn at random (JIQ-Random). Several dispatchers only, as
	// Withdraw: with one there are no I-queues (validate refuses them).
	D int
	// Withdraw: a server that gets a job withdraws its token from the
	// I-queue holding it, so tokens name idle servers only (one message).
	Withdraw bool
}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "jiq", Params: []string{"d", "withdraw"}, Example: "jiq",
		Summary: "join the idle queue: an idle server if one is known, else any server uniformly (several dispatchers: I-queues; d=2: an idle server joins the shorter of 2 I-queues; withdraw=1: a server that gets a job withdraws its token)",
		New: func(p Params) (Policy, error) {
			d, err := p.Int("d", 0)
			if err != nil || (d == 0 && p.Has("d")) {
				return nil, fmt.Errorf("jiq: d=%s is invalid: need a whole number 1 <= d <= M, the number of dispatchers (the distinct I-queues an idle server compares); e.g. jiq:d=2", strconv.FormatFloat(p["d"], 'f', -1, 64))
			}
			w, err := p.Bool("withdraw")
			if err != nil {
				return nil, fmt.Errorf("jiq: %w", err)
			}
			return JIQ{D: d, Withdraw: w}, nil
		}})
}

func (p JIQ) String() string {
	spec := "jiq"
	if p.D > 1 {
		spec += fmt.Sprintf(":d=%d", p.D)
	}
	if p.Withdraw {
		spec += map[bool]string{true: ",", false: ":"}[p.D > 1] + "withdraw=1"
	}
	return spec
}

// describe: workloads (idle or not), and idle servers learnt from their
// reports, a message each. Without I-queues (one dispatcher, a board) d and
// withdraw would do nothing (validate refuses them), so its key is plain
// JIQ's, and it keeps LWL's index (a job each beyond a scan's few servers);
// with I-queues, a token each.
func (p JIQ) describe(c *Config) Description {
	d := Description{Label: "JIQ", Reads: Workload, builtinFacts: builtinFacts{symmetric: true, reportsIdle: true,
		actsAs: p, stateBytes: indexBytes * int64(c.Servers)}}
	if p.D > 1 {
		d.Label += fmt.Sprintf("-SQ(%d)", p.D)
	}
	if p.Withdraw {
		d.Label += " withdraw"
	}
	if !p.iqueued(c) {
		d.actsAs = JIQ{}
	} else {
		d.stateBytes = 0
	}
	if c.Refresh == 0 && (p.iqueued(c) || !scansFree(c.Servers)) {
		d.jobIndexes = 1
	}
	return d
}

// iqueued reports whether c runs JIQ with I-queues: several dispatchers, live.
func (JIQ) iqueued(c *Config) bool { return c.dispatchers() > 1 && c.Refresh == 0 }

// validate: the I-queue options need I-queues (live state, several
// dispatchers), and d distinct ones M >= d.
func (p JIQ) validate(c *Config) error {
	if (p.D > 1 || p.Withdraw) && c.Refresh > 0 {
		return errors.New(p.String() + ": the I-queue options (d, withdraw) need live state, where idle servers send tokens: set -refresh 0, or use plain jiq on a board")
	}
	if p.D > 1 || p.Withdraw {
		if err := c.severalOnly(p.String(), "its options d and withdraw act on the dispatchers' I-queues, and one dispatcher has none (it sends to an idle server whenever there is one)",
			fmt.Sprintf("use plain jiq, or add dispatchers, e.g. -dispatchers %d", max(p.D, 2))); err != nil {
			return err
		}
	}
	if m := c.dispatchers(); p.iqueued(c) && p.D > m {
		return fmt.Errorf("jiq: d=%d is invalid with M=%d dispatchers: need 1 <= d <= M = %d (an idle server compares d distinct I-queues, one a dispatcher); lower d, e.g. jiq:d=%d, or add dispatchers (-dispatchers %d)", p.D, m, m, min(2, m), p.D)
	}
	return nil
}

func (p JIQ) start(*View) Policy { return p }

// theory: with exponential sizes at small K (theory.DispatchMaxServers, any
// speeds, FCFS or PS) the exact Markov chain; otherwise, with equal speeds,
// the limit K -> infinity, where every job finds an idle server. With
// I-queues, withdrawals, equal speeds and an even split, the mean-field
// limit K, M -> infinity at r = K/M (iqueueTheory); without withdrawals none.
func (p JIQ) theory(c Config) (Reference, bool) {
	if p.iqueued(&c) {
		return p.iqueueTheory(c)
	}
	s := systemOf(c)
	chain, ok := smallChain(s, theory.DispatchRule{JIQ: true})
	if ok {
		return chain, true
	}
	if !s.equal || !s.under(FCFS, PS) {
		return Reference{NoExact: chain.NoExact}, false
	}
	return Reference{Wait: 0, Response: s.sizes.Mean() / s.mu, Method: "JIQ limit: every job finds an idle server", Kind: LimitValue, NoExact: chain.NoExact}, true
}

// Pick scans the K servers, O(K); the run uses jiqDispatcher, O(log K).
func (JIQ) Pick(v *View, _ float64) int {
	idle := 0
	for k := range v.K() {
		if v.Workload(k) == 0 {
			idle++
		}
	}
	if idle == 0 {
		return v.Rand().IntN(v.K())
	}
	j := v.Rand().IntN(idle) // the j-th idle server in index order
	for k := range v.K() {
		if v.Workload(k) == 0 {
			if j == 0 {
				return k
			}
			j--
		}
	}
	panic("unreachable: idle servers counted above")
}

// iqueueTheory is Van Houdt's limit of the I-queues with withdrawals.
func (p JIQ) iqueueTheory(c Config) (Reference, bool) {
	s := systemOf(c)
	if !p.Withdraw || !s.equal || !c.evenSplit() || !s.under(FCFS, PS) {
		return Reference{}, false
	}
	m := c.dispatchers()
	lim := theory.JIQWithdrawals{Rho: c.Load, R: float64(c.Servers) / float64(m), D: max(p.D, 1)}
	mean := s.sizes.Mean() / s.mu
	d, err := lim.Delay(mean, s.sizes.SecondMoment()/(s.mu*s.mu))
	if s.disc == PS {
		d, err = lim.DelayPS(mean)
	}
	return reference(d, err, fmt.Sprintf("mean field K, M -> inf at r = K/M = %.4g, I-queues with withdrawals (Van Houdt 2024): M/G/1 at load rho q0", lim.R), LimitValue)
}

func (p JIQ) newDispatcher(s *sim) dispatcher {
	if p.iqueued(s.cfg) {
		q := sharedState(s, func(s *sim) *iqueues { return newIQueues(s, p.D, p.Withdraw) })
		return iqueueFront{q: q, i: int32(s.front), r: s.rDispatch}
	}
	return jiqDispatcher{newLeastWork(s)}
}

// jiqDispatcher is LWL's index; it differs from LWL only when no server is idle.
type jiqDispatcher struct{ *leastWork }

func (d jiqDispatcher) pick(t, _ float64) int {
	if d.drain(t) > 0 {
		return d.randomIdle()
	}
	return d.s.rDispatch.IntN(d.s.k)
}
