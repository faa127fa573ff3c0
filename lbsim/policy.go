package lbsim

import (
	"fmt"
	"math/bits"
)

// Policy is a dispatching policy: for each arriving job it picks the server
// the job joins, from a View of the servers. A policy of your own is a type
// with these two methods (see ExamplePolicy); lbsim gives it live state or a
// stale board, the dispatcher's tally and the dispatch random stream.
//
// Optional methods tell lbsim more about it; each built-in policy keeps all
// of its knowledge in its own file this way:
//
//	Reads() State                         server state Pick looks at (default Workload|Count)
//	Validate(k int, sizes SizeLaw) error  checks it against K servers and the size law
//	Label() string                        its name in tables and figures (default String())
//	Start(v *View) Policy                 a fresh value per replication, for a policy
//	                                      that keeps state from one job to the next
//	Theory(c Config) (Reference, bool)    what queueing theory knows of c's mean delays:
//	                                      Exact, the exact-outside-ci warning and
//	                                      plots.ExactCurve use it (see Exact for what
//	                                      c is checked for first)
//	RowParams(k int) (d, c int)           the d and c columns of its Row (servers
//	                                      sampled per job; servers of SITA's short jobs)
//	WorkShares(c Config) []float64        for a policy that splits jobs without reading
//	                                      the servers: the fraction of the work each
//	                                      server gets, so Validate refuses an overloaded
//	                                      server (nil: not known for c)
//	Classes(k int, sizes SizeLaw) []SizeClass
//	                                      the size classes results are reported for, and
//	                                      the servers each class is sent to (default: the
//	                                      size law's Classifier, on all servers)
//
// Pick must not change the policy value itself unless Start gives each
// replication its own (replications run in parallel).
type Policy interface {
	// String is the policy's spec: for registered policies what ParsePolicy
	// reads back (e.g. "ll:d=2").
	String() string
	// Pick returns the server, 0 <= k < v.K(), for a job of size x.
	Pick(v *View, x float64) int
}

// rowParams are p's d and c columns (see Policy), 0 when it has none.
func rowParams(p Policy, k int) (d, c int) {
	if r, ok := p.(interface{ RowParams(k int) (d, c int) }); ok {
		return r.RowParams(k)
	}
	return 0, 0
}

// workShares is p's split of the work among the servers when it splits jobs
// without reading them (see Policy), else nil.
func workShares(p Policy, c Config) []float64 {
	if w, ok := p.(interface{ WorkShares(c Config) []float64 }); ok {
		return w.WorkShares(c)
	}
	return nil
}

// evenShares is the split of a policy that sends 1/K of the jobs to every server.
func evenShares(k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		out[i] = 1 / float64(k)
	}
	return out
}

// State is the server state a policy reads: a set of flags.
type State uint8

const (
	// Workload is the remaining work at each server, in time units.
	Workload State = 1 << iota
	// Count is the number of jobs present at each server.
	Count
)

// Reads returns the server state p looks at: p.Reads() if it says,
// else both (a policy of your own that reads neither can say Reads() State { return 0 }).
func Reads(p Policy) State {
	if r, ok := p.(interface{ Reads() State }); ok {
		return r.Reads()
	}
	return Workload | Count
}

// Label is p's human name (RND, LL-2, SITA-20): p.Label() if it has one,
// else its spec.
func Label(p Policy) string {
	if l, ok := p.(interface{ Label() string }); ok {
		return l.Label()
	}
	if p == nil {
		return "no policy"
	}
	return p.String()
}

// validatePolicy runs p's own checks, if it has any.
func validatePolicy(p Policy, k int, sizes SizeLaw) error {
	if v, ok := p.(interface {
		Validate(k int, sizes SizeLaw) error
	}); ok {
		return v.Validate(k, sizes)
	}
	return nil
}

// View is what a policy sees of the servers when a job arrives: live state,
// or the board refreshed every T time units (plus the dispatcher's tally of
// its own sends since the refresh), whichever the configuration says. It is
// valid only during Pick.
type View struct {
	s *sim
	t float64
	n int64

	sample []int   // Sample's result
	perm   []int32 // Sample's permutation of the servers
}

// K is the number of servers.
func (v *View) K() int { return v.s.k }

// Now is the arrival time of the job being dispatched.
func (v *View) Now() float64 { return v.t }

// Job is the number of jobs dispatched before this one (warm-up included).
func (v *View) Job() int64 { return v.n }

// Rand is the dispatch random stream: separate from the arrival and size
// streams, so policies compared on one seed see the same jobs.
func (v *View) Rand() *Stream { return v.s.rDispatch }

// Speed is server k's speed mu_k.
func (v *View) Speed(k int) float64 { return 1 / v.s.srv.inv[k] }

// Stale reports whether the policy reads a board rather than live state.
func (v *View) Stale() bool { return v.s.board != nil }

// Workload is server k's remaining work in time units: live, max(free_k - t, 0);
// on a board, the work at the last refresh instant plus the tally.
func (v *View) Workload(k int) float64 {
	if b := v.s.board; b != nil {
		return b.work[k] - b.r0
	}
	return max(v.s.srv.free[k]-v.t, 0)
}

// Count is the number of jobs at server k: live, or as on the board (plus
// the tally). The policy must read Count (see Reads).
func (v *View) Count(k int) int {
	if b := v.s.board; b != nil && b.count != nil {
		return int(b.count[k])
	}
	if b := v.s.board; b != nil || (!v.s.srv.counting && v.s.srv.ps == nil) {
		panic(policyError{fmt.Errorf("policy %s reads job counts but its Reads method leaves out Count; add it", v.s.cfg.Policy)})
	}
	return int(v.s.srv.count(k, v.t, v.s.m))
}

// Sample returns d distinct servers drawn uniformly at random, in random
// order (with replace, d independent uniform draws): the sample of the
// power-of-d policies. The slice is reused by the next call.
func (v *View) Sample(d int, replace bool) []int {
	if cap(v.sample) < d {
		v.sample = make([]int, d)
	}
	out, r, k := v.sample[:d], v.s.rDispatch, v.s.k
	switch {
	case replace:
		for i := range out {
			out[i] = r.IntN(k)
		}
	case d == 2: // two draws, no permutation to keep
		out[0], out[1] = samplePair(r, k)
	default: // partial Fisher-Yates: perm[0:d] becomes a uniform ordered sample
		if v.perm == nil {
			v.perm = make([]int32, k)
			for i := range v.perm {
				v.perm[i] = int32(i)
			}
		}
		for i := range out {
			j := i + r.IntN(k-i)
			v.perm[i], v.perm[j] = v.perm[j], v.perm[i]
			out[i] = int(v.perm[i])
		}
	}
	return out
}

// Least returns the first server of ks with the least workload (s =
// Workload) or the fewest jobs (s = Count): with ks in random order, ties
// are broken uniformly at random.
func (v *View) Least(ks []int, s State) int {
	best, bestV := ks[0], v.value(ks[0], s)
	for _, k := range ks[1:] {
		if x := v.value(k, s); x < bestV {
			best, bestV = k, x
		}
	}
	return best
}

// samplePair draws two distinct servers uniformly, in random order:
// a = IntN(k), then b = IntN(k-1), moved past a. The two draws are made
// here with a local copy of the generator (two calls of IntN cost a third
// of an LL-2 job through the View); their rare case, where IntN's
// rejection test may be needed, is redone by IntN from the start.
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
// least of v.Sample(d), with the pair drawn inline for d = 2 (the common
// case, and a third of the cost of a job).
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
	return p.v.Least(p.v.Sample(p.d, p.replace), p.kind)
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

func (v *View) value(k int, s State) float64 {
	if s == Workload {
		return v.Workload(k)
	}
	return float64(v.Count(k))
}

// dispatcher is one replication's instance of a policy: built-in policies
// have fast ones (heaps, buckets, lazy state); others pick through a View.
type dispatcher interface {
	// pick chooses the server for a job of size x arriving at time t.
	pick(t, x float64) int
}

// fastPolicy is a built-in policy with its own dispatcher.
type fastPolicy interface {
	newDispatcher(s *sim) dispatcher
}

// observer is a dispatcher that keeps its own index of the servers: it is
// told that the job of size x joined server k at time t.
type observer interface {
	sent(k int, t, x float64)
}

// refresher is a dispatcher that rebuilds its index when the board is
// refreshed at time r0.
type refresher interface {
	refreshed(r0 float64)
}

// newDispatcher is p's dispatcher for one replication.
func newDispatcher(p Policy, s *sim) dispatcher {
	if f, ok := p.(fastPolicy); ok {
		return f.newDispatcher(s)
	}
	d := &viewDispatcher{p: p, v: View{s: s}}
	if st, ok := p.(interface{ Start(v *View) Policy }); ok {
		d.p = st.Start(&d.v)
	}
	return d
}

// viewDispatcher runs a policy through its Pick method.
type viewDispatcher struct {
	p Policy
	v View
}

func (d *viewDispatcher) pick(t, x float64) int {
	d.v.t = t
	k := d.p.Pick(&d.v, x)
	d.v.n++
	if k < 0 || k >= d.v.s.k {
		panic(policyError{fmt.Errorf("policy %s picked server %d: need 0 <= k < K = %d; fix its Pick method", d.p, k, d.v.s.k)})
	}
	return k
}

// policyError carries a policy's mistake out of the run loop (see runReplication).
type policyError struct{ err error }
