package lbsim

import (
	"fmt"
	"strings"
	"unsafe"
)

// The own view (Config.View = OwnView) is what a proxy that counts its own
// connections knows: each dispatcher sees, for each server, exactly the
// jobs it sent there that are still there (the responses pass through it),
// and nothing of the others'; no message is sent. With one dispatcher these
// are the true counts, and the run is the live one to the bit.
//
// The counts have one home, ownView.count, read by View.Count: under FCFS
// a FIFO of the dispatcher's departures per server (known when sent, and
// leaving in send order); under PS and SRPT the servers count each
// dispatcher's jobs (jobRecord.owner, servers.owned). JSQ and SED over all
// K count the jobs they are told of (leastCount): under the own view, their own.

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
	case "live":
		return LiveView, nil
	case "own":
		return OwnView, nil
	}
	return 0, fmt.Errorf("view %q is unknown: use live (the servers' state, or a board with -refresh) or own (each dispatcher counts its own jobs at each server)", s)
}

// ownViewPolicies names the policies the own view serves, for errors.
const ownViewPolicies = "jsq, jsq:d=D, sed, sed:d=D, or a policy of your own whose Description's Reads is Count"

// checkView: the own view is exact counts, without a board, for count-only policies.
func (c *Config) checkView() error {
	switch {
	case c.View != LiveView && c.View != OwnView:
		return fmt.Errorf("view %d is invalid: use LiveView (-view live) or OwnView (-view own)", c.View)
	case c.View == LiveView:
		return nil
	case c.Refresh > 0:
		return fmt.Errorf("view own with refresh T=%v: a dispatcher that counts its own jobs knows them at every instant and reads no board; use -refresh 0 with -view own, or -view live for a board every T", c.Refresh)
	case c.Policy == nil:
		return nil // checkPolicy reports it
	case describe(c.Policy, c).Reads == NoState:
		return fmt.Errorf("view own has no effect on policy %s, which reads no server state: the own view is read by policies that read job counts only (%s); choose one of those, or -view live", c.Policy, ownViewPolicies)
	case describe(c.Policy, c).Reads != Count:
		return fmt.Errorf("view own gives job counts, but policy %s reads the servers' workload: the own view is read by policies that read job counts only (%s); choose one of those, or -view live", c.Policy, ownViewPolicies)
	}
	return nil
}

// ownViewBytes is the memory of one dispatcher's own counts of the K servers
// (dispatcherState): its departure FIFOs under FCFS, its share of
// servers.owned under PS and SRPT.
func (c *Config) ownViewBytes() int64 {
	switch {
	case c.View != OwnView:
		return 0
	case c.Discipline.Preemptive():
		return allocBytes(int64(unsafe.Sizeof(int32(0))) * int64(c.Servers))
	}
	return allocBytes(int64(unsafe.Sizeof(fifo{})) * int64(c.Servers))
}

// ownView is one dispatcher's own counts: the departures of its jobs at
// each server (FCFS), or its index into the servers' counts (PS, SRPT).
type ownView struct {
	deps []fifo   // FCFS: the departures of its jobs at each server
	held *backlog // FCFS: charged for the FIFOs' long buffers
	srv  *servers // PS, SRPT: the servers, which count each dispatcher's jobs
	i    int32    // PS, SRPT: this dispatcher
}

// count is the number of the dispatcher's jobs at server k at t (t must
// not decrease between calls for the same server); under PS and SRPT it
// brings server k up to t first, recording its departures in m.
func (o *ownView) count(k int, t float64, m *metrics) int {
	if o.srv != nil {
		o.srv.count(k, t, m)
		return int(o.srv.owned(k)[o.i])
	}
	return o.deps[k].popUntil(t, o.held)
}

// ownDispatcher is a dispatcher under the own view and FCFS, with the
// departures of its own jobs at each server (read by View.Count).
type ownDispatcher struct {
	dispatcher
	srv *servers
	own *ownView
}

// newOwnView is d, the dispatcher at hand, under the own view, and its
// counts: d itself under PS and SRPT (the servers count) or if it counts the
// jobs it is told of (leastCount); else d with departure FIFOs of its own.
func newOwnView(s *sim, d dispatcher) (dispatcher, *ownView) {
	if s.srv.preemptive() {
		return d, &ownView{srv: s.srv, i: int32(s.front)}
	}
	if _, ok := d.(*leastCount); ok {
		return d, nil // its own radix heap of departures; View.Count is not read
	}
	o := &ownView{deps: make([]fifo, s.k), held: &s.srv.held}
	return &ownDispatcher{dispatcher: d, srv: s.srv, own: o}, o
}

// sent queues the departure of the job just sent to server k, when the
// server's work is done, after dropping those due, so that a FIFO holds no
// more than the dispatcher's jobs at the server.
func (d *ownDispatcher) sent(k int, t, x float64) {
	q, held := &d.own.deps[k], d.own.held
	q.popUntil(t, held)
	q.push(d.srv.free[k], held)
	if o, ok := d.dispatcher.(observer); ok {
		o.sent(k, t, x)
	}
}

// held is the number of this dispatcher's jobs in its FIFOs.
func (d *ownDispatcher) held() (int, string) {
	n := 0
	for i := range d.own.deps {
		n += int(d.own.deps[i].size)
	}
	return n, "the own view's departure queues"
}
