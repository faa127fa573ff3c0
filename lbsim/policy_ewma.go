package lbsim

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"
)

// EWMA is peak-EWMA power of d choices, the latency-aware balancer of
// Finagle (Balancers.p2cPeakEwma, decay 10 s, chosen by loadMetric=ewma;
// the default is P2C on outstanding requests) and Linkerd2-proxy (tower's
// p2c::Balance over load::PeakEwma, DEFAULT_EWMA: decay 10 s, default_rtt
// 30 ms). Each dispatcher keeps, per server, its own jobs sent there and not
// yet completed (pending) and a [peakEWMA] of their response times (cost),
// learnt at their departures: it asks no server. A job draws D distinct
// servers uniformly (Finagle's P2CPick.pick: a = nextInt(K), b =
// nextInt(K-1), b++ if b >= a; tower's sample_floyd2 draws the same law),
// decays their costs to now (Metric.get, RttEstimate::decay: observe 0) and
// takes the least load, the first drawn on a tie (nodeA.load <= nodeB.load):
//
//	Start = 0 (Finagle's Metric.get):  cost (pending + 1), or ewmaPenalty + pending if cost = 0 < pending
//	Start > 0 (tower's PeakEwma::load): cost (pending + 1), cost starting at Start (default_rtt)
//
// Decay is the time constant tau in time units (Linkerd's 10 s is hundreds
// of response times). As tau -> 0 every cost is 0 at the next pick: JSQ-d
// on own counts, same draws and ties (jsq:d=2 -view own). A tau below the
// long jobs' service times lets a server stuck on one look cheap (its cost
// decays, no response comes) and draw jobs. With a delay D (Config.Delay)
// a response reaches the dispatcher D after its departure: rtt response + D.
// Under FCFS a job's departure is known when it is sent; under PS and SRPT
// the server tells the dispatcher when it finds it (completionWatcher).
type EWMA struct {
	D     int     // servers drawn per job (Finagle, tower: 2), 1 <= D <= K
	Decay float64 // tau, the time constant of the cost's decay, > 0
	Start float64 // the cost before any response: 0 Finagle's, > 0 tower's default_rtt
}

// ewmaPenalty is Finagle's Penalty, Long.MaxValue >> 16 (2^47 - 1, in
// nanoseconds 1.6 days): the load of a server with pending jobs and no cost yet.
const ewmaPenalty = float64(math.MaxInt64 >> 16)

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "ewma", Params: []string{"d", "decay", "start"}, Need: []string{"decay"}, Example: "ewma:decay=10",
		Summary: "peak-EWMA power of d choices (Finagle, Linkerd): least (pending own jobs + 1) x peak-EWMA of own response times, time constant decay, among d sampled servers (default 2); start=S: tower's starting estimate",
		New: func(p Params) (Policy, error) {
			d, err := p.Int("d", 2)
			e := EWMA{D: d, Decay: p["decay"], Start: p["start"]}
			if err != nil || d == 0 {
				return nil, fmt.Errorf("ewma: d=%v is invalid: need a whole number >= 1 (servers drawn per job); e.g. ewma:d=2,decay=10", p["d"])
			}
			return e, e.check()
		}})
}

func (p EWMA) check() error {
	switch {
	case !(p.Decay > 0):
		return fmt.Errorf("ewma: decay=%v is invalid: need a time constant > 0, in the simulation's time units (Finagle's and Linkerd's 10 s is a few hundred mean response times); e.g. ewma:decay=100", p.Decay)
	case !(p.Start >= 0):
		return fmt.Errorf("ewma: start=%v is invalid: need 0 (Finagle: no estimate before the first response) or a starting estimate > 0 (tower's default_rtt)", p.Start)
	}
	return nil
}

// String is the spec, without d=2 and start=0, the defaults.
func (p EWMA) String() string {
	s := fmt.Sprintf("ewma:d=%d,decay=%v", p.D, p.Decay)
	if p.D == 2 {
		s = fmt.Sprintf("ewma:decay=%v", p.Decay)
	}
	if p.Start != 0 {
		s += fmt.Sprintf(",start=%v", p.Start)
	}
	return s
}

// describe: the dispatcher's own counts (so -view own applies), no probe,
// a history (the costs); it treats the servers alike and, below K, sends a
// job to one of D sampled uniformly (the d-sampling bound). Its queues hold
// one entry a job (jobIndexes); the costs are its state per server.
func (p EWMA) describe(c *Config) Description {
	d := Description{Label: "EWMA-" + strconv.Itoa(p.D), Reads: Count, D: p.D, builtinFacts: builtinFacts{
		history: true, symmetric: true, jobIndexes: 1, stateBytes: int64(unsafe.Sizeof(ewmaServer{})) * int64(c.Servers)}}
	if p.D < c.Servers {
		d.sampled = p.D
	}
	return d
}

func (p EWMA) validate(c *Config) error {
	switch {
	case c.Refresh > 0:
		return fmt.Errorf("refresh T=%v is invalid for %s, which learns from its own jobs' responses and reads no board: use -refresh 0", c.Refresh, p)
	case p.D < 1 || p.D > c.Servers:
		return fmt.Errorf("ewma d=%d is invalid: need 1 <= d <= K = %d (servers drawn per job are distinct, as Finagle draws them); lower d or add servers", p.D, c.Servers)
	}
	return p.check()
}

func (p EWMA) start(*View) Policy { return p }

func (p EWMA) theory(Config) (Reference, bool) { return Reference{}, false }

// Pick cannot run through a View: the costs live in the run.
func (p EWMA) Pick(*View, float64) int {
	panic(policyError{fmt.Errorf("policy %s keeps each dispatcher's costs in the run, which a View does not hold: give lbsim.EWMA itself as Config.Policy, not wrapped in a policy of your own", p)})
}

func (p EWMA) newDispatcher(s *sim) dispatcher {
	if !s.cfg.samplesIn(s.rep) {
		s.srv.deps = nil // it counts its own jobs: nothing would drain the servers' queues
	}
	d := &ewmaDispatcher{s: s, front: s.front, r: s.rDispatch, d: p.D, penalty: p.Start == 0, delay: s.cfg.Delay, srv: make([]ewmaServer, s.k)}
	for k := range d.srv {
		d.srv[k].cost = peakEWMA{tau: p.Decay, cost: p.Start}
	}
	return d
}

// peakEWMA is an exponentially weighted moving average of response times
// on an unevenly spaced series that jumps to a larger one at once (Finagle's
// PeakEwma.Metric.observe with util.Ema, tower's RttEstimate::update). An
// observation x at time at (not before stamp; an earlier one is taken at
// stamp, as Finagle enforces monotonicity) sets, with w = exp(-(at - stamp)/tau),
//
//	cost = x                        if x > cost (a peak)
//	cost = w cost + (1 - w) x       otherwise
//
// and stamp = at. Observing 0 decays the cost to at: cost exp(-(at - stamp)/tau).
type peakEWMA struct{ tau, cost, stamp float64 }

func (e *peakEWMA) observe(x, at float64) float64 {
	at = max(at, e.stamp)
	if x > e.cost {
		e.cost = x
	} else {
		w := math.Exp(-(at - e.stamp) / e.tau)
		e.cost = e.cost*w + x*(1-w)
	}
	e.stamp = at
	return e.cost
}

// ewmaServer is one dispatcher's knowledge of one server: its pending jobs,
// their cost, and their completions to come, in departure order.
type ewmaServer struct {
	cost    peakEWMA
	pending int32
	head    int32        // due[head:] are still to come
	due     []completion // the departures of its pending jobs not yet seen (FCFS: all, known when sent)
}

// completion is a job's departure time and response time.
type completion struct{ at, response float64 }

// ewmaDispatcher is one dispatcher's peak-EWMA P2C.
type ewmaDispatcher struct {
	s       *sim
	front   int // the dispatcher it is: it learns of its own jobs only
	r       *Stream
	d       int
	penalty bool // Finagle's rule for a server with pending jobs and no cost
	delay   float64
	sample  serverSample
	srv     []ewmaServer
}

func (d *ewmaDispatcher) pick(t, _ float64) int {
	if d.s.k == 1 {
		return 0 // Finagle: one node, no draw
	}
	out := d.sample.distinct(d.r, d.s.k, d.sample.buffer(d.d))
	best, least := out[0], d.load(out[0], t)
	for _, k := range out[1:] {
		if l := d.load(k, t); l < least { // a tie keeps the first drawn
			best, least = k, l
		}
	}
	return best
}

// load is server k's load at t: its completions due by t delivered, its
// cost decayed to t (an observation of 0), times its pending jobs + 1.
func (d *ewmaDispatcher) load(k int, t float64) float64 {
	if d.s.srv.preemptive() {
		d.s.srv.count(k, t, d.s.m) // its departures by t found (departed)
	}
	d.deliver(k, t)
	sv := &d.srv[k]
	cost := sv.cost.observe(0, t)
	if cost == 0 && sv.pending > 0 && d.penalty {
		return ewmaPenalty + float64(sv.pending)
	}
	return cost * float64(sv.pending+1)
}

// deliver completes server k's jobs seen to depart by t (D after), in order.
func (d *ewmaDispatcher) deliver(k int, t float64) {
	sv := &d.srv[k]
	for sv.head < int32(len(sv.due)) && sv.due[sv.head].at <= t-d.delay {
		c := sv.due[sv.head]
		sv.head++
		d.completed(k, c.at+d.delay, c.response+d.delay)
	}
}

// completed is what the dispatcher learns when one of its jobs leaves
// server k at time at, after response: one job fewer pending there, and
// the response observed then. Every completion comes through here.
func (d *ewmaDispatcher) completed(k int, at, response float64) {
	sv := &d.srv[k]
	sv.pending--
	sv.cost.observe(response, at)
}

// sent: one of its own jobs to server k at t, pending until it leaves, at
// the server's new free time (FCFS), after a response of that minus t.
func (d *ewmaDispatcher) sent(k int, t, _ float64) {
	if d.s.front != d.front {
		return // another dispatcher's job (live indexes are told of every send)
	}
	d.deliver(k, t)
	d.srv[k].pending++
	if !d.s.srv.preemptive() {
		dep := d.s.srv.free[k]
		d.departed(k, dep, dep-t)
	}
}

// departed queues the departure of one of its jobs from server k at time
// at, after response, to be seen D later: under FCFS known when sent, under
// PS and SRPT told by the server when it finds it (completionWatcher).
func (d *ewmaDispatcher) departed(k int, at, response float64) {
	sv := &d.srv[k]
	if int(sv.head) == len(sv.due) {
		sv.due, sv.head = sv.due[:0], 0
	}
	if len(sv.due) == cap(sv.due) {
		if sv.head > 0 && int(sv.head) >= len(sv.due)/2 { // reuse the buffer's delivered half
			sv.due, sv.head = sv.due[:copy(sv.due, sv.due[sv.head:])], 0
		} else {
			sv.due = growHeld(&d.s.srv.held, sv.due)
		}
	}
	sv.due = append(sv.due, completion{at, response})
}

// held is the number of jobs in its queues of completions.
func (d *ewmaDispatcher) held() (int, string) {
	n := 0
	for i := range d.srv {
		n += len(d.srv[i].due) - int(d.srv[i].head)
	}
	return n, "EWMA's queues of its jobs' completions"
}
