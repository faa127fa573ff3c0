package lbsim

import (
	"fmt"
	"math"
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
// dispatcher's jobs (jobRecord.owner, departureWatch). JSQ and SED over all
// K count the jobs they are told of (leastCount): under the own view, their own.
//
// With a delay D (Config.Delay) a departure reaches the counts D after it
// happens, under the own view and under the live view alike (then one
// ownView, told of every send, serves all dispatchers): a proxy that sees
// a response late, a count decremented late. What else a dispatcher
// learns, and how, is in sim_learn.go.

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
const ownViewPolicies = "jsq, jsq:d=D, sed, sed:d=D, ewma, lr, wlc, or a policy of your own whose Description's Reads is Count"

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

// checkDelay: D >= 0 finite; a delay is of departures seen in job counts,
// live or own, not of a board (stale by its own period) or of a policy
// that keeps its own estimates (LSQ, with its reports).
func (c *Config) checkDelay() error {
	switch {
	case !(c.Delay >= 0) || math.IsInf(c.Delay, 1):
		return fmt.Errorf("delay D=%v is invalid: need a finite D >= 0, the time after a departure at which a dispatcher learns of it (0: at once); e.g. -delay 0.01", c.Delay)
	case c.Delay == 0 || c.Policy == nil:
		return nil
	case c.Refresh > 0:
		return fmt.Errorf("delay D=%v with refresh T=%v: a board is stale by its own period, read at the refresh instants; use -delay with -refresh 0 (live or own counts seen D late), or -refresh alone", c.Delay, c.Refresh)
	case describe(c.Policy, c).Reads != Count:
		return fmt.Errorf("delay D=%v has no effect on policy %s, which does not read job counts alone: a delay is when departures reach the dispatchers' counts (%s); choose one of those, or -delay 0", c.Delay, c.Policy, ownViewPolicies)
	}
	return nil
}

// ownViewBytes is the memory of one dispatcher's counts of the K servers
// (dispatcherState): its departure FIFOs under FCFS (own view, or any
// with a delay: the live view's are shared, but charged to each), under
// PS and SRPT its share of the servers' owned and late FIFOs.
func (c *Config) ownViewBytes() int64 {
	var b int64
	if c.Delay > 0 {
		b = int64(unsafe.Sizeof(fifo{})) * int64(c.Servers)
	}
	switch {
	case c.View != OwnView && c.Delay == 0:
		return 0
	case c.Discipline.Preemptive() && c.View == OwnView:
		b += int64(unsafe.Sizeof(int32(0))) * int64(c.Servers)
	case !c.Discipline.Preemptive():
		b = int64(unsafe.Sizeof(fifo{})) * int64(c.Servers)
	}
	return allocBytes(b)
}

// ownView is a dispatcher's counts of the jobs it is told of (sim.run
// tells it of each send): under the own view its own, under the live view
// with a delay every job (one ownView all dispatchers share); a departure
// is seen delay after it happens. Under FCFS a FIFO a server of the
// departures not yet seen (known when sent, and leaving in send order);
// under PS and SRPT the servers count (departureWatch), and keep with a
// delay the departures not yet seen.
type ownView struct {
	deps  []fifo   // FCFS: the departures of its jobs at each server, not yet seen
	held  *backlog // FCFS: charged for the FIFOs' long buffers
	srv   *servers // PS, SRPT: the servers, which count each dispatcher's jobs
	i     int32    // this dispatcher; -1: every job (the live view with a delay)
	delay float64  // D: a departure at t is seen at t + D
}

// count is the number of the dispatcher's jobs at server k at t that it
// has not seen leave (t must not decrease between calls for the same
// server); under PS and SRPT it brings server k up to t first, recording
// its departures in m. With D = 0, t - D is t: the counts of old, to the bit.
func (o *ownView) count(k int, t float64, m *metrics) int {
	n, _ := o.countSeen(k, t, m, false)
	return n
}

// countSeen is count, and with stamp the time it last saw a departure
// from server k (the departure + D; -Inf if none in this call): under PS
// and SRPT the servers keep them (departureWatch.late) for a delay or for
// a policy whose description says stamps.
func (o *ownView) countSeen(k int, t float64, m *metrics, stamp bool) (int, float64) {
	seen, last := t-o.delay, math.Inf(-1)
	if o.deps != nil {
		if stamp {
			last = o.deps[k].lastUntil(seen)
		}
		return o.deps[k].popUntil(seen, o.held), last + o.delay
	}
	n := int(o.srv.count(k, t, m))
	w := o.srv.queues[k].watch
	if o.i >= 0 {
		n = int(w.owned[o.i])
	}
	if w != nil && w.late != nil {
		q := &w.late[max(o.i, 0)]
		if stamp {
			last = q.lastUntil(seen)
		}
		n += q.popUntil(seen, w.held)
	}
	return n, last + o.delay
}

// sent queues, under FCFS, the departure of the job just sent to server k
// when the server's work is done, after dropping those seen, so that a
// FIFO holds no more than the jobs not seen to leave.
func (o *ownView) sent(k int, t float64) {
	if o.deps == nil {
		return // the servers count
	}
	q := &o.deps[k]
	q.popUntil(t-o.delay, o.held)
	q.push(o.srv.free[k], o.held)
}

// newOwnView is the counts the dispatcher at hand, d, reads under the own
// view, or the live view with a delay; nil under the live view at once,
// or if d counts the jobs it is told of itself (leastCount under FCFS: its
// radix heap of departures, read D late; EWMA: its jobs' completions).
func newOwnView(s *sim, d dispatcher) *ownView {
	switch d.(type) {
	case *ewmaDispatcher: // its own jobs' completions, D late
		return nil
	case *leastCount:
		if !s.srv.preemptive() {
			return nil
		}
	}
	if s.cfg.View == LiveView && s.cfg.Delay == 0 {
		return nil
	}
	o := &ownView{srv: s.srv, i: int32(s.front), delay: s.cfg.Delay}
	if s.cfg.View == LiveView {
		o.i = -1
	}
	if !s.srv.preemptive() {
		o.deps, o.held = make([]fifo, s.k), &s.srv.held
	}
	return o
}

// jobs is the number of jobs in its FIFOs.
func (o *ownView) jobs() int {
	n := 0
	for i := range o.deps {
		n += int(o.deps[i].size)
	}
	return n
}

// departuresLate reports whether departures reach the dispatchers late
// under PS or SRPT: an index of the servers' next departures (leastCount)
// would miss when they are seen, so JSQ and SED over all K read the View.
func (s *sim) departuresLate() bool { return s.cfg.Delay > 0 && s.srv.preemptive() }
