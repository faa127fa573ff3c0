package lbsim

import "fmt"

// View is what a policy sees of the servers when a job arrives: live state,
// or the board refreshed every T time units (plus the dispatcher's tally of
// its own sends since), whichever the configuration says; each dispatcher
// has its own (see Dispatcher). It is valid only during Pick. In the probe
// behind Config.Key its calls count against a budget (probeBudget), which
// stops a Pick that loops for ever; in a run a call costs a nil test.
type View struct {
	s *sim
	t float64
	n int64

	sample serverSample // Sample's draws
}

// K is the number of servers.
func (v *View) K() int { v.s.spend(); return v.s.k }

// Now is the arrival time of the job being dispatched.
func (v *View) Now() float64 { v.s.spend(); return v.t }

// Job is the number of jobs this dispatcher dispatched before this one (warm-up included).
func (v *View) Job() int64 { v.s.spend(); return v.n }

// Dispatcher is the dispatcher deciding, 0 <= i < Dispatchers(), each with
// its own View, stream, board, tally and Start's value (Config.Dispatchers).
func (v *View) Dispatcher() int { v.s.spend(); return v.s.front }

// Dispatchers is M, the number of dispatchers.
func (v *View) Dispatchers() int { v.s.spend(); return v.s.cfg.dispatchers() }

// Rand is the dispatcher's random stream: separate from the arrival and
// size streams, so policies compared on one seed see the same jobs.
func (v *View) Rand() *Stream { v.s.spend(); return v.s.rDispatch }

// Speed is server k's speed mu_k.
func (v *View) Speed(k int) float64 { v.s.spend(); return 1 / v.s.srv.inv[k] }

// Stale reports whether the policy reads a board rather than live state.
func (v *View) Stale() bool { v.s.spend(); return v.s.board != nil }

// Workload is server k's remaining work in time units: live, max(free_k - t, 0);
// on a board, the work at the last refresh instant plus the tally.
func (v *View) Workload(k int) float64 {
	v.s.spend()
	if b := v.s.board; b != nil {
		return b.work[k] - b.r0
	}
	return max(v.s.srv.free[k]-v.t, 0)
}

// Count is the number of jobs at server k: live, on the board (plus the
// tally), or under the own view the dispatcher's own. Reads must say Count.
func (v *View) Count(k int) int {
	v.s.spend()
	if own := v.s.own; own != nil {
		return own.count(k, v.t, v.s.m)
	}
	if b := v.s.board; b != nil && b.count != nil {
		return int(b.count[k])
	}
	if b := v.s.board; b != nil || (!v.s.srv.counting && !v.s.srv.preemptive()) {
		panic(policyError{fmt.Errorf("policy %s reads job counts but the Reads of its Description leaves out Count; add it", v.s.cfg.Policy)})
	}
	return int(v.s.srv.count(k, v.t, v.s.m))
}

// Sample returns d distinct servers drawn uniformly, in random order (with
// replace, d independent draws); the slice is reused by the next call.
func (v *View) Sample(d int, replace bool) []int {
	v.s.spend()
	out := v.sample.buffer(d)
	if !replace {
		return v.sample.distinct(v.s.rDispatch, v.s.k, out)
	}
	for i := range out {
		out[i] = v.s.rDispatch.IntN(v.s.k)
	}
	return out
}

// Least returns the first server of ks with the least workload or the
// fewest jobs (s): with ks in random order, ties are broken at random.
func (v *View) Least(ks []int, s State) int {
	v.s.spend()
	best, bestV := ks[0], v.value(ks[0], s)
	for _, k := range ks[1:] {
		if x := v.value(k, s); x < bestV {
			best, bestV = k, x
		}
	}
	return best
}

// leastDrawn is Least(Sample(d, true), s) with the d servers drawn one at a
// time: the same choice without a buffer of d (up to 64 K) servers.
func (v *View) leastDrawn(d int, s State) int {
	r, k := v.s.rDispatch, v.s.k
	best := r.IntN(k)
	bestV := v.value(best, s)
	for range d - 1 {
		c := r.IntN(k)
		if x := v.value(c, s); x < bestV {
			best, bestV = c, x
		}
	}
	return best
}

func (v *View) value(k int, s State) float64 {
	if s == Workload {
		return v.Workload(k)
	}
	return float64(v.Count(k))
}
