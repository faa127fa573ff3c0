package lbsim

import (
	"fmt"
	"strings"
)

// The own view (Config.View = OwnView) is what a proxy that counts its own
// connections knows: each dispatcher sees, for each server, exactly the
// jobs it sent there that are still there (the responses pass through it),
// and nothing of the other dispatchers' jobs; no message is sent. A policy
// that reads job counts (JSQ, JSQ-d, SED, SED-d) reads those counts; with
// one dispatcher they are the servers' true counts, and the run is the
// live one to the bit.
//
// Under FCFS a job's departure is known when it is sent (the server's new
// free time), so a dispatcher keeps its jobs' departures in a monotone
// radix heap and takes each from its count at the first arrival after it:
// the job remembers its dispatcher by being in that dispatcher's heap, at
// no cost per job beyond the heap's entry. JSQ and SED over all K servers
// already count the jobs they are told of (leastCount): under the own view
// each is told only of its own.

// ViewKind is what the dispatchers see of the servers' job counts.
type ViewKind uint8

const (
	// LiveView is the servers' true state (or the board, with Refresh > 0).
	LiveView ViewKind = iota
	// OwnView is each dispatcher's own jobs still at each server.
	OwnView
)

func (v ViewKind) String() string {
	if v == OwnView {
		return "own"
	}
	return "live"
}

// parseView reads "live" or "own".
func parseView(s string) (ViewKind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "live", "":
		return LiveView, nil
	case "own":
		return OwnView, nil
	}
	return 0, fmt.Errorf("view %q is unknown: use live (the servers' state, or a board with -refresh) or own (each dispatcher counts its own jobs at each server)", s)
}

// ownViewPolicies names the policies the own view serves, for errors.
const ownViewPolicies = "jsq, jsq:d=D, sed, sed:d=D, or a policy of your own whose Reads() is Count"

// checkView: the own view is exact knowledge of counts, without a board,
// for policies that read job counts only, under FCFS.
func (c *Config) checkView() error {
	switch {
	case c.View != LiveView && c.View != OwnView:
		return fmt.Errorf("view %d is invalid: use LiveView (-view live) or OwnView (-view own)", c.View)
	case c.View == LiveView:
		return nil
	case c.Refresh > 0:
		return fmt.Errorf("view own with refresh T=%v: a dispatcher that counts its own jobs knows them at every instant and reads no board; use -refresh 0 with -view own, or -view live for a board every T", c.Refresh)
	case c.Discipline == PS:
		return fmt.Errorf("view own is not modelled under processor sharing (discipline ps): it needs FCFS servers, whose departures are known at dispatch; use -discipline fcfs, or -view live")
	case c.Policy == nil:
		return nil // checkPolicy reports it
	case Reads(c.Policy) == 0:
		return fmt.Errorf("view own has no effect on policy %s, which reads no server state: the own view is read by policies that read job counts only (%s); choose one of those, or -view live", c.Policy, ownViewPolicies)
	case Reads(c.Policy) != Count:
		return fmt.Errorf("view own gives job counts, but policy %s reads the servers' workload: the own view is read by policies that read job counts only (%s); choose one of those, or -view live", c.Policy, ownViewPolicies)
	}
	return nil
}

// ownViewBytes is the memory of one dispatcher's own counts of the K
// servers (ownDispatcher's), for the memory estimate (dispatcherState).
func (c *Config) ownViewBytes() int64 {
	if c.View != OwnView {
		return 0
	}
	return allocBytes(4 * int64(c.Servers))
}

// ownDispatcher is a dispatcher under the own view: its counts of its own
// jobs at each server, which its policy reads through View.Count (s.own),
// and those jobs' departures.
type ownDispatcher struct {
	dispatcher
	srv   *servers
	count []int32
	deps  radixHeap
}

// newOwnView is d under the own view: itself if it already counts the jobs
// it is told of (leastCount, told of its own only: dispatcherSet.sent),
// else d with counts of its own, and those counts (nil for none).
func newOwnView(s *sim, d dispatcher) (dispatcher, []int32) {
	if _, ok := d.(*leastCount); ok {
		return d, nil
	}
	o := &ownDispatcher{dispatcher: d, srv: s.srv, count: make([]int32, s.k)}
	o.deps.held = &s.srv.held
	return o, o.count
}

// pick takes the departures due by t from the counts, then lets the
// policy pick.
func (d *ownDispatcher) pick(t, x float64) int {
	for {
		k, _, ok := d.deps.popUntil(t)
		if !ok {
			break
		}
		d.count[k]--
	}
	return d.dispatcher.pick(t, x)
}

// sent counts the job just joined to server k; under FCFS it departs when
// the server's work, its own included, is done.
func (d *ownDispatcher) sent(k int, t, x float64) {
	d.count[k]++
	d.deps.push(k, d.srv.free[k])
	if o, ok := d.dispatcher.(observer); ok {
		o.sent(k, t, x)
	}
}

// held is the number of this dispatcher's jobs in the system.
func (d *ownDispatcher) held() (int, string) { return d.deps.n, "the own view's departures" }
