package lbsim

import (
	"cmp"
	"math"
	"slices"
)

// Several dispatchers (Config.Dispatchers = M > 1). Each arrival goes to
// one of M dispatchers, drawn from its own stream (uniformly, or by the
// weights), and is dispatched on that dispatcher's knowledge alone. A
// dispatcher is a front: its random stream, its board (the shared snapshot
// plus its tally) and its own policy instance, so per-run state (a
// round-robin pointer, a memory, an index) is its own. The sim's rDispatch,
// board, disp, obs and ref are those of the job at hand's dispatcher
// (enter), so a policy reads its own without knowing of the others; with
// one dispatcher, many is nil and the run is the one of old, to the bit.
//
// The dispatchers share the servers, so every live index is told of every
// send, and the refresh instants, the multiples of T, or with Stagger T (n
// + i/M) for dispatcher i. Each has its own copy of the board even when the
// copies are equal: a refresh then copies the first (copyFrom), at the
// cost, M K, of the messages it stands for.

// front is one dispatcher of several.
type front struct {
	r     *Stream
	board *board   // nil: live state
	own   *ownView // its counts of its own jobs (the own view), else nil
	disp  dispatcher
	obs   observer
	ref   refresher
}

// dispatcherSet is the M dispatchers of a replication.
type dispatcherSet struct {
	fronts []front
	route  *Stream     // which dispatcher an arrival goes to
	alias  *aliasTable // by the weights; nil: uniformly
	next   float64     // the earliest refresh due among the boards (+Inf live)
	due    []int       // scratch: the dispatchers whose boards are due
	obs    []observer  // the dispatchers' indexes (none for most policies)
}

// newDispatcherSet builds the M dispatchers of replication rep, each while
// s points at its own stream and board, and points s at dispatcher 0.
func newDispatcherSet(s *sim, rep int, reads State) *dispatcherSet {
	cfg := s.cfg
	m := cfg.dispatchers()
	ds := &dispatcherSet{fronts: make([]front, m), route: newStream(cfg.Seed, rep, streamRoute), next: math.Inf(1)}
	if w := cfg.dispatcherShares(); w != nil {
		ds.alias = newAliasTable(w)
	}
	var told []completionWatcher // the dispatchers told of their jobs' departures from preemptive servers
	for i := range ds.fronts {
		f := &ds.fronts[i]
		f.r = newStream(cfg.Seed, rep, dispatcherStream(i))
		if cfg.Refresh > 0 {
			f.board = newBoard(s.k, cfg.Refresh, cfg.Tally, reads)
			if cfg.Stagger {
				f.board.offset = cfg.Refresh * float64(i) / float64(m)
			}
			ds.next = 0 // the first arrival refreshes every board
		}
		s.rDispatch, s.board, s.front = f.r, f.board, i
		s.enlist(f, &told, ds.fronts[0].own)
		if f.obs != nil {
			ds.obs = append(ds.obs, f.obs)
		}
	}
	if s.shared != nil {
		ds.obs = append(ds.obs, s.shared)
	}
	ds.enter(s, 0)
	return ds
}

// enter points s at dispatcher i.
func (ds *dispatcherSet) enter(s *sim, i int) {
	f := &ds.fronts[i]
	s.rDispatch, s.board, s.own, s.disp, s.obs, s.ref, s.front = f.r, f.board, f.own, f.disp, f.obs, f.ref, i
}

// arrive refreshes the boards due at t, then draws job n's dispatcher (or
// takes the trace's) and enters it.
func (ds *dispatcherSet) arrive(s *sim, t float64, n int64) {
	if t >= ds.next {
		ds.refresh(s, t)
	}
	var i int
	if tr := s.cfg.Trace; tr != nil && tr.Dispatchers != nil {
		i = tr.Dispatchers[n]
	} else if ds.alias != nil {
		i = ds.alias.draw(ds.route)
	} else {
		i = ds.route.IntN(len(ds.fronts))
	}
	ds.enter(s, i)
}

// refresh refreshes the boards due at t, in the order of their instants
// (the servers' lazily kept state moves only forward: servers.count), a
// board of the same instant as the one before copied from it.
func (ds *dispatcherSet) refresh(s *sim, t float64) {
	ds.due = ds.due[:0]
	for i := range ds.fronts {
		if ds.fronts[i].board.due(t) {
			ds.due = append(ds.due, i)
		}
	}
	instant := func(i int) float64 { r0, _ := ds.fronts[i].board.instant(t); return r0 }
	slices.SortStableFunc(ds.due, func(a, b int) int { return cmp.Compare(instant(a), instant(b)) })
	var last *board
	for _, i := range ds.due {
		f := &ds.fronts[i]
		if last != nil && last.r0 == instant(i) {
			f.board.copyFrom(last)
		} else {
			f.board.refresh(t, s.srv, s.m)
		}
		last = f.board
		if f.ref != nil {
			ds.enter(s, i)
			f.ref.refreshed(f.board.r0)
		}
	}
	ds.next = math.Inf(1)
	for i := range ds.fronts {
		ds.next = min(ds.next, ds.fronts[i].board.next)
	}
}

// sent tells the dispatchers' indexes of the job of size x sent to server k
// at t (indexesTold): on a board or under the own view only the sender's
// (its tally, its own jobs), live every one (each mirrors the servers).
func (ds *dispatcherSet) sent(s *sim, k int, t, x float64) {
	if s.cfg.indexesTold() == 1 {
		if s.obs != nil {
			s.obs.sent(k, t, x)
		}
		return
	}
	for _, o := range ds.obs {
		o.sent(k, t, x)
	}
}

// refreshes is the number of board snapshots taken so far, by all dispatchers.
func (ds *dispatcherSet) refreshes() int64 {
	var n int64
	for i := range ds.fronts {
		if b := ds.fronts[i].board; b != nil {
			n += b.refreshes
		}
	}
	return n
}

// sharedState is the state the dispatchers of s's policy share, built by
// the first dispatcher's newDispatcher and joined by the others. It sees
// every send once, and keeps what no dispatcher alone knows: JIQ's
// I-queues, LSQ's servers' messages. The dispatchers built on it are not
// observers themselves.
func sharedState[T observer](s *sim, build func(*sim) T) T {
	if s.shared == nil {
		s.shared = build(s)
	}
	return s.shared.(T)
}
