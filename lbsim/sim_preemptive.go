package lbsim

import "math"

// preemptiveQueue is one server under a preemptive discipline: a later
// arrival can delay a job's departure, so the server keeps its jobs in a
// jobHeap ordered by the discipline's rule (jobOrder, passed in so that a
// queue is one 64-byte cache line), brought up to a time (advance) to find
// its departures. Times are in the server's units (service = size/mu_k).
//
// virtualFinish (PS): with n jobs present each receives 1/n of the server,
// so the attained "virtual time" v grows at rate 1/n; a job of service time
// s arriving at virtual time v has key v+s, and leaves when v reaches it:
// the top after (key-v) n of real time.
//
// remainingWork (SRPT): a job's key is its remaining service time; only
// the top is served, at rate 1, so its key only falls and it stays the
// least. An arrival preempts it only when strictly shorter: equal remaining
// times are served in arrival order (jobHeap's ties), so equal sizes FCFS.
type preemptiveQueue struct {
	v, t  float64         // PS's virtual time at real time t, the time the server is brought up to
	jobs  jobHeap         // under SRPT the top's key is what it has left at t
	watch *departureWatch // what the dispatchers count of its jobs (the own view, a delay); else nil
}

// departureWatch is what a preemptive server keeps for the dispatchers'
// counts (policy_view_own.go): under the own view each dispatcher's jobs
// here (owned); with a delay D the departures not yet seen (late), one
// FIFO a dispatcher under the own view, one for all under the live view.
type departureWatch struct {
	owned []int32
	late  []fifo
	held  *backlog
	// tell, one a dispatcher (shared by the servers), are the dispatchers
	// told of their own jobs' departures as the server finds them (EWMA's
	// responses); nil: none is. k is the server.
	tell []completionWatcher
	k    int
}

// completionWatcher is a dispatcher told of each of its own jobs' departure
// from a preemptive server, when the server finds it (its advance: any
// time up to the instant it is brought to): server k, the departure, the
// job's response time. It learns of it when it sees it (Config.Delay).
type completionWatcher interface {
	departed(k int, at, response float64)
}

// departed takes job j, left at t after response r, from its dispatcher's
// count, keeps its departure until seen with a delay, and tells its dispatcher.
func (w *departureWatch) departed(j *jobRecord, t, r float64) {
	i := j.owner
	if w.owned != nil {
		w.owned[i]--
	}
	if w.late != nil {
		w.late[min(int(i), len(w.late)-1)].push(t, w.held)
	}
	if w.tell != nil && w.tell[i] != nil {
		w.tell[i].departed(w.k, t, r)
	}
}

// key is the place in the order of a job of service time s arriving now:
// its virtual finish time v+s under PS, all its service time under SRPT.
func (q *preemptiveQueue) key(s float64, o jobOrder) float64 {
	if o == virtualFinish {
		return q.v + s
	}
	return s
}

// nextDeparture is the time of the next departure (+Inf if idle), as
// things stand: the top's, under PS after (key-v) n, under SRPT its key.
func (q *preemptiveQueue) nextDeparture(o jobOrder) float64 {
	if len(q.jobs) == 0 {
		return math.Inf(1)
	}
	if o == virtualFinish {
		return q.t + (q.jobs[0].key-q.v)*float64(len(q.jobs))
	}
	return q.t + q.jobs[0].key
}

// advance moves the server to real time to, recording the departures on the
// way, and returns the jobs left: one loop a rule, not a test a departure.
func (q *preemptiveQueue) advance(to float64, o jobOrder, m *metrics) int {
	if o == virtualFinish {
		for len(q.jobs) > 0 {
			n := float64(len(q.jobs))
			dt := (q.jobs[0].key - q.v) * n
			if q.t+dt > to { // all served for to-t
				q.v += (to - q.t) / n
				break
			}
			q.t += dt
			q.v = q.jobs[0].key
			j := q.jobs.pop()
			j.depart(q.t, q.watch, m)
		}
	} else {
		for len(q.jobs) > 0 {
			top := &q.jobs[0]
			done := q.t + top.key
			if done > to {
				top.key = orZero(top.key - (to - q.t)) // served for to-t; not below 0 by rounding
				break
			}
			q.t = done
			j := q.jobs.pop() // the next starts (or resumes) at t
			j.depart(q.t, q.watch, m)
		}
	}
	q.t = to
	return len(q.jobs)
}

// jobRecord is what a preemptive server keeps of a job until it leaves:
// 32 bytes, its dispatcher in the room a flag would take (measured: 0 <= seq < jobs).
type jobRecord struct {
	arrival float64
	service float64 // x/mu
	class   int32
	owner   int32 // the dispatcher that sent it (the own view's count)
	// seq is the job's index among the measured (< 0 in the warm-up, at
	// least the jobs measured in the tail, sim.hasTail): its batch, and its
	// place in arrival order (the heap's ties).
	seq int64
}

// measured reports whether the job is one of the jobs measured: not in the
// warm-up (seq < 0) nor in the tail (seq >= jobs, sim.hasTail).
func (j *jobRecord) measured(jobs int64) bool { return uint64(j.seq) < uint64(jobs) }

// depart records the job's departure at t in m if it is measured, and
// tells the dispatchers' counts (watch).
func (j *jobRecord) depart(t float64, w *departureWatch, m *metrics) {
	// Served at a rate of at most 1, a job stays at least its service
	// time: less is the rounding of t, and a wait below 0.
	r := max(t-j.arrival, j.service)
	if w != nil {
		w.departed(j, t, r)
	}
	if j.measured(m.jobs()) {
		m.record(j.seq, int(j.class), r-j.service, r, j.service)
	}
}

// holdsMeasured reports whether the queue still holds a job of seq in
// [0, jobs), as last brought up to date.
func (q *preemptiveQueue) holdsMeasured(jobs int64) bool {
	for i := range q.jobs {
		if q.jobs[i].measured(jobs) {
			return true
		}
	}
	return false
}
