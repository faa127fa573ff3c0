package lbsim

import "math"

// servers is the state of the K queues. Whatever the discipline, free[k]
// is when server k's workload reaches zero: the workload at t is
// max(free[k]-t, 0), as FCFS, PS and SRPT are work-conserving, and under
// FCFS the arriving job's wait (Lindley's recursion), without events. Job
// counts need departures: under FCFS they are known at dispatch, kept in a
// FIFO a server when counts are read; under PS and SRPT a later arrival
// can delay them, so each server keeps its jobs (sim_preemptive.go).
type servers struct {
	// Separate arrays, not a record a server: the sampled free times are on
	// the critical path, and at 8 bytes K = 100,000 of them fit in L2 cache.
	inv  []float64 // 1/mu_k
	free []float64
	busy []float64 // work of measured jobs, in time units, per server
	unit bool      // every speed is 1: service time = size, inv is not read
	// Beyond farServers, with at most 256 distinct speeds, group[k] is
	// server k's speed group (speedGroups) and groupInv[g] its 1/mu, which
	// service reads instead of inv: at a byte a server K = 100,000 of them
	// stay in L2 cache, where inv's 8 bytes are a cache miss a job.
	group    []uint8
	groupInv []float64

	counting bool
	order    jobOrder          // the rule that orders a server's jobs (disciplines)
	deps     []fifo            // arrivalOrder: the departure times, when counting
	queues   []preemptiveQueue // any other order: the jobs
	held     backlog           // the per-job state of deps, queues and the dispatcher's index
	tailFrom int               // the servers before it hold no measured job (measuredGone)
}

func newServers(speeds []float64, disc Discipline, counting bool) *servers {
	k := len(speeds)
	s := &servers{inv: make([]float64, k), free: make([]float64, k), busy: make([]float64, k), counting: counting,
		order: disciplines[disc].order}
	s.unit = true
	for i, mu := range speeds {
		s.inv[i] = 1 / mu
		s.unit = s.unit && mu == 1
	}
	if k > farServers && !s.unit {
		s.groupSpeeds(speeds)
	}
	switch {
	case s.order != arrivalOrder:
		s.queues = make([]preemptiveQueue, k)
	case counting:
		s.deps = make([]fifo, k)
	}
	return s
}

// preemptive is whether a job's departure can move after it is sent (PS,
// SRPT): the servers then keep their jobs (queues).
func (s *servers) preemptive() bool { return s.queues != nil }

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

// lateWork is a job's service time at server k, added to the server's work
// done after its block (addLate): beyond farServers busy[k] is a cache
// miss, which added job by job holds up the jobs after it; added after the
// block, in the same order (the same sums), the misses overlap.
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
// server k's work, and returns when its service starts under FCFS,
// max(free_k, t), without a branch: whether a job waits is a coin toss.
func (s *servers) join(k int, t, service float64) (start float64) {
	start = later(s.free[k], t)
	s.free[k] = start + service
	return start
}

// count is the number of jobs at server k at time t (t must not decrease
// for a server); under PS and SRPT it records the departures due by t in m.
func (s *servers) count(k int, t float64, m *metrics) int32 {
	if s.queues != nil {
		return int32(s.queues[k].advance(t, s.order, m))
	}
	return int32(s.deps[k].popUntil(t, &s.held))
}

// enqueue brings preemptive server k up to the arrival time t and adds the job j.
func (s *servers) enqueue(k int, t float64, j jobRecord, m *metrics) {
	q := &s.queues[k]
	q.advance(t, s.order, m)
	q.jobs.reserve(&s.held)
	q.jobs.push(heapJob{key: q.key(j.service, s.order), jobRecord: j})
	if w := q.watch; w != nil && w.owned != nil {
		w.owned[j.owner]++
	}
}

// measuredGone reports whether every measured job (seq < jobs) has left the
// preemptive servers by t, the latest arrival. A server idle by t (free[k]
// <= t) has: no arrival has reached it since it was last brought up to
// date, so draining it (drain) records its departures as they happened.
// A busy one has if it holds none, as last brought up to date. Once gone,
// gone (the tail brings no measured job): servers before tailFrom are not
// looked at again.
func (s *servers) measuredGone(t float64, jobs int64) bool {
	for ; s.tailFrom < len(s.queues); s.tailFrom++ {
		if k := s.tailFrom; s.free[k] > t && s.queues[k].holdsMeasured(jobs) {
			return false
		}
	}
	return true
}

// cutShort is a server still holding measured jobs at the end of a tail:
// how many, and the work it has left (free[k] - t), which bounds the time
// they take to leave without further arrivals.
type cutShort struct {
	k    int
	jobs int64
	work float64
}

// measuredLeft lists the servers busy beyond t that hold measured jobs, as
// last brought up to date (measuredGone).
func (s *servers) measuredLeft(t float64, jobs int64) []cutShort {
	var out []cutShort
	for k := range s.queues {
		if s.free[k] <= t {
			continue
		}
		c := cutShort{k: k, work: s.free[k] - t}
		for _, j := range s.queues[k].jobs {
			if j.measured(jobs) {
				c.jobs++
			}
		}
		if c.jobs > 0 {
			out = append(out, c)
		}
	}
	return out
}

// drain completes every departure of the preemptive servers.
func (s *servers) drain(m *metrics) {
	for k := range s.queues {
		s.queues[k].advance(math.Inf(1), s.order, m)
	}
}

// watchDepartures gives each preemptive server a departureWatch: with
// owners > 0 (the own view) a count of each dispatcher's jobs, in one
// array; with late, a FIFO of the departures not yet seen, one a
// dispatcher (own view) or one for all.
func (s *servers) watchDepartures(owners int, late bool) {
	all := make([]int32, owners*len(s.inv))
	for k := range s.queues {
		w := &departureWatch{held: &s.held, k: k}
		if owners > 0 {
			w.owned = all[k*owners : (k+1)*owners : (k+1)*owners]
		}
		if late {
			w.late = make([]fifo, max(owners, 1))
		}
		s.queues[k].watch = w
	}
}

// watchCompletions has each preemptive server tell dispatcher i < m, if
// told[i] is set, of its own jobs' departures (completionWatcher): told,
// shared by the servers, is returned for the dispatchers to fill.
func (s *servers) watchCompletions(m int) []completionWatcher {
	told := make([]completionWatcher, m)
	for k := range s.queues {
		if s.queues[k].watch == nil {
			s.queues[k].watch = &departureWatch{held: &s.held, k: k}
		}
		s.queues[k].watch.tell = told
	}
	return told
}

// owned is the count of each dispatcher's jobs at preemptive server k.
func (s *servers) owned(k int) []int32 { return s.queues[k].watch.owned }

// nextDeparture is the time of server k's next departure (+Inf if idle), as things stand.
func (s *servers) nextDeparture(k int) float64 {
	if s.queues != nil {
		return s.queues[k].nextDeparture(s.order)
	}
	return s.deps[k].front()
}
