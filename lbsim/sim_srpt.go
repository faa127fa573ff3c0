package lbsim

import "math"

// srptQueue is one server under preemptive shortest remaining processing
// time (SRPT): its jobs in a min-heap on (remaining service time, arrival
// order), the job in service at the top. A waiting job's remaining time
// does not change; the top's only falls, so the top stays the least, and an
// arrival preempts it only when strictly shorter than what it has left:
// equal remaining times are served in arrival order, so equal sizes are
// served FCFS. Times are in the server's own units (service = size/mu_k).
type srptQueue struct {
	t     float64   // the time the top's remaining time is for
	jobs  []srptJob // min-heap on (rem, seq); jobs[0] in service
	owned []int32   // under the own view, the jobs of each dispatcher here; else nil
}

// srptJob is a job at an SRPT server: 40 bytes.
type srptJob struct {
	rem float64 // remaining service time: at q.t for the top, else since it last left service
	jobRecord
}

// before is SRPT's order: the shorter remaining time, ties to the earlier arrival.
func (a *srptJob) before(b *srptJob) bool {
	return a.rem < b.rem || a.rem == b.rem && a.seq < b.seq
}

func (q *srptQueue) nextDeparture() float64 {
	if len(q.jobs) == 0 {
		return math.Inf(1)
	}
	return q.t + q.jobs[0].rem
}

// advance moves the server to real time to, completing (and recording) the
// departures on the way; it returns the number of jobs left.
func (q *srptQueue) advance(to float64, m *metrics) int {
	for len(q.jobs) > 0 {
		top := &q.jobs[0]
		if done := q.t + top.rem; done > to {
			top.rem = orZero(top.rem - (to - q.t)) // not below 0 by rounding
			break
		} else {
			q.t = done
		}
		j := q.pop() // the next one starts (or resumes) at q.t with its rem
		j.depart(q.t, q.owned, m)
	}
	q.t = to
	return len(q.jobs)
}

// reserve makes room for one more job, charged to held; push needs it
// (apart, so that push stays small).
func (q *srptQueue) reserve(held *backlog) {
	if len(q.jobs) == cap(q.jobs) {
		q.jobs = growHeld(held, q.jobs)
	}
}

// push adds a job arriving at q.t (advance first): it preempts the job in
// service if it needs strictly less than that job's remaining time.
func (q *srptQueue) push(j jobRecord) {
	q.jobs = append(q.jobs, srptJob{rem: j.service, jobRecord: j})
	i := len(q.jobs) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.jobs[i].before(&q.jobs[p]) {
			break
		}
		q.jobs[p], q.jobs[i] = q.jobs[i], q.jobs[p]
		i = p
	}
}

func (q *srptQueue) pop() srptJob {
	top := q.jobs[0]
	last := len(q.jobs) - 1
	q.jobs[0] = q.jobs[last]
	q.jobs = q.jobs[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && q.jobs[r].before(&q.jobs[l]) {
			m = r
		}
		if !q.jobs[m].before(&q.jobs[i]) {
			break
		}
		q.jobs[i], q.jobs[m] = q.jobs[m], q.jobs[i]
		i = m
	}
	return top
}
