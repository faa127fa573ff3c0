package lbsim

import (
	"math"
	"testing"
)

// TestFifoReusesBuffers: a departure queue that rises past its inline
// buffer and empties, again and again (a server's queue under JSQ-2),
// allocates only on its first rise: the emptied queue's buffer is kept
// for the next (backlog.spare). Its times come out in order, and the
// account is back to zero whenever it is empty.
func TestFifoReusesBuffers(t *testing.T) {
	held := backlog{limit: math.MaxInt64}
	var q fifo
	rise := func() {
		for i := range 10 {
			q.push(float64(i), &held)
		}
		if n := q.popUntil(4.5, &held); n != 5 || q.front() != 5 {
			t.Fatalf("after popping the times up to 4.5 of 0..9: %d left, front %g; want 5 left, front 5", n, q.front())
		}
		if n := q.popUntil(9, &held); n != 0 || held.bytes != 0 {
			t.Fatalf("after popping all: %d left, %d bytes held; want 0 and 0", n, held.bytes)
		}
	}
	rise()
	if allocs := testing.AllocsPerRun(100, rise); allocs != 0 {
		t.Errorf("a queue rising to 10 and emptying allocates %g times a rise after the first; want 0", allocs)
	}
}
