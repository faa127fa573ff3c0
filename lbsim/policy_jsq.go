package lbsim

import (
	"errors"
	"fmt"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// JSQ is join-the-shortest-queue: each job goes to the server with the fewest
// jobs among D servers sampled uniformly without replacement (JSQ-d, the
// power of d choices); ties are broken uniformly at random. D = 0 (or D = K)
// looks at all servers. Ties sets another tie rule (see Ties).
// Replace samples with replacement (see LeastLoaded). Mem > 0 also considers
// the Mem servers remembered from the previous job: JSQ(d,m), see policy_memory.go.
type JSQ struct {
	D       int
	Replace bool
	Mem     int
	Ties    Ties
}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "jsq", Params: []string{"d", "replace", "mem", "ties"}, Lists: []string{"ties"}, Example: "jsq:d=2",
		Summary: "join the shortest queue: fewest jobs among d sampled servers (no d: all K; replace=1: with replacement; mem=M: and the M remembered from the last job; ties=first|oldest|rr: tie rule)",
		New: func(p Params) (Policy, error) {
			d, replace, err := sampleParams("jsq", p)
			if err != nil {
				return nil, err
			}
			mem, err := memoryParam("jsq", p, d)
			ties, terr := tiesParam("jsq", p)
			return JSQ{D: d, Replace: replace, Mem: mem, Ties: ties}, errors.Join(err, terr)
		}})
}

func (p JSQ) String() string {
	if p.D == 0 {
		return p.Ties.spec("jsq")
	}
	return p.Ties.spec(withMemory(sampledSpec("jsq", p.D, p.Replace), p.Mem))
}

// describe: a power-of-d policy (sampledFacts) on job counts; over all K
// servers each dispatcher keeps an index of the departures it is told of
// (indexesTold: live, every job's; under the own view, its own).
func (p JSQ) describe(c *Config) Description {
	d := sampledFacts(p.D, p.Mem, p.Replace, c)
	d.Label, d.Reads = "JSQ", Count
	if p.D != 0 {
		d.Label = memoryLabel("JSQ", p.D, p.Replace, p.Mem)
	}
	if c.Refresh == 0 && p.Mem == 0 && allServers(p.D, c.Servers, p.Replace) {
		d.jobIndexes = c.indexesTold()
	}
	p.Ties.describe(&d, c.Servers)
	return d
}

func (p JSQ) validate(c *Config) error {
	return errors.Join(checkSampled("jsq", p.D, p.Mem, c.Servers, p.Replace), p.Ties.check(p, p.Mem, p.Replace, c))
}

// theory, for exponential sizes and distinct samples: at small K
// (theory.DispatchMaxServers, any speeds, FCFS or PS) the exact Markov chain
// of JSQ-d and JSQ; otherwise, at speed 1 under FCFS, Mitzenmacher's
// mean-field limit of JSQ-d, d >= 2 (sum_{i>=1} rho^((d^i-d)/(d-1))), and
// JSQ(d,1)'s memory fixed point (theory.JSQdMemoryMeanField). A tie rule
// leaves these at equal speeds (see Ties); at unequal ones first has its
// chain (theory.DispatchRule.First), oldest and rr none.
func (p JSQ) theory(c Config) (Reference, bool) {
	s := systemOf(c)
	if p.Ties > TiesFirst && !s.equal {
		return Reference{}, false
	}
	var chain Reference
	if !p.Replace && p.Mem == 0 {
		d := p.D
		if allServers(d, s.k, false) {
			d = 0
		}
		ref, ok := smallChain(s, theory.DispatchRule{D: d, First: p.Ties == TiesFirst && !s.equal})
		if ok {
			return ref, true
		}
		chain = ref
	}
	ref, ok := p.limit(c, s)
	ref.NoExact = chain.NoExact
	return ref, ok
}

// limit is JSQ's mean-field limit, where one is coded.
func (p JSQ) limit(c Config, s system) (Reference, bool) {
	switch {
	case !s.exp || s.disc != FCFS || !s.unit || p.Replace:
	case p.D >= 2 && p.Mem == 0:
		d, err := theory.JSQdMeanField(p.D, c.Load)
		return reference(scale(d, s.sizes.Mean()), err, fmt.Sprintf("JSQ-%d mean-field limit (Mitzenmacher)", p.D), LimitValue)
	case p.D >= 1 && p.Mem == 1:
		d, err := theory.JSQdMemoryMeanField(p.D, c.Load)
		return reference(scale(d, s.sizes.Mean()), err, fmt.Sprintf("JSQ(%d,1) mean-field fixed point (memory)", p.D), LimitValue)
	}
	return Reference{}, false
}

// Pick samples D servers and takes the one with the fewest jobs (all K for
// JSQ); the run uses it directly for JSQ-d and count buckets for JSQ.
func (p JSQ) Pick(v *View, _ float64) int {
	return pickSampled(p, v, p.D, p.Mem, p.Replace, Count, p.Ties)
}

func (p JSQ) newDispatcher(s *sim) dispatcher {
	if p.Ties != TiesRandom {
		return tiedDispatcher(p, s)
	}
	return sampledDispatcher(s, p.D, p.Mem, p.Replace, Count, func(s *sim) dispatcher { return newLeastCount(s, newCountBuckets(s.k)) })
}

// leastCount is JSQ over all K servers: their counts in an index b, O(1) a
// change, that picks the fewest jobs (countBuckets, JSQ) or the shortest
// expected delay (speedBuckets, SED). Live under FCFS a job's departure is
// known when it is sent: a monotone radix heap holds one entry a job. Under
// PS and SRPT an arrival can move the departures: a 4-ary heap of the
// servers' next departures. On a board b is rebuilt at each refresh.
type leastCount struct {
	s    *sim
	b    countIndex
	fcfs *radixHeap // live FCFS: the departures of the jobs in the system
	ps   *indexHeap // live PS or SRPT: each busy server's next departure
}

// countIndex keeps the K servers' job counts and picks a server by them.
type countIndex interface {
	inc(k int)
	dec(k int)
	set(k int, c int32)
	reset(counts []int32) // nil: all zero
	pick(r *Stream) int
	touch(k int) uint64 // loads server k's record, for the departure index (radixHeap.soon)
}

func newLeastCount(s *sim, b countIndex) *leastCount {
	d := &leastCount{s: s, b: b}
	switch {
	case s.board != nil:
	case s.srv.preemptive():
		d.ps = newIndexHeap(s.k)
	default:
		d.fcfs = &radixHeap{held: &s.srv.held}
		if s.k > farServers {
			d.fcfs.far(func(k int32) uint64 { return b.touch(int(k)) })
		}
		if !s.cfg.samplesIn(s.rep) {
			s.srv.deps = nil // the counts are kept here: nothing would drain the servers' queues
		}
	}
	return d
}

// syncPS brings server k's count and next departure up to time t (PS, SRPT):
// the server's count, or under the own view the dispatcher's.
func (d *leastCount) syncPS(k int, t float64) {
	srv := d.s.srv
	var n int32
	if own := d.s.own; own != nil {
		n = int32(own.count(k, t, d.s.m))
	} else {
		n = srv.count(k, t, d.s.m)
	}
	d.b.set(k, n)
	if n == 0 {
		if d.ps.has(k) {
			d.ps.remove(k)
		}
	} else {
		d.ps.set(k, srv.nextDeparture(k))
	}
}

func (d *leastCount) pick(t, _ float64) int {
	switch {
	case d.fcfs != nil:
		for {
			k, _, ok := d.fcfs.popUntil(t - d.s.cfg.Delay) // departures seen D late
			if !ok {
				break
			}
			d.b.dec(k)
		}
	case d.ps != nil:
		for d.ps.len() > 0 {
			k, next := d.ps.min()
			if next > t {
				break
			}
			d.syncPS(k, t)
		}
	}
	return d.b.pick(d.s.rDispatch)
}

func (d *leastCount) sent(k int, t, _ float64) {
	switch {
	case d.s.board != nil:
		if d.s.board.tally {
			d.b.inc(k)
		}
	case d.fcfs != nil:
		d.b.inc(k)
		d.fcfs.push(k, d.s.srv.free[k]) // the job's departure: FCFS, the server's new free time
	default:
		d.syncPS(k, t)
	}
}

func (d *leastCount) refreshed(float64) { d.b.reset(d.s.board.count) }

// held is the number of jobs in the live FCFS index.
func (d *leastCount) held() (int, string) {
	if d.fcfs == nil {
		return 0, ""
	}
	return d.fcfs.n, "JSQ's index of departures"
}
