package lbsim

import (
	"errors"
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// LeastLoaded is LL-d, the handout's least loaded: each job goes to the
// server with the least remaining workload (in time units) among D servers
// sampled uniformly without replacement; ties are broken uniformly at random.
// D = 0 (or D = K) samples all servers: LWL, least work left, which under FCFS
// behaves as the central M/G/K queue. (LWL draws uniformly among idle servers;
// equal workloads of busy servers, of probability zero for continuous sizes,
// are ordered by its index.) Ties sets another rule for ties (see Ties).
//
// With Replace the D servers are sampled with replacement, as in the
// simulations of the mean-field literature (Hellemans' finite-K LL-2 values
// are reproduced only this way); the default samples D distinct servers.
// Mem > 0 also considers the Mem servers remembered from the previous job:
// LL(d,m), see policy_memory.go.
type LeastLoaded struct {
	D       int
	Replace bool
	Mem     int
	Ties    Ties
}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "ll", Params: []string{"d", "replace", "mem", "ties"}, Lists: []string{"ties"}, Example: "ll:d=2",
		Summary: "least loaded of d: least workload among d sampled servers (replace=1: with replacement; mem=M: and the M remembered from the last job; ties=first|oldest|rr: among idle servers)",
		New: func(p Params) (Policy, error) {
			d, replace, err := sampleParams("ll", p)
			if err == nil && d == 0 {
				err = fmt.Errorf("ll: missing parameter d; e.g. ll:d=2 (or lwl for all servers)")
			}
			if err != nil {
				return nil, err
			}
			mem, err := memoryParam("ll", p, d)
			ties, terr := tiesParam("ll", p)
			return LeastLoaded{D: d, Replace: replace, Mem: mem, Ties: ties}, errors.Join(err, terr)
		}})
	mustRegister(policyRegistry, PolicyType{Name: "lwl", Params: []string{"ties"}, Lists: []string{"ties"}, Example: "lwl",
		Summary: "least work left: least workload among all K servers (central M/G/K under FCFS; ties=first|oldest|rr: among idle servers)",
		New: func(p Params) (Policy, error) {
			ties, err := tiesParam("lwl", p)
			return LeastLoaded{Ties: ties}, err
		}})
}

func (p LeastLoaded) String() string {
	if p.D == 0 {
		return p.Ties.spec("lwl")
	}
	return p.Ties.spec(withMemory(sampledSpec("ll", p.D, p.Replace), p.Mem))
}

// describe: a power-of-d policy (sampledFacts) on workloads; live over all
// K servers beyond a scan's few (freeScan) its index holds a job each.
func (p LeastLoaded) describe(c *Config) Description {
	d := sampledFacts(p.D, p.Mem, p.Replace, c)
	d.Label, d.Reads = "LWL", Workload
	if p.D != 0 {
		d.Label = memoryLabel("LL", p.D, p.Replace, p.Mem)
	}
	if c.Refresh == 0 && p.Mem == 0 && allServers(p.D, c.Servers, p.Replace) && !scansFree(c.Servers) {
		d.jobIndexes = 1
	}
	p.Ties.describe(&d, c.Servers)
	return d
}

func (p LeastLoaded) validate(c *Config) error {
	return errors.Join(checkSampled("ll", p.D, p.Mem, c.Servers, p.Replace), p.Ties.check(p, p.Mem, p.Replace, c))
}

// theory, under FCFS: LWL (or d = K) with equal speeds is the central M/G/K
// queue: Erlang C for exponential sizes, M/D/K (theory.MDc) for deterministic
// ones; LL-d, d >= 2 distinct samples, speed 1, has Hellemans and Van Houdt's
// limit K -> infinity, sum_{n>=0} rho^(dn)/(1+n(d-1)) (d = 2: -ln(1-rho^2)/rho^2).
func (p LeastLoaded) theory(c Config) (Reference, bool) {
	s := systemOf(c)
	if _, det := s.sizes.(Deterministic); det && s.disc == FCFS && s.equal && allServers(p.D, s.k, p.Replace) {
		d, err := theory.MDc(s.lambda, s.k, s.sizes.Mean()/s.mu)
		return reference(d, err, fmt.Sprintf("central M/D/%d", s.k), ExactValue)
	}
	switch {
	case !s.exp || s.disc != FCFS:
	case s.equal && allServers(p.D, s.k, p.Replace):
		return centralMMK(s)
	case s.unit && p.D >= 2 && !p.Replace && p.Mem == 0:
		d, err := theory.LLdMeanField(p.D, c.Load)
		return reference(scale(d, s.sizes.Mean()), err, fmt.Sprintf("LL-%d mean-field limit (Hellemans & Van Houdt)", p.D), LimitValue)
	}
	return Reference{}, false
}

// Pick samples D servers and takes the least loaded (all K for LWL); the run
// uses it directly for LL-d and an O(log K) index for LWL.
func (p LeastLoaded) Pick(v *View, _ float64) int {
	return pickSampled(p, v, p.D, p.Mem, p.Replace, Workload, p.Ties)
}

func (p LeastLoaded) newDispatcher(s *sim) dispatcher {
	if p.Ties != TiesRandom {
		return tiedDispatcher(p, s)
	}
	return sampledDispatcher(s, p.D, p.Mem, p.Replace, Workload, func(s *sim) dispatcher { return newLeastWork(s) })
}

// leastWork is LWL over all K servers in O(log K): idle servers (free time
// <= now) sit in a set drawn from uniformly, the others are indexed by
// their free time. Live, a free time only grows, so a monotone radix heap
// holds them, a server's older entries (stale: below its free time) dropped
// as they come up; at K <= scanServers a scan of the free times (freeScan)
// stands for it. On a board, keys are the board's and now is the refresh
// instant, and a refresh moves them both ways: a 4-ary heap with updates.
type leastWork struct {
	s     *sim
	live  *radixHeap // live: free times, with stale entries
	scan  *freeScan  // live at K <= scanServers, instead of live
	board *indexHeap // on a board: the board's keys
	idle  *indexSet
	// drawn is the place in idle of the server randomIdle drew (-1: none),
	// which sent removes without a lookup: at large K, a cache miss less.
	drawn int32
}

func newLeastWork(s *sim) *leastWork {
	d := &leastWork{s: s, idle: newIndexSet(s.k), drawn: -1}
	if s.board != nil {
		d.board = newIndexHeap(s.k)
	} else {
		d.indexLive(scansFree(s.k))
	}
	for k := range s.k {
		d.idle.add(k)
	}
	return d
}

// indexLive sets the live index of busy servers: freeScan, or the radix heap.
func (d *leastWork) indexLive(scan bool) {
	s := d.s
	if scan {
		d.scan, d.live = newFreeScan(s.srv.free), nil
		return
	}
	d.scan, d.live = nil, &radixHeap{held: &s.srv.held}
	if free, pos := s.srv.free, d.idle.pos; s.k > farServers {
		d.live.far(func(k int32) uint64 { return math.Float64bits(free[k]) + uint64(pos[k]) })
	}
}

// place files server k under its key (on a board).
func (d *leastWork) place(k int, key, now float64) {
	if key <= now {
		if d.board.has(k) {
			d.board.remove(k)
		}
		if !d.idle.has(k) {
			d.idle.add(k)
		}
		return
	}
	if d.idle.has(k) {
		d.idle.remove(k)
	}
	d.board.set(k, key)
}

// drain moves the servers idle by t to the idle set, and returns how many are idle.
func (d *leastWork) drain(t float64) int {
	if d.scan != nil {
		d.scan.drain(t, d.idle)
		return len(d.idle.items)
	}
	if d.live != nil {
		free := d.s.srv.free
		for {
			k, key, ok := d.live.popUntil(t)
			if !ok {
				break
			}
			if key == free[k] && !d.idle.has(k) { // not stale
				d.idle.add(k)
			}
		}
		return len(d.idle.items)
	}
	now := d.s.board.r0
	for d.board.len() > 0 {
		k, key := d.board.min()
		if key > now {
			break
		}
		d.board.remove(k)
		d.idle.add(k)
	}
	return len(d.idle.items)
}

// randomIdle is an idle server drawn uniformly (there must be one).
func (d *leastWork) randomIdle() int {
	d.drawn = int32(d.s.rDispatch.IntN(len(d.idle.items)))
	return int(d.idle.items[d.drawn])
}

// least is the server with the least work (none is idle).
func (d *leastWork) least() int {
	if d.board != nil {
		k, _ := d.board.min()
		return k
	}
	if d.scan != nil {
		return d.scan.least()
	}
	// No server is idle, and none becomes idle before the smallest free
	// time: every later push is at least it, as min requires.
	for {
		k, key := d.live.min()
		if key == d.s.srv.free[k] {
			return k
		}
		d.live.pop() // stale
	}
}

func (d *leastWork) pick(t, _ float64) int {
	if d.drain(t) > 0 {
		return d.randomIdle()
	}
	return d.least()
}

func (d *leastWork) sent(k int, t, _ float64) {
	drawn := d.drawn
	d.drawn = -1
	if b := d.s.board; b != nil {
		if b.tally {
			d.place(k, b.work[k], b.r0)
		}
		return
	}
	if free := d.s.srv.free[k]; free > t { // else a job of size 0 left k idle
		switch {
		case drawn >= 0 && int(drawn) < len(d.idle.items) && d.idle.items[drawn] == int32(k): // the server randomIdle drew
			d.idle.removeAt(drawn)
		case d.idle.has(k):
			d.idle.remove(k)
		}
		if d.scan != nil {
			d.scan.push(k)
		} else {
			d.live.push(k, free) // k's older entry, if any, is now stale
		}
	}
}

// held is the number of entries in the live index (a job each, some stale).
func (d *leastWork) held() (int, string) {
	if d.live == nil {
		return 0, ""
	}
	return d.live.n, "the index of busy servers by when their work runs out"
}

func (d *leastWork) refreshed(r0 float64) {
	for k, key := range d.s.board.work {
		d.place(k, key, r0)
	}
}
