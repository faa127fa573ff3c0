package lbsim

import "math"

// scanServers is the largest K at which leastWork keeps its live index of
// busy servers as freeScan, a scan of the K free times, rather than as the
// radix heap, whose push, settle and pop cost more than the scan with few
// servers (BenchmarkJIQLWLSmallK: they break even near K = 32).
const scanServers = 24

// scansFree is whether leastWork's live index of k servers is a freeScan.
func scansFree(k int) bool { return k <= scanServers }

// freeScan is leastWork's live index of the busy servers with few servers:
// those not in the idle set, keyed by their free time; no entry a job. It
// hands servers over exactly as the radix heap of their free times would
// (the idle set's order, which the draw among idle servers indexes, is the
// numbers'):
//
//   - drain(t) hands over the busy servers whose free time is at most t, by
//     free time, equal ones the latest sent first (the radix heap pops equal
//     keys last in, first out); the heap's stale entries need no counterpart.
//   - The heap's last key popped is kept: least (LWL with no idle server)
//     makes the least free time m the last key, and the heap's entries of
//     key m (ties, or a job of size 0 sent to the server least chose) are
//     then handed over at the next drain even if m is after its time.
type freeScan struct {
	free []float64 // the servers' free times (servers.free)
	// key is a busy server's free time as of its latest push, +Inf for one
	// handed over: the scan reads one array, and skips idle servers untested.
	key []float64
	// sentAt is each server's latest push: the count of pushes (jobs sent
	// to a server left busy) when it was made, which orders equal free times.
	sentAt []uint64
	pushes uint64
	last   float64 // the radix heap's last key popped
	// next is at most the least free time of a busy server (+Inf: none), and
	// is it after a scan: drain has nothing to do while next > t, != last.
	next float64
	due  []int32 // scratch: the servers a drain hands over
}

func newFreeScan(free []float64) *freeScan {
	f := &freeScan{free: free, key: make([]float64, len(free)), sentAt: make([]uint64, len(free)), next: math.Inf(1), due: make([]int32, 0, len(free))}
	for k := range f.key {
		f.key[k] = math.Inf(1)
	}
	return f
}

// before is whether server a comes out of the heap before server b: the
// smaller free time, or of equal ones the later push.
func (f *freeScan) before(a, b int32) bool {
	fa, fb := f.key[a], f.key[b]
	return fa < fb || fa == fb && f.sentAt[a] > f.sentAt[b]
}

// drain adds to idle, in the heap's order, the busy servers whose work is
// done by t (and those whose free time is last).
func (f *freeScan) drain(t float64, idle *indexSet) {
	if f.next > t && f.next != f.last {
		return
	}
	next, due, last := math.Inf(1), f.due[:0], f.last
	for k, fk := range f.key {
		if fk <= t || fk == last {
			// Insertion in the heap's order: a drain hands over a few servers.
			i := len(due)
			due = append(due, int32(k))
			for i > 0 && f.before(int32(k), due[i-1]) {
				due[i] = due[i-1]
				i--
			}
			due[i] = int32(k)
		} else {
			next = min(next, fk)
		}
	}
	if len(due) > 0 {
		f.last = f.key[due[len(due)-1]]
	}
	for _, k := range due {
		idle.add(int(k))
		f.key[k] = math.Inf(1)
	}
	f.next, f.due = next, due
}

// least is the busy server the heap's min would give when no server is
// idle, and makes its free time the last key.
func (f *freeScan) least() int {
	best := int32(0)
	for k := range int32(len(f.free)) {
		if f.before(k, best) {
			best = k
		}
	}
	f.last, f.next = f.key[best], f.key[best]
	return int(best)
}

// push files server k, busy, under its free time, as its latest entry.
func (f *freeScan) push(k int) {
	f.pushes++
	f.sentAt[k] = f.pushes
	f.key[k] = f.free[k]
	f.next = min(f.next, f.key[k])
}
