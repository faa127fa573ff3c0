package lbsim

import (
	"fmt"
	"math"
	"strings"
)

// Discipline is the service discipline of every server's queue.
type Discipline int

const (
	// FCFS serves jobs one at a time in arrival order.
	FCFS Discipline = iota
	// PS shares the server equally among the jobs present (processor sharing).
	PS
	// SRPT serves the job with the shortest remaining service time,
	// preempting the one in service when a shorter job arrives (ties: the
	// earlier job first, so equal sizes are served FCFS).
	SRPT
)

// disciplines is each discipline's name (its spec, -discipline's value)
// and what it does: the one list the parser, the checks, the menus and the
// docs read.
var disciplines = [...]struct{ name, doc string }{
	FCFS: {"fcfs", "first come, first served"},
	PS:   {"ps", "processor sharing"},
	SRPT: {"srpt", "shortest remaining processing time first (preemptive)"},
}

func (d Discipline) String() string {
	if d.valid() {
		return disciplines[d].name
	}
	return fmt.Sprintf("Discipline(%d)", int(d))
}

func (d Discipline) valid() bool { return d >= 0 && int(d) < len(disciplines) }

// preemptive is whether a job's service can be interrupted (PS, SRPT): its
// "wait" is then its response less its service, not the time before it
// starts, and the mean response is what a run measures.
func (d Discipline) preemptive() bool { return d != FCFS }

// disciplineNames is "fcfs, ps or srpt", for docs and errors.
func disciplineNames() string {
	var names []string
	for _, d := range disciplines {
		names = append(names, d.name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// servers is the state of the K queues.
//
// Whatever the discipline, free[k] is the time at which server k's workload
// reaches zero: the workload found at time t is max(free[k]-t, 0) time units,
// because FCFS, PS and SRPT are all work-conserving. Under FCFS this is also
// the arriving job's waiting time (Lindley's recursion), so no events are
// needed. Job counts need departures: under FCFS a job's departure time is
// known at dispatch and each server keeps a FIFO of them (kept only when
// counts are read); under the preemptive disciplines a later arrival can
// delay it, so each server keeps its jobs: in a heap of virtual finish
// times (PS) or of remaining service times (SRPT, sim_srpt.go).
type servers struct {
	// Separate arrays, not one record per server: the sampled free times
	// are on the critical path, and 8 bytes a server keep K = 100,000 of
	// them in L2 cache.
	inv  []float64 // 1/mu_k
	free []float64
	busy []float64 // work of measured jobs, in time units, per server
	unit bool      // every speed is 1: service time = size, inv is not read
	// Beyond farServers, with at most 256 distinct speeds, group[k] is
	// server k's speed group (speedGroups) and groupInv[g] its 1/mu, which
	// service reads instead of inv: a byte a server keeps K = 100,000 of
	// them in L2 cache, where inv's 8 bytes are a cache miss a job (JIQ at
	// K = 100,000: 13% of its time). Below, inv is in cache, and one read.
	group    []uint8
	groupInv []float64

	counting bool
	deps     []fifo      // FCFS departure times, when counting
	ps       []psQueue   // PS queues
	srpt     []srptQueue // SRPT queues
	held     backlog     // the per-job state of deps, ps, srpt and the dispatcher's index
}

func newServers(speeds []float64, disc Discipline, counting bool) *servers {
	k := len(speeds)
	s := &servers{inv: make([]float64, k), free: make([]float64, k), busy: make([]float64, k), counting: counting}
	s.unit = true
	for i, mu := range speeds {
		s.inv[i] = 1 / mu
		s.unit = s.unit && mu == 1
	}
	if k > farServers && !s.unit {
		s.groupSpeeds(speeds)
	}
	switch {
	case disc == PS:
		s.ps = make([]psQueue, k)
	case disc == SRPT:
		s.srpt = make([]srptQueue, k)
	case counting:
		s.deps = make([]fifo, k)
	}
	return s
}

// preemptive is whether a job's departure can move after it is sent (PS,
// SRPT): the servers then keep their jobs, and departures are found by
// bringing a server up to a time (count), not known at dispatch.
func (s *servers) preemptive() bool { return s.ps != nil || s.srpt != nil }

// groupSpeeds sets group and groupInv, if there are at most 256 speed groups.
func (s *servers) groupSpeeds(speeds []float64) {
	g := newSpeedGroups(speeds)
	if len(g.mu) > 256 {
		return
	}
	s.group, s.groupInv = make([]uint8, len(speeds)), make([]float64, len(g.mu))
	for i, mu := range g.mu {
		s.groupInv[i] = 1 / mu
	}
	for k, i := range g.of {
		s.group[k] = uint8(i)
	}
}

// service is the service time of a job of size x at server k: x / mu_k.
func (s *servers) service(k int, x float64) float64 {
	if s.unit { // x * 1 is x: no read of inv
		return x
	}
	if s.group != nil {
		return x * s.groupInv[s.group[k]]
	}
	return x * s.inv[k]
}

// lateWork is a job's service time at server k, added to the server's
// work done after its block (addLate): beyond farServers busy[k] is a
// cache miss, and added job by job it holds up the jobs after it; added
// after the block, in the same order (the same sums to the last bit), the
// misses do not depend on one another, and overlap.
type lateWork struct {
	k       int32
	service float64
}

// addLate adds the block's late work to the servers' work done.
func (s *servers) addLate(late []lateWork) {
	for _, w := range late {
		s.busy[w.k] += w.service
	}
}

// join puts a job arriving at t with the given service time at the end of
// server k's work, and returns when its service starts under FCFS:
// max(free_k, t) (Lindley's recursion). Without a branch: whether a job
// waits is a coin toss.
func (s *servers) join(k int, t, service float64) (start float64) {
	start = later(s.free[k], t)
	s.free[k] = start + service
	return start
}

// count is the number of jobs at server k at time t (t must not decrease
// between calls for the same server). Under PS and SRPT it completes the
// departures due by t, recording them in m.
func (s *servers) count(k int, t float64, m *metrics) int32 {
	switch {
	case s.ps != nil:
		return int32(s.ps[k].advance(t, m))
	case s.srpt != nil:
		return int32(s.srpt[k].advance(t, m))
	}
	return int32(s.deps[k].popUntil(t, &s.held))
}

// enqueue brings preemptive server k up to the arrival time t and adds the
// job j, sent by dispatcher j.owner.
func (s *servers) enqueue(k int, t float64, j jobRecord, m *metrics) {
	if s.ps != nil {
		q := &s.ps[k]
		q.advance(t, m)
		q.jobs.reserve(&s.held)
		q.jobs.push(heapJob{key: q.v + j.service, jobRecord: j})
		if q.owned != nil {
			q.owned[j.owner]++
		}
		return
	}
	// Under SRPT its key is all its service time: it preempts the job in
	// service only when strictly shorter than what that job has left.
	q := &s.srpt[k]
	q.advance(t, m)
	q.jobs.reserve(&s.held)
	q.jobs.push(heapJob{key: j.service, jobRecord: j})
	if q.owned != nil {
		q.owned[j.owner]++
	}
}

// drain completes every departure of the preemptive servers.
func (s *servers) drain(m *metrics) {
	for k := range s.ps {
		s.ps[k].advance(math.Inf(1), m)
	}
	for k := range s.srpt {
		s.srpt[k].advance(math.Inf(1), m)
	}
}

// countOwners gives each preemptive server a count of each of m
// dispatchers' jobs there (the own view): m K counts in one array.
func (s *servers) countOwners(m int) {
	all := make([]int32, m*len(s.inv))
	for k := range s.ps {
		s.ps[k].owned = all[k*m : (k+1)*m : (k+1)*m]
	}
	for k := range s.srpt {
		s.srpt[k].owned = all[k*m : (k+1)*m : (k+1)*m]
	}
}

// owned is, under the own view, the count of each dispatcher's jobs at
// preemptive server k (countOwners).
func (s *servers) owned(k int) []int32 {
	if s.ps != nil {
		return s.ps[k].owned
	}
	return s.srpt[k].owned
}

// nextDeparture is the time of the next departure from server k (+Inf if
// idle), as things stand: under PS and SRPT an arrival can delay it.
func (s *servers) nextDeparture(k int) float64 {
	switch {
	case s.ps != nil:
		return s.ps[k].nextDeparture()
	case s.srpt != nil:
		return s.srpt[k].nextDeparture()
	}
	return s.deps[k].front()
}

// fifo is a ring buffer of FCFS departure times; it grows with the queue
// length, never with the number of jobs. Short queues (the usual case under
// JSQ-d) live in the fifo itself: the whole fifo is one 64-byte cache line,
// so counting the jobs of a sampled server at large K costs one cache miss,
// not two dependent ones. The capacity is a power of two: wrapping around is
// a mask rather than a division.
type fifo struct {
	buf        []float64 // inline[:], or a larger buffer while the queue is long
	head, size int32
	inline     [4]float64
}

func (q *fifo) push(x float64, held *backlog) {
	if int(q.size) == len(q.buf) {
		q.grow(held)
	}
	q.buf[(q.head+q.size)&int32(len(q.buf)-1)] = x
	q.size++
}

// grow doubles the buffer (the first is the inline one), charging held
// for the buffers beyond it; a buffer left behind is held's to reuse.
func (q *fifo) grow(held *backlog) {
	nb := q.inline[:]
	if q.buf != nil {
		nb = held.fifoBuffer(max(len(q.inline), 2*len(q.buf)))
		if len(q.buf) > len(q.inline) {
			held.giveBack(q.buf)
		}
	}
	for i := range q.size {
		nb[i] = q.buf[(q.head+i)&int32(len(q.buf)-1)]
	}
	q.buf, q.head = nb, 0
}

func (q *fifo) front() float64 {
	if q.size == 0 {
		return math.Inf(1)
	}
	return q.buf[q.head]
}

// popUntil drops the departures at or before t and returns the jobs left.
// An emptied queue goes back to the inline buffer, and held is credited
// (and keeps the buffer for the next queue that grows).
func (q *fifo) popUntil(t float64, held *backlog) int {
	for q.size > 0 && q.buf[q.head] <= t {
		q.head = (q.head + 1) & int32(len(q.buf)-1)
		q.size--
	}
	if q.size == 0 && len(q.buf) > len(q.inline) {
		held.giveBack(q.buf)
		q.buf, q.head = q.inline[:], 0
	}
	return int(q.size)
}

// psQueue is one processor-sharing server. With n jobs present each receives
// 1/n of the server, so the attained "virtual time" v grows at rate 1/n; a job
// of service time s arriving at virtual time v leaves when v reaches v+s.
// Under the own view owned counts each dispatcher's jobs at the server: a
// job's departure is known only when it happens, so it is the departure
// that takes one from its dispatcher's count.
type psQueue struct {
	v, t  float64 // virtual time at real time t
	jobs  jobHeap // key: the job's virtual finish time
	owned []int32 // under the own view, the jobs of each dispatcher here; else nil
}

// jobRecord is what a preemptive server keeps of a job until it leaves:
// 32 bytes, its dispatcher in the room a flag would take (measured is
// seq >= 0).
type jobRecord struct {
	arrival float64
	service float64 // x/mu
	class   int32
	owner   int32 // the dispatcher that sent it (the own view's count)
	// seq is the job's index among the measured (< 0 in the warm-up): its
	// batch, and its place in arrival order (SRPT's ties).
	seq int64
}

// depart records the job's departure at t in m if it is measured, and
// takes it from its dispatcher's count (owned, under the own view).
func (j *jobRecord) depart(t float64, owned []int32, m *metrics) {
	if owned != nil {
		owned[j.owner]--
	}
	if j.seq >= 0 {
		// Served at a rate of at most 1, a job stays at least its service
		// time: less is the rounding of t, and a wait below 0.
		r := max(t-j.arrival, j.service)
		m.record(j.seq, int(j.class), r-j.service, r)
	}
}

func (q *psQueue) nextDeparture() float64 {
	if len(q.jobs) == 0 {
		return math.Inf(1)
	}
	return q.t + (q.jobs[0].key-q.v)*float64(len(q.jobs))
}

// advance moves the server to real time to, completing (and recording) the
// departures on the way; it returns the number of jobs left.
func (q *psQueue) advance(to float64, m *metrics) int {
	for len(q.jobs) > 0 {
		n := float64(len(q.jobs))
		dt := (q.jobs[0].key - q.v) * n
		if q.t+dt > to {
			q.v += (to - q.t) / n
			q.t = to
			return len(q.jobs)
		}
		q.t += dt
		q.v = q.jobs[0].key
		j := q.jobs.pop()
		j.depart(q.t, q.owned, m)
	}
	q.t = to
	return 0
}
