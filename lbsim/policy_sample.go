package lbsim

import (
	"fmt"
	"math/bits"
)

// What the power-of-d policies (LL-d, JSQ-d, with or without memory) share:
// their parameters, their checks against K, the plain case's dispatcher.

// sampleParams reads d and replace, shared by the power-of-d policies.
func sampleParams(name string, p Params) (d int, replace bool, err error) {
	if d, err = p.Int("d", 0); err != nil || (d == 0 && p.Has("d")) {
		return 0, false, fmt.Errorf("%s: d=%v is invalid: need a whole number >= 1 (servers sampled per job); e.g. %s:d=2", name, p["d"], name)
	}
	if replace, err = p.Bool("replace"); err != nil {
		return 0, false, fmt.Errorf("%s: %w", name, err)
	}
	if replace && d == 0 {
		return 0, false, fmt.Errorf("%s: replace needs a sample size; e.g. %s:d=2,replace=1", name, name)
	}
	return d, replace, nil
}

// sampleSize is d, or K for d = 0 (all servers).
func sampleSize(d, k int) int {
	if d == 0 {
		return k
	}
	return d
}

// sampledSpec is the spec of a power-of-d policy: "ll:d=2", "jsq:d=2,replace=1".
func sampledSpec(name string, d int, replace bool) string {
	if replace {
		return fmt.Sprintf("%s:d=%d,replace=1", name, d)
	}
	return fmt.Sprintf("%s:d=%d", name, d)
}

// sampledLabel is the label of a power-of-d policy: "LL-2", "JSQ-2r" (with replacement).
func sampledLabel(name string, d int, replace bool) string {
	if replace {
		return fmt.Sprintf("%s-%dr", name, d)
	}
	return fmt.Sprintf("%s-%d", name, d)
}

// maxDrawsPerServer bounds d with replacement, d <= 64 K: 64 K draws miss a
// given server with probability (1-1/K)^(64K) < e^-64, so a larger d is, in
// any run, the policy over all K servers (LWL, JSQ), at d draws a job.
const maxDrawsPerServer = 64

func checkD(name string, d, k int, replace bool) error {
	switch {
	case replace && d < 1:
		return fmt.Errorf("%s replace needs a sample size d >= 1, got d=%d; e.g. %s:d=2,replace=1", name, d, name)
	case replace && d > maxDrawsPerServer*k:
		all := map[string]string{"ll": "lwl", "jsq": "jsq", "lr": "jsq"}[name]
		return fmt.Errorf("%s d=%d with replacement is too large for K = %d: need 1 <= d <= %d (%d K): that many draws miss a given server with probability below e^-%d, so a larger d samples every server; use %s", name, d, k, maxDrawsPerServer*k, maxDrawsPerServer, maxDrawsPerServer, all)
	case replace:
		return nil // the same server may be drawn again
	case d < 0 || d > k:
		return fmt.Errorf("%s d=%d is invalid: need 1 <= d <= K = %d (sampled servers are distinct); lower d, add servers, or sample with replacement (replace=1)", name, d, k)
	}
	return nil // d = 0: all servers
}

// checkSampled checks a power-of-d policy's d and m against K.
func checkSampled(name string, d, m, k int, replace bool) error {
	if err := checkD(name, d, k, replace); err != nil {
		return err
	}
	switch {
	case m < 0 || m > k:
		return fmt.Errorf("%s mem=%d is invalid: need 0 <= mem <= K = %d (remembered servers are distinct); lower mem", name, m, k)
	case m > 0 && d == 0:
		return fmt.Errorf("%s mem=%d needs a sample size d >= 1; e.g. %s:d=2,mem=%d", name, m, name, m)
	}
	return nil
}

// serverSample draws servers uniformly at random into a buffer reused from
// draw to draw: View.Sample's, and LSQ's probes.
type serverSample struct {
	out  []int
	perm []int32 // a permutation of the servers, kept between draws
}

// buffer is the buffer of d servers.
func (s *serverSample) buffer(d int) []int {
	if cap(s.out) < d {
		s.out = make([]int, d)
	}
	return s.out[:d]
}

// distinct fills out with len(out) distinct servers of k drawn uniformly,
// in random order: two by samplePair, more by a partial Fisher-Yates on
// perm (from any permutation, which is why perm need not be reset).
func (s *serverSample) distinct(r *Stream, k int, out []int) []int {
	if len(out) == 2 { // two draws, no permutation to keep
		out[0], out[1] = samplePair(r, k)
		return out
	}
	if s.perm == nil {
		s.perm = make([]int32, k)
		for i := range s.perm {
			s.perm[i] = int32(i)
		}
	}
	for i := range out {
		j := i + r.IntN(k-i)
		s.perm[i], s.perm[j] = s.perm[j], s.perm[i]
		out[i] = int(s.perm[i])
	}
	return out
}

// samplePair draws two distinct servers uniformly, in random order: a =
// IntN(k), then b = IntN(k-1), moved past a. It draws inline on a copy of
// the generator (two IntN calls are a third of an LL-2 job); the rare case
// where IntN's rejection test may be needed is redone by IntN.
func samplePair(r *Stream, k int) (int, int) {
	p := r.pcg
	u, lo := bits.Mul64(p.Uint64(), uint64(k))
	v, lo1 := bits.Mul64(p.Uint64(), uint64(k-1))
	a, b := int(u), int(v)
	if lo < uint64(k) || lo1 < uint64(k-1) {
		a, b = r.IntN(k), r.IntN(k-1)
	} else {
		r.pcg = p
	}
	if b >= a {
		b++
	}
	return a, b
}

// sampleMin is the dispatcher of the power-of-d policies (LL-d, JSQ-d): the
// least of v.Sample(d), with the pair drawn by samplePair for d = 2.
type sampleMin struct {
	v       View
	d       int
	kind    State
	replace bool
}

func (p *sampleMin) pick(t, _ float64) int {
	p.v.t = t
	if p.d == 2 && !p.replace {
		a, b := samplePair(p.v.s.rDispatch, p.v.s.k)
		if p.kind == Workload { // inlined: the hot path of LL-2
			if p.v.Workload(b) < p.v.Workload(a) {
				return b
			}
		} else if ca := p.v.Count(a); p.v.Count(b) < ca { // a first, as Least does
			return b
		}
		return a
	}
	if p.replace {
		return p.v.leastDrawn(p.d, p.kind)
	}
	return p.v.Least(p.v.Sample(p.d, false), p.kind)
}

// foresee: the next n pairs of LL-2 and JSQ-2, from a copy of the stream (sim_ahead.go).
func (p *sampleMin) foresee(n int, out []int32) []int32 {
	if p.d != 2 || p.replace {
		return out
	}
	r := *p.v.s.rDispatch
	for range n {
		a, b := samplePair(&r, p.v.s.k)
		out = append(out, int32(a), int32(b))
	}
	return out
}

// lean: LL-2 and JSQ-2 with distinct samples run inline; JSQ-2 needs the
// servers' departure queues (FCFS, live) or a board.
func (p *sampleMin) lean(s *sim) leanPolicy {
	switch {
	case p.d != 2 || p.replace:
		return notLean
	case p.kind == Workload:
		return leanLL2
	case s.srv.deps != nil || s.board != nil:
		return leanJSQ2
	}
	return notLean
}

// allServers reports whether d sampled servers (d = 0: all) are all k of
// them: LWL and JSQ, whose runs keep an index instead of sampling.
func allServers(d, k int, replace bool) bool { return d == 0 || (d == k && !replace) }

// sampledFacts is the Description of a power-of-d policy sampling d
// servers (all K for d = 0) and remembering mem: it asks those d + mem a
// job (at most K distinct, unless drawn with replacement); it treats the
// servers alike, and over all of them balances them; with a memory it has
// a history, and otherwise, unless over all servers, it samples d
// uniformly (checkSampling's bound).
func sampledFacts(d, mem int, replace bool, c *Config) Description {
	k := c.Servers
	out := Description{D: sampleSize(d, k), Probes: min(sampleSize(d, k)+mem, k), builtinFacts: builtinFacts{
		history: mem > 0, symmetric: true, balances: d == 0 || d >= k, stateBytes: sampledState(d, mem, k, replace)}}
	if replace {
		out.Probes = d + mem
	}
	if mem == 0 && !allServers(d, k, replace) {
		out.sampled, out.replace = d, replace
	}
	return out
}

// pickSampled is the Pick of a power-of-d policy p: the least loaded (by
// kind) of d servers sampled, all K for d = 0. With memory it needs Start,
// and a tie rule its own Pick.
func pickSampled(p builtin, v *View, d, mem int, replace bool, kind State, t Ties) int {
	if mem > 0 || t != TiesRandom {
		return pickTied(p, t, v)
	}
	if replace {
		return v.leastDrawn(d, kind)
	}
	return v.Least(v.Sample(sampleSize(d, v.K()), false), kind)
}

// sampledState is the memory of one dispatcher of sampledDispatcher: an
// index of the K servers over all of them, a memory's candidates, or for
// d > 2 a permutation of the servers; none for d <= 2 (samplePair).
func sampledState(d, mem, k int, replace bool) int64 {
	if mem > 0 || d > 2 || allServers(d, k, replace) {
		return indexBytes * int64(k)
	}
	return 0
}

// sampledDispatcher is the run's dispatcher of a power-of-d policy: with
// memory, the memory's; over all servers, the index all makes; else sampleMin.
func sampledDispatcher(s *sim, d, mem int, replace bool, kind State, all func(*sim) dispatcher) dispatcher {
	switch {
	case mem > 0:
		return newMemoryDispatcher(s, d, mem, replace, kind)
	case allServers(d, s.k, replace) && !s.departuresLate():
		return all(s)
	}
	return &sampleMin{v: View{s: s}, d: sampleSize(d, s.k), kind: kind, replace: replace}
}
