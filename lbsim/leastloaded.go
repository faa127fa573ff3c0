package lbsim

import (
	"fmt"
)

// LeastLoaded is LL-d, the handout's least loaded: each job goes to the
// server with the least remaining workload (in time units) among D servers
// sampled uniformly without replacement; ties are broken uniformly at random.
// D = 0 (or D = K) samples all servers: LWL, least work left, which under FCFS
// behaves as the central M/G/K queue. (LWL draws uniformly among idle servers;
// two busy servers with exactly equal workloads, which has probability zero
// for continuous sizes, are ordered by its heap.)
//
// With Replace the D servers are sampled with replacement, as in the
// simulations of the mean-field literature (Hellemans' finite-K LL-2 values
// are reproduced only this way); the default samples D distinct servers.
type LeastLoaded struct {
	D       int
	Replace bool
}

func (p LeastLoaded) String() string {
	if p.D == 0 {
		return "lwl"
	}
	return sampledSpec("ll", p.D, p.Replace)
}
func (p LeastLoaded) Validate(k int, _ SizeLaw) error { return checkD("ll", p.D, k, p.Replace) }
func (p LeastLoaded) reads() stateKind                { return readsWork }
func (p LeastLoaded) newDispatcher(s *sim) dispatcher {
	if p.D == 0 || (p.D == s.k && !p.Replace) {
		return newLeastWork(s)
	}
	return newSampleMin(s, p.D, readsWork, p.Replace)
}

// sampledSpec is the spec of a power-of-d policy: "ll:d=2", "jsq:d=2,replace=1".
func sampledSpec(name string, d int, replace bool) string {
	if replace {
		return fmt.Sprintf("%s:d=%d,replace=1", name, d)
	}
	return fmt.Sprintf("%s:d=%d", name, d)
}

func checkD(name string, d, k int, replace bool) error {
	switch {
	case replace && d < 1:
		return fmt.Errorf("%s replace needs a sample size d >= 1, got d=%d; e.g. %s:d=2,replace=1", name, d, name)
	case replace:
		return nil // any d: the same server may be drawn again
	case d < 0 || d > k:
		return fmt.Errorf("%s d=%d is invalid: need 1 <= d <= K = %d (sampled servers are distinct); lower d, add servers, or sample with replacement (replace=1)", name, d, k)
	}
	return nil // d = 0: all servers
}

// sampleMin is the power-of-d dispatcher shared by LL-d and JSQ-d: sample d
// distinct servers (or d independent ones, with replacement) in uniformly
// random order and take the first one with the least value, which breaks
// ties uniformly at random. O(d) per job.
type sampleMin struct {
	s       *sim
	d, k    int
	kind    stateKind
	replace bool
	perm    []int32 // a permutation of the servers, reshuffled partially per job
	r       *Stream
}

func newSampleMin(s *sim, d int, kind stateKind, replace bool) *sampleMin {
	p := &sampleMin{s: s, d: d, k: s.k, kind: kind, replace: replace, r: s.rDispatch, perm: make([]int32, s.k)}
	for i := range p.perm {
		p.perm[i] = int32(i)
	}
	return p
}

// value is the load of server k seen at time t: live or from the board.
func (p *sampleMin) value(k int, t float64) float64 {
	s := p.s
	switch {
	case s.board != nil && p.kind == readsWork:
		return s.board.work[k]
	case s.board != nil:
		return float64(s.board.count[k])
	case p.kind == readsWork:
		return max(s.srv.free[k], t) // workload + t
	default:
		return float64(s.srv.count(k, t, s.m))
	}
}

func (p *sampleMin) pick(t, _ float64) int {
	if p.replace {
		best, bestV := -1, 0.0
		for range p.d {
			k := p.r.IntN(p.k)
			if v := p.value(k, t); best < 0 || v < bestV {
				best, bestV = k, v
			}
		}
		return best
	}
	if p.d == 2 {
		a := p.r.IntN(p.k)
		b := p.r.IntN(p.k - 1)
		if b >= a {
			b++
		}
		if p.value(b, t) < p.value(a, t) {
			return b
		}
		return a
	}
	// Partial Fisher-Yates: perm[0:d] becomes a uniform ordered sample.
	best, bestV := -1, 0.0
	for i := range p.d {
		j := i + p.r.IntN(p.k-i)
		p.perm[i], p.perm[j] = p.perm[j], p.perm[i]
		k := int(p.perm[i])
		if v := p.value(k, t); best < 0 || v < bestV {
			best, bestV = k, v
		}
	}
	return best
}

// leastWork is LWL over all K servers in O(log K): servers with no work
// (free time <= now) sit in an idle set drawn from uniformly; the others in a
// heap keyed by their free time. Live, keys are the servers' free times and
// now is the arrival time; on a board, keys are the board's and now is the
// refresh instant.
type leastWork struct {
	s    *sim
	heap *indexHeap
	idle *indexSet
}

func newLeastWork(s *sim) *leastWork {
	d := &leastWork{s: s, heap: newIndexHeap(s.k), idle: newIndexSet(s.k)}
	for k := range s.k {
		d.idle.add(k)
	}
	return d
}

func (d *leastWork) now(t float64) float64 {
	if d.s.board != nil {
		return d.s.board.r0
	}
	return t
}

// place files server k under its key.
func (d *leastWork) place(k int, key, now float64) {
	if key <= now {
		if d.heap.has(k) {
			d.heap.remove(k)
		}
		if !d.idle.has(k) {
			d.idle.add(k)
		}
		return
	}
	if d.idle.has(k) {
		d.idle.remove(k)
	}
	d.heap.set(k, key)
}

func (d *leastWork) pick(t, _ float64) int {
	now := d.now(t)
	for d.heap.len() > 0 {
		k, key := d.heap.min()
		if key > now {
			break
		}
		d.heap.remove(k)
		d.idle.add(k)
	}
	if n := len(d.idle.items); n > 0 {
		return int(d.idle.items[d.s.rDispatch.IntN(n)])
	}
	k, _ := d.heap.min()
	return k
}

func (d *leastWork) sent(k int, t, _ float64) {
	if b := d.s.board; b != nil {
		if b.tally {
			d.place(k, b.work[k], b.r0)
		}
		return
	}
	d.place(k, d.s.srv.free[k], t)
}

func (d *leastWork) refreshed(r0 float64) {
	for k, key := range d.s.board.work {
		d.place(k, key, r0)
	}
}
