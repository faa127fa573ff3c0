package lbsim

import "math"

// Looking ahead, under PS and SRPT beyond farServers, where a job's reads
// of its server (its queue's record, then its heap of jobs, then its free
// time, speed and work done) are cache misses, one after the other and
// after the last job's. A dispatcher whose draws do not depend on the state
// (RND, the pairs of LL-2 and JSQ-2) names the servers its next jobs will
// look at, drawing from a copy of its stream, and the run loads their
// state before the block (servers.touch): independent loads, whose misses
// overlap. The dispatcher's own draws are unchanged, so the numbers are the
// same; a wrong guess would only cost time.

// foreseer is a dispatcher that can name the servers its next picks will read.
type foreseer interface {
	// foresee appends to out the servers the next n picks will read (all
	// of them, if a pick reads several), or nothing if it cannot say.
	foresee(n int, out []int32) []int32
}

// lookAhead is the dispatcher the run looks ahead for, if any (a
// preemptive discipline, far servers, one dispatcher that can foresee).
func (s *sim) lookAhead() foreseer {
	if !s.srv.preemptive() || s.k <= farServers {
		return nil
	}
	f, _ := s.disp.(foreseer)
	return f
}

// touchAhead loads the state of the servers the block's n jobs will read.
func (s *sim) touchAhead(f foreseer, n int) {
	s.ahead = f.foresee(n, s.ahead[:0])
	var sum uint64
	for _, k := range s.ahead {
		sum += s.srv.touch(int(k))
	}
	s.touched += sum
}

// touch loads what a job sent to preemptive server k reads first, and
// returns a sum of it, which only keeps the loads from being dropped.
func (s *servers) touch(k int) uint64 {
	sum := math.Float64bits(s.free[k]) + math.Float64bits(s.inv[k]) + math.Float64bits(s.busy[k])
	jobs := s.queues[k].jobs
	if n := len(jobs); n > 0 { // the least job, and the last, where a push starts
		sum += math.Float64bits(jobs[0].key) + math.Float64bits(jobs[n-1].key)
	}
	return sum
}
