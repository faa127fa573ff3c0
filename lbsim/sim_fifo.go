package lbsim

import "math"

// fifo is a ring buffer of FCFS departure times, growing with the queue.
// Short queues (the usual case under JSQ-d) fit in the fifo's 64-byte cache
// line, so counting a sampled server's jobs at large K is one cache miss,
// not two dependent ones; a power-of-two capacity wraps by a mask.
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

// lastUntil is the last departure at or before t, -Inf if none.
func (q *fifo) lastUntil(t float64) float64 {
	last := math.Inf(-1)
	for i := range q.size {
		x := q.buf[(q.head+i)&int32(len(q.buf)-1)]
		if x > t {
			break
		}
		last = x
	}
	return last
}

// popUntil drops the departures at or before t and returns the jobs left.
// An emptied queue goes back to its inline buffer, its long one to held.
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
