package lbsim

import (
	"fmt"
	"math"
	"strconv"
)

// LSQ is local shortest queue (Vargaftik, Keslassy and Orda, "LSQ: load
// balancing in large-scale heterogeneous systems with multiple
// dispatchers", IEEE/ACM Transactions on Networking 28(3), 2020), with the
// sparse feedback of van der Boor, Borst and van Leeuwaarden ("Hyper-
// scalable JSQ with sparse feedback", POMACS 3(1), 2019). Each dispatcher
// keeps its own estimate of every server's number of jobs, 0 at the start,
// sends a job to the server it estimates shortest (ties uniformly at
// random) and adds 1 to that estimate. When a job completes, its server
// reports its true count, with probability P, to one dispatcher drawn
// uniformly, which takes it as its estimate: one message. With D >= 1 each
// arrival also probes D distinct servers drawn uniformly (Vargaftik et
// al.) and sets their estimates to the answers: 2D messages a job.
//
// P = 1 ("lsq") reports every departure: with one dispatcher LSQ is JSQ.
// P = 0 ("lsq:p=0") reports none: each dispatcher deals its jobs in rounds
// of K, one to every server in random order. "lsq:d=D" only samples (P = 0
// when d is given; "lsq:d=D,p=P" both); D = K makes LSQ JSQ at any M. LSQ
// keeps its own knowledge of live state and reads no board (Config.Refresh
// must be 0; for a board use JSQ with a tally).
type LSQ struct {
	D int     // servers probed per arrival, 0 (none) or 1 <= D <= K
	P float64 // probability that a departure is reported, 0 <= P <= 1
}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "lsq", Params: []string{"d", "p"}, Example: "lsq:p=0.1",
		Summary: "local shortest queue: each dispatcher sends to the fewest jobs by its own estimates, its sends, the servers' reports (a departure reports to one dispatcher with probability p; no p: every departure) and its probes (d=D: D sampled servers a job, their true counts; then no p: none)",
		New: func(p Params) (Policy, error) {
			d, _, err := sampleParams("lsq", p)
			if err != nil {
				return nil, err
			}
			l := LSQ{D: d, P: 1}
			if d > 0 {
				l.P = 0 // sampling keeps the estimates near the truth: reports are extra
			}
			if x, ok := p["p"]; ok {
				l.P = x
			}
			return l, l.check()
		}})
}

// String is the spec, without p where it is the default (1 without d, 0 with d).
func (p LSQ) String() string {
	prob := strconv.FormatFloat(p.P, 'g', -1, 64)
	switch {
	case p.D == 0 && p.P == 1:
		return "lsq"
	case p.D == 0:
		return "lsq:p=" + prob
	case p.P == 0:
		return "lsq:d=" + strconv.Itoa(p.D)
	}
	return "lsq:d=" + strconv.Itoa(p.D) + ",p=" + prob
}

// describe: job counts, from no board, with D probes a job (the reports are
// counted as they are sent). The estimates are history unless every server
// is probed; the departures are indexed once, a job each. Without messages
// the rounds of K give every server 1/K of the jobs; otherwise the split is
// not known. Label: "LSQ p=0.1", "LSQ d=1", "LSQ d=2 p=0.1".
func (p LSQ) describe(c *Config) Description {
	prob := "p=" + strconv.FormatFloat(p.P, 'g', -1, 64)
	d := Description{Label: "LSQ " + prob, Reads: Count, D: p.D, Probes: p.D, builtinFacts: builtinFacts{symmetric: true,
		history: !p.fresh(c.Servers), stateBytes: indexBytes * int64(c.Servers)}}
	switch {
	case p.D == 0:
	case p.P == 0:
		d.Label = "LSQ d=" + strconv.Itoa(p.D)
	default:
		d.Label = "LSQ d=" + strconv.Itoa(p.D) + " " + prob
	}
	if c.Refresh == 0 {
		d.jobIndexes = 1
	}
	if p.silent() {
		d.split = func() []classSplit { return allJobs(c, nil) }
	}
	return d
}

// validate: d against K, p, and live state (no board, no own view, no delay).
func (p LSQ) validate(c *Config) error {
	switch k := c.Servers; {
	case c.Refresh > 0:
		return fmt.Errorf("refresh T=%v is invalid for %s, which keeps each dispatcher's own estimates of live state (its sends and the servers' reports) and reads no board: use -refresh 0; for updates every T use jsq with -refresh T -tally", c.Refresh, p)
	case c.View == OwnView:
		return fmt.Errorf("view own is invalid for %s, which keeps its own estimates (its sends and the servers' reports): use -view live with lsq, or for exact counts of each dispatcher's own jobs -view own with %s", p, ownViewPolicies)
	case c.Delay > 0:
		return fmt.Errorf("delay D=%v is invalid for %s, which learns of departures by the servers' reports (p): use -delay 0 with lsq, or for counts seen D late jsq with -delay", c.Delay, p)
	case p.D < 0 || p.D > k:
		return fmt.Errorf("lsq d=%d is invalid: need 1 <= d <= K = %d (distinct servers probed per job), or 0 for none; lower d or add servers", p.D, k)
	}
	return p.check()
}

func (p LSQ) start(*View) Policy { return p }

func (p LSQ) check() error {
	if !(p.P >= 0 && p.P <= 1) { // NaN too
		return fmt.Errorf("lsq: p=%v is invalid: need 0 <= p <= 1 (the probability that a departure is reported to a dispatcher); e.g. lsq:p=0.1", p.P)
	}
	return nil
}

// fresh reports whether every estimate is the truth at every pick (D = K).
func (p LSQ) fresh(k int) bool { return p.D == k }

// silent reports whether no message ever sets an estimate (no reports, no probes).
func (p LSQ) silent() bool { return p.P == 0 && p.D == 0 }

// theory: JSQ's where the estimates are the true counts at every pick: D = K
// (any M and P), or one dispatcher hearing every departure (P = 1).
func (p LSQ) theory(c Config) (Reference, bool) {
	if !p.fresh(c.Servers) && (p.P != 1 || c.dispatchers() != 1) {
		return Reference{}, false
	}
	return JSQ{}.theory(c)
}

// Pick cannot run through a View: the estimates live in the run.
func (p LSQ) Pick(*View, float64) int {
	panic(policyError{fmt.Errorf("policy %s keeps each dispatcher's estimates in the run, which a View does not hold: give lbsim.LSQ itself as Config.Policy, not wrapped in a policy of your own", p)})
}

func (p LSQ) newDispatcher(s *sim) dispatcher {
	sh := sharedState(s, func(s *sim) *lsqShared { return newLSQShared(s, p.P) })
	return &lsqDispatcher{sh: sh, est: sh.est[s.front], r: s.rDispatch, d: p.D}
}

// lsqDispatcher is one dispatcher's LSQ: its estimates, stream and probes.
type lsqDispatcher struct {
	sh      *lsqShared
	est     *lsqEstimates
	r       *Stream
	d       int          // servers probed a job
	probes  serverSample // their draw
	next    []int        // the next job's probes, drawn at the end of the last pick (drawAhead)
	touched uint64       // sum of the values drawAhead loads, unused
}

// pick delivers the servers' messages due by t (to any dispatcher), probes
// its d servers, then sends to the shortest by the estimates.
func (d *lsqDispatcher) pick(t, _ float64) int {
	d.sh.deliver(t)
	d.probe()
	k := d.est.pickInc(d.r)
	if least := d.est.least(); least >= lsqRebase {
		d.est.shift(int64(least))
	}
	d.drawAhead()
	return k
}

// probe sets the estimates of d servers drawn uniformly to their true
// counts (all K, in order, without draws, for d = K).
func (d *lsqDispatcher) probe() {
	k := len(d.sh.n)
	if d.d == k {
		for i, n := range d.sh.n {
			d.est.set(i, n)
		}
		return
	}
	if d.d > 0 {
		if d.next == nil {
			d.next = d.probes.distinct(d.r, k, d.probes.buffer(d.d))
		}
		for _, i := range d.next {
			d.est.set(i, d.sh.n[i])
		}
	}
}

// drawAhead draws the servers the next job will probe (the same draws: the
// stream is the dispatcher's own) and loads their estimates and counts: at
// large K these are cache misses, which then overlap the rest of this job
// instead of holding up the next one.
func (d *lsqDispatcher) drawAhead() {
	k := len(d.sh.n)
	if d.d == 0 || d.d == k {
		return
	}
	d.next = d.probes.distinct(d.r, k, d.probes.buffer(d.d))
	var sum uint64
	for _, i := range d.next {
		sum += d.est.touch(i) + uint64(d.sh.n[i])
	}
	d.touched += sum
}

// lsqEstimates is one dispatcher's estimates: cnt + base. With rare
// messages (p = 0 or tiny) they grow with the run, and so would the
// buckets, one a round of K. Only their differences choose, so when the
// smallest reaches lsqRebase all are lowered by it into base (O(K) every
// lsqRebase rounds); a true count below base lifts them back to base 0
// first. The buckets are held by value: with many dispatchers the
// estimates are often out of cache, and a pointer would be one more miss.
type lsqEstimates struct {
	countBuckets
	base    int64
	scratch []int32
}

const lsqRebase = 1 << 10

// set makes server k's estimate n.
func (e *lsqEstimates) set(k int, n int32) {
	if int64(n) < e.base {
		e.shift(-e.base)
	}
	e.countBuckets.set(k, int32(int64(n)-e.base))
}

// shift lowers every bucket count by by and raises base by it.
func (e *lsqEstimates) shift(by int64) {
	e.scratch = e.counts(e.scratch[:0])
	for i := range e.scratch {
		e.scratch[i] -= int32(by)
	}
	e.reset(e.scratch)
	e.base += by
}

// held is the number of jobs in the shared index of departures.
func (d *lsqDispatcher) held() (int, string) {
	if d.sh.fcfs == nil {
		return 0, ""
	}
	return d.sh.fcfs.n, "LSQ's index of departures"
}

// lsqShared is what LSQ's dispatchers share in one replication: the
// servers' true counts, their departures to come (each a message with
// probability p) and every dispatcher's estimates. No job is sent between
// two arrivals, so the messages due by an arrival, delivered at it in time
// order before its pick, report the counts at their departures.
type lsqShared struct {
	s   *sim
	p   float64
	r   *Stream         // whether a departure reports, and to which dispatcher
	est []*lsqEstimates // dispatcher i's estimates
	n   []int32         // jobs at each server
	// FCFS: every job's departure, known when it is sent; PS, SRPT: each
	// busy server's next departure, moved by arrivals there.
	fcfs *radixHeap
	ps   *indexHeap
}

func newLSQShared(s *sim, p float64) *lsqShared {
	m := s.cfg.dispatchers()
	sh := &lsqShared{s: s, p: p, r: newStream(s.cfg.Seed, s.rep, streamShared), est: make([]*lsqEstimates, m), n: make([]int32, s.k)}
	for i := range sh.est {
		sh.est[i] = &lsqEstimates{countBuckets: *newCountBuckets(s.k)}
	}
	if s.srv.preemptive() {
		sh.ps = newIndexHeap(s.k)
		return sh
	}
	sh.fcfs = &radixHeap{held: &s.srv.held}
	if s.k > farServers {
		// Wide buckets but no soon (radixHeap.soon): a departure only lowers
		// a count, and loading the counts ahead cost more than it saved.
		sh.fcfs.far(nil)
	}
	if !s.cfg.samplesIn(s.rep) {
		s.srv.deps = nil // the counts are kept here: nothing would drain the servers' queues
	}
	return sh
}

func (sh *lsqShared) sent(k int, t, _ float64) {
	sh.n[k]++
	if sh.fcfs != nil {
		sh.fcfs.push(k, sh.s.srv.free[k]) // the job's departure: FCFS, the server's new free time
		return
	}
	sh.schedule(k)
}

// schedule keys server k by its next departure (PS, SRPT).
func (sh *lsqShared) schedule(k int) {
	if next := sh.s.srv.nextDeparture(k); !math.IsInf(next, 1) {
		sh.ps.set(k, next)
	} else if sh.ps.has(k) {
		sh.ps.remove(k)
	}
}

// deliver completes the departures due by t in time order, each reporting with probability p.
func (sh *lsqShared) deliver(t float64) {
	if sh.fcfs != nil {
		for {
			k, _, ok := sh.fcfs.popUntil(t)
			if !ok {
				return
			}
			sh.n[k]--
			sh.report(k)
		}
	}
	for sh.ps.len() > 0 {
		k, tau := sh.ps.min()
		if tau > t {
			return
		}
		left := sh.s.srv.count(k, tau, sh.s.m) // the jobs finishing at tau (ties: all of them)
		gone := sh.n[k] - left
		sh.n[k] = left
		sh.schedule(k)
		for range gone {
			sh.report(k)
		}
	}
}

// report sends, with probability p, server k's count to one dispatcher
// drawn uniformly (no draw for p = 0 or 1, nor for one dispatcher).
func (sh *lsqShared) report(k int) {
	if sh.p < 1 && (sh.p == 0 || sh.r.Float64() >= sh.p) {
		return
	}
	i := 0
	if len(sh.est) > 1 {
		i = sh.r.IntN(len(sh.est))
	}
	sh.est[i].set(k, sh.n[k])
	sh.s.reports++
}
