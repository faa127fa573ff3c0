package lbsim

// heapJob is a job at a preemptive server, kept in its server's jobHeap
// until it leaves: 40 bytes, keyed by its place in the order (preemptiveQueue).
type heapJob struct {
	key float64
	jobRecord
}

// before orders jobs by key, ties to the earlier arrival (SRPT's equal
// remaining times; under PS equal finish times leave together).
func (a *heapJob) before(b *heapJob) bool {
	return a.key < b.key || a.key == b.key && a.seq < b.seq
}

// jobHeap is a binary min-heap of jobs in before's order: one heap for both
// preemptive disciplines, concrete so that each comparison is inlined.
type jobHeap []heapJob

// reserve makes room for one more job, charged to held, apart so that push stays small.
func (h *jobHeap) reserve(held *backlog) {
	if len(*h) == cap(*h) {
		*h = growHeld(held, *h)
	}
}

// push adds j (after reserve): the jobs above j's place move down a level
// each, and j is written once, not at every level as by swaps.
func (h *jobHeap) push(j heapJob) {
	s := append(*h, j)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !j.before(&s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = j
	*h = s
}

// pop removes the least job of the non-empty heap: the last job sinks from
// the top, the lesser child moving up at each level, and is written once.
func (h *jobHeap) pop() heapJob {
	s := *h
	top := s[0]
	last := len(s) - 1
	x := s[last]
	s = s[:last]
	if last > 0 {
		i := 0
		for {
			l := 2*i + 1
			if l >= last {
				break
			}
			m := l
			if r := l + 1; r < last && s[r].before(&s[l]) {
				m = r
			}
			if !s[m].before(&x) {
				break
			}
			s[i] = s[m]
			i = m
		}
		s[i] = x
	}
	*h = s
	return top
}
