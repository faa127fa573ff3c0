package lbsim

import "github.com/perfeval/lbsim/lbsim/theory"

// JIQ is join-the-idle-queue (Lu, Xie, Kliot, Geller, Larus and Greenberg,
// Performance Evaluation 2011) with one dispatcher: a job goes to an idle
// server (no work) drawn uniformly among the idle ones if there is one, else
// to a server drawn uniformly at random. On a stale board "idle" is idle at
// the last refresh (and, with tally, sent nothing since).
type JIQ struct{}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "jiq", Example: "jiq",
		Summary: "join the idle queue: an idle server uniformly if there is one, else any server uniformly",
		New:     func(Params) (Policy, error) { return JIQ{}, nil }})
}

func (JIQ) String() string { return "jiq" }
func (JIQ) Label() string  { return "JIQ" }
func (JIQ) Reads() State   { return Workload }

func (JIQ) symmetric() {}

// reportsIdle: live, JIQ learns of idle servers from their reports, one
// message each, not by probing (Result.MessagesPerJob).
func (JIQ) reportsIdle() {}

// Theory: with exponential sizes at small K (up to
// theory.DispatchMaxServers, any speeds, FCFS or PS), the exact Markov
// chain (theory.DispatchExact); otherwise, with equal speeds, the limit
// K -> infinity, where every job finds an idle server and does not wait.
func (JIQ) Theory(c Config) (Reference, bool) {
	s := systemOf(c)
	if ref, ok := smallChain(s, theory.DispatchRule{JIQ: true}); s.exp && ok {
		return ref, true
	}
	if !s.equal {
		return Reference{}, false
	}
	return Reference{Wait: 0, Response: s.sizes.Mean() / s.mu, Method: "JIQ limit: every job finds an idle server", Kind: LimitValue}, true
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

func (JIQ) newDispatcher(s *sim) dispatcher { return jiqDispatcher{newLeastWork(s)} }

// jiqDispatcher keeps LWL's index of idle servers and busy servers by free
// time; it only differs from LWL when no server is idle.
type jiqDispatcher struct{ *leastWork }

func (d jiqDispatcher) pick(t, _ float64) int {
	if d.drain(t) > 0 {
		return d.randomIdle()
	}
	return d.s.rDispatch.IntN(d.s.k)
}
