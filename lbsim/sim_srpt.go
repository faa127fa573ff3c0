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
	t     float64 // the time the top's remaining time is for
	jobs  jobHeap // key: the remaining service time, at t for jobs[0] (in service), else since it last left service
	owned []int32 // under the own view, the jobs of each dispatcher here; else nil
}

func (q *srptQueue) nextDeparture() float64 {
	if len(q.jobs) == 0 {
		return math.Inf(1)
	}
	return q.t + q.jobs[0].key
}

// advance moves the server to real time to, completing (and recording) the
// departures on the way; it returns the number of jobs left.
func (q *srptQueue) advance(to float64, m *metrics) int {
	for len(q.jobs) > 0 {
		top := &q.jobs[0]
		if done := q.t + top.key; done > to {
			top.key = orZero(top.key - (to - q.t)) // not below 0 by rounding
			break
		} else {
			q.t = done
		}
		j := q.jobs.pop() // the next one starts (or resumes) at q.t with its rem
		j.depart(q.t, q.owned, m)
	}
	q.t = to
	return len(q.jobs)
}
