package lbsim

import "math"

// Looking ahead, under PS and SRPT at large K. A job's server there reads
// its queue's record, then its heap of jobs, then its free time, speed and
// work done: beyond farServers each a cache miss, the first two one after
// the other, and each job's after the last one's (about 100 ns each: PS at
// K = 100,000 ran at a quarter of its K = 100 rate). A dispatcher whose
// draws do not depend on the state (RND, and the pairs of LL-2 and JSQ-2)
// can say which servers its next jobs will look at, by drawing from a
// copy of its stream; the run loads their state before the block
// (servers.touch), with the loads independent of one another, so that
// the processor has many misses in flight at once and the jobs then find
// the state in cache. The dispatcher's own draws are not changed, so the
// numbers are the same; a wrong guess would only cost time.

// foreseer is a dispatcher that can name the servers its next picks will
// look at.
type foreseer interface {
	// foresee appends to out the servers the next n picks will read (all
	// of them, if a pick reads several), or nothing if it cannot say.
	foresee(n int, out []int32) []int32
}

// lookAhead is whether the run looks ahead (a preemptive discipline, far
// servers, one dispatcher that can foresee its picks), and for which
// dispatcher.
func (s *sim) lookAhead() foreseer {
	if !s.srv.preemptive() || s.k <= farServers {
		return nil
	}
	f, _ := s.disp.(foreseer)
	return f
}

// touchAhead loads the state of the servers the block's n jobs will look
// at (see above).
func (s *sim) touchAhead(f foreseer, n int) {
	s.ahead = f.foresee(n, s.ahead[:0])
	var sum uint64
	for _, k := range s.ahead {
		sum += s.srv.touch(int(k))
	}
	s.touched += sum
}

// touch loads what a job sent to preemptive server k reads first (its
// queue's record, its least and last jobs, its free time, speed and work done), and
// returns a sum of it, which only keeps the loads from being dropped.
func (s *servers) touch(k int) uint64 {
	sum := math.Float64bits(s.free[k]) + math.Float64bits(s.inv[k]) + math.Float64bits(s.busy[k])
	jobs := s.queues[k].jobs
	if n := len(jobs); n > 0 { // the least job, and the last, where a push starts
		sum += math.Float64bits(jobs[0].key) + math.Float64bits(jobs[n-1].key)
	}
	return sum
}
