package lbsim

import "math"

// board is the dispatcher's view of the servers when it reads stale
// information: a snapshot of every server's workload or job count, taken
// every period (at offset + its multiples: offset 0 but for staggered
// boards), plus with tally the dispatcher's own sends since.
type board struct {
	period, offset, next, r0 float64
	tally                    bool
	refreshes                int64 // snapshots taken, each K messages (Result.MessagesPerJob)
	// work[k] is the board's "free time" max(free_k, r0) (+ tallied work):
	// comparing it orders servers by workload, as workload = work[k] - r0.
	work  []float64
	count []int32
}

func newBoard(k int, period float64, tally bool, reads State) *board {
	b := &board{period: period, tally: tally}
	if reads&Workload != 0 {
		b.work = make([]float64, k)
	}
	if reads&Count != 0 {
		b.count = make([]int32, k)
	}
	return b
}

// boardBytes is the memory of a board of k servers reading the given state.
func boardBytes(k int, reads State) int64 {
	var b int64
	if reads&Workload != 0 {
		b += 8
	}
	if reads&Count != 0 {
		b += 4
	}
	return allocBytes(b * int64(k))
}

// due reports whether the board must be refreshed before time t.
func (b *board) due(t float64) bool { return t >= b.next }

// refresh snapshots the state at the last refresh instant r0 <= t: no job
// arrived between r0 and t, so the servers' lazily kept state is r0's.
func (b *board) refresh(t float64, srv *servers, m *metrics) {
	b.r0, b.next = b.instant(t)
	b.refreshes++
	for k := range srv.free {
		if b.work != nil {
			b.work[k] = max(srv.free[k], b.r0)
		}
		if b.count != nil {
			b.count[k] = srv.count(k, b.r0, m)
		}
	}
}

// instant is the last refresh instant r0 <= t and the next one. Before a
// staggered board's first instant the system is empty, as at r0 = 0.
func (b *board) instant(t float64) (r0, next float64) {
	if b.offset == 0 {
		r0 = math.Floor(t/b.period) * b.period
		return r0, r0 + b.period
	}
	r0 = math.Floor((t-b.offset)/b.period)*b.period + b.offset
	return max(r0, 0), r0 + b.period
}

// copyFrom takes the snapshot of a board just refreshed at the same
// instant: a refresh without reading the servers.
func (b *board) copyFrom(o *board) {
	b.r0, b.next = o.r0, o.next
	b.refreshes++
	copy(b.work, o.work)
	copy(b.count, o.count)
}

// sent tallies a job of service time s sent to server k.
func (b *board) sent(k int, s float64) {
	if !b.tally {
		return
	}
	if b.work != nil {
		b.work[k] += s
	}
	if b.count != nil {
		b.count[k]++
	}
}
