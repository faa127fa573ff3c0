package lbsim

import "math"

// I-queues: join-the-idle-queue with several dispatchers (Lu, Xie, Kliot,
// Geller, Larus and Greenberg, Performance Evaluation 68(11), 2011). Each
// dispatcher has an I-queue of idle servers' tokens. A server whose work
// runs out, and that has no token out, puts one in the I-queue of one
// dispatcher: drawn at random (JIQ-Random), or the shortest of d distinct
// ones drawn (JIQ-SQ(d)). A dispatcher sends a job to the server of the
// first token of its I-queue and drops the token; with an empty I-queue, to
// a server drawn at random. Without withdrawals (Lu et al.) a token stays
// until its dispatcher uses it, though its server may have become busy
// since; with withdrawals (Van Houdt 2024) a server that gets a job
// withdraws its token, and the I-queues hold exactly the idle servers. A
// token is one message (2d + 1 for JIQ-SQ(d): d queries, d replies and the
// token), a withdrawal one. With one dispatcher the run is jiqDispatcher's.
type iqueues struct {
	s        *sim
	r        *Stream      // streamShared: which I-queues a token is offered
	d        int          // distinct I-queues compared by a newly idle server (1: random), d <= M
	drawn    serverSample // their draw
	withdraw bool
	m        int // M, the number of dispatchers
	// busy holds the busy servers by when their work runs out (some stale), so
	// that those idle by an arrival join an I-queue in the order they became idle.
	busy *radixHeap
	// The I-queues are FIFO lists threaded through the servers, each
	// holding at most one token.
	head, tail, n []int32     // per dispatcher: first and last token, length
	tok           []tokenLink // per server
	msgs          int         // messages a token costs
}

// tokenLink is a server's place in the I-queues, in one record: a join or a
// leave at large K then misses the cache once for the server.
type tokenLink struct {
	next, prev int32 // the tokens after and before its own
	on         int32 // the dispatcher holding its token, or -1
}

// newIQueues are the I-queues of JIQ's options: a token to the shortest of
// d I-queues, withdrawn when its server gets a job.
func newIQueues(s *sim, d int, withdraw bool) *iqueues {
	m, k := s.cfg.dispatchers(), s.k
	q := &iqueues{s: s, r: newStream(s.cfg.Seed, s.rep, streamShared), m: m,
		busy: &radixHeap{held: &s.srv.held},
		head: make([]int32, m), tail: make([]int32, m), n: make([]int32, m),
		tok: make([]tokenLink, k), d: max(d, 1), withdraw: withdraw}
	q.msgs = 1
	if q.d > 1 {
		q.msgs = 2*q.d + 1
	}
	if free := s.srv.free; k > farServers {
		q.busy.far(func(k int32) uint64 { return math.Float64bits(free[k]) + uint64(q.tok[k].on) })
	}
	for i := range q.head {
		q.head[i], q.tail[i] = -1, -1
	}
	for k := range q.tok {
		q.tok[k].on = -1
	}
	s.countTokens = false // the tokens are counted as they are sent
	for k := range k {    // at time 0 every server is idle
		q.join(k)
	}
	return q
}

// join puts server k's token in the I-queue chosen for it.
func (q *iqueues) join(k int) {
	i := q.choose()
	q.tok[k] = tokenLink{next: -1, prev: q.tail[i], on: int32(i)}
	if q.tail[i] >= 0 {
		q.tok[q.tail[i]].next = int32(k)
	} else {
		q.head[i] = int32(k)
	}
	q.tail[i] = int32(k)
	q.n[i]++
	q.s.reports += int64(q.msgs)
}

// choose draws the I-queue a token joins: one at random, or the shortest
// of d distinct ones drawn (the first drawn among the shortest).
func (q *iqueues) choose() int {
	if q.d == 1 {
		return q.r.IntN(q.m)
	}
	drawn := q.drawn.distinct(q.r, q.m, q.drawn.buffer(q.d))
	i := drawn[0]
	for _, j := range drawn[1:] {
		if q.n[j] < q.n[i] {
			i = j
		}
	}
	return i
}

// leave takes server k's token out of its I-queue.
func (q *iqueues) leave(k int) {
	i, p, n := q.tok[k].on, q.tok[k].prev, q.tok[k].next
	if p >= 0 {
		q.tok[p].next = n
	} else {
		q.head[i] = n
	}
	if n >= 0 {
		q.tok[n].prev = p
	} else {
		q.tail[i] = p
	}
	q.tok[k].on = -1
	q.n[i]--
}

// settle lets the servers whose work ran out by t offer their tokens, in
// the order their work ran out (which I-queue is shortest depends on it).
func (q *iqueues) settle(t float64) {
	free := q.s.srv.free
	for {
		k, key, ok := q.busy.popUntil(t)
		if !ok {
			return
		}
		if key == free[k] && q.tok[k].on < 0 { // not stale, no token out
			q.join(k)
		}
	}
}

// sent: server k got a job at t. With withdrawals it withdraws its token
// (one message); a server left idle (a job of size 0) offers a token now.
func (q *iqueues) sent(k int, t, _ float64) {
	if q.withdraw && q.tok[k].on >= 0 {
		q.leave(k)
		q.s.reports++
	}
	if free := q.s.srv.free[k]; free > t {
		q.busy.push(k, free)
	} else if q.tok[k].on < 0 {
		q.join(k)
	}
}

// held is the number of entries in the index of busy servers (some stale).
func (f iqueueFront) held() (int, string) {
	return f.q.busy.n, "JIQ's index of busy servers by when their work runs out"
}

// iqueueFront is one dispatcher of JIQ with I-queues.
type iqueueFront struct {
	q *iqueues
	i int32
	r *Stream // the dispatcher's own stream: its random sends
}

func (f iqueueFront) pick(t, _ float64) int {
	q := f.q
	q.settle(t)
	if k := q.head[f.i]; k >= 0 {
		q.leave(int(k))
		return int(k)
	}
	return f.r.IntN(q.s.k)
}
