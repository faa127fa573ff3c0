package lbsim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"
)

// The backlog is the per-job state of the jobs in the system (perJobBytes):
// FCFS departure queues, live indexes, PS and SRPT queues. A stable system
// keeps it small; an unstable one (load >= 1 with -overload, a ramp above 1)
// grows it with every job. Each replication charges the capacity of those
// buffers as they grow (twice for a slice grown by a copy: growHeld), and
// ends with an error at the limit (Config.backlogLimit), so that no
// configuration needs more than MaxMemory.

// backlog is one replication's account of per-job state, in bytes.
type backlog struct {
	bytes, limit int64
	// spare holds the emptied departure queues' buffers, by log2 of their
	// length, for the next queue to grow: queues rise and empty again and
	// again, and each rise would allocate. Released from the account, they
	// stay below its peak.
	spare [32][][]float64
}

// heldAll is the per-job state of every replication running in this process:
// a sweep runs several configurations side by side (RunEach), so the limit
// bounds their sum.
var heldAll atomic.Int64

// grow charges n bytes; past the limit the replication panics, which
// runReplication turns into an error. It runs only when a buffer grows.
func (b *backlog) grow(n int64) {
	b.bytes += n
	if heldAll.Add(n) > b.limit {
		panic(backlogFull{b.bytes})
	}
}

func (b *backlog) release(n int64) {
	b.bytes -= n
	heldAll.Add(-n)
}

// fifoBuffer is a departure queue's buffer of n (a power of two) times,
// charged: a spare one if there is one.
func (b *backlog) fifoBuffer(n int) []float64 {
	b.grow(fifoJobBytes * int64(n))
	i := bits.TrailingZeros(uint(n))
	if s := b.spare[i]; len(s) > 0 {
		b.spare[i] = s[:len(s)-1]
		return s[len(s)-1]
	}
	return make([]float64, n)
}

// giveBack credits a departure queue's buffer and keeps it for reuse.
func (b *backlog) giveBack(buf []float64) {
	b.release(fifoJobBytes * int64(len(buf)))
	i := bits.TrailingZeros(uint(len(buf)))
	b.spare[i] = append(b.spare[i], buf)
}

// done returns what the ended replication held to the shared account.
func (b *backlog) done() { b.release(b.bytes) }

// growHeld makes room in the full slice s for one more element, as append
// would, and charges the growth to held (if not nil). Callers test len(s)
// == cap(s) first, which keeps this call out of the run loop.
//
//go:noinline
func growHeld[T any](held *backlog, s []T) []T {
	c := cap(s)
	s = slices.Grow(s, 1)
	if held != nil { // twice: the buffer and the copy it was grown from
		held.grow(2 * int64(cap(s)-c) * int64(unsafe.Sizeof(s[:1][0])))
	}
	return s
}

// backlogFull carries a replication's full backlog out of the run loop.
type backlogFull struct{ bytes int64 }

// backlogError is the error of a backlog at the limit, with n jobs held in
// what: an unstable system's (overloaded, a ramp, a trace), or a stable
// one's whose other memory left little room (backlogFix says what holds it).
func (c *Config) backlogError(bytes int64, n int64, what string) error {
	head := fmt.Sprintf("the backlog reached %d jobs in %s (about %s of per-job state, the limit for a replication within lbsim's %s)",
		n, what, bytesText(bytes), bytesText(memoryLimit))
	if _, ramp := c.arrivals().(Ramp); c.Trace == nil && !ramp && c.Load < 1 {
		return fmt.Errorf("%s, %s a job at load %v: %s", head, bytesText(bytes/max(n, 1)), c.Load, c.backlogFix())
	}
	return fmt.Errorf("%s: the system is unstable at this load; lower the load, or give fewer -jobs with -overload", head)
}

// heldJobs is the number of jobs in the replication's per-job state, and
// the structure holding them: the largest (a job may be in two).
func (s *sim) heldJobs() (int64, string) {
	var fifos, queued int64
	for i := range s.srv.deps {
		fifos += int64(s.srv.deps[i].size)
	}
	for i := range s.srv.queues {
		queued += int64(len(s.srv.queues[i].jobs))
	}
	n, what := fifos, "the servers' departure queues"
	if queued > n {
		n, what = queued, "the "+strings.ToUpper(s.cfg.Discipline.String())+" queues"
	}
	var own int64 // the own views' departures (or indexes), of every dispatcher
	if s.many != nil && (s.cfg.View == OwnView || s.own != nil) {
		for i, f := range s.many.fronts {
			if h, ok := f.disp.(holder); ok && f.own == nil {
				m, _ := h.held()
				own += int64(m)
			} else if f.own != nil && (i == 0 || f.own != s.many.fronts[0].own) { // the live view's is shared
				own += int64(f.own.jobs())
			}
		}
		if own > n {
			n, what = own, "the dispatchers' own views"
		}
		return n, what
	}
	if s.own != nil && int64(s.own.jobs()) > n {
		n, what = int64(s.own.jobs()), "the own view's departure queues"
	}
	if h, ok := s.disp.(holder); ok {
		if m, w := h.held(); int64(m) > n {
			n, what = int64(m), w
		}
	}
	return n, what
}

// holder is a dispatcher with per-job state of its own (the live indexes
// of JSQ, LWL, JIQ and LSQ): held is the number of jobs in it, and its name.
type holder interface{ held() (int, string) }

// Bytes a job in the system holds, by structure.
const (
	fifoJobBytes  = 8                                 // a departure time
	indexJobBytes = int64(unsafe.Sizeof(heapEntry{})) // a radix-heap entry
	heapJobBytes  = int64(unsafe.Sizeof(heapJob{}))
)

// perJobBytes is the per-job state a job in the system holds under c: PS
// or SRPT queues; under FCFS, departure queues when job counts are read (by
// the policy, on a board, or sampled), and the policy's live indexes
// (jobIndexes; LWL's holds about two a server, but is counted a job each).
func (c *Config) perJobBytes() int64 {
	if c.Discipline.Preemptive() {
		return heapJobBytes
	}
	desc := describe(c.Policy, c)
	index := desc.jobIndexes > 0
	b := indexJobBytes * desc.jobIndexes
	if c.View == OwnView && c.SampleEvery > 0 {
		b += fifoJobBytes // the dispatcher's, beside the servers' for the time series
	}
	// The departure FIFOs: the servers', or under the own view the
	// dispatchers' (one a job), or for JSQ and SED over all K the index.
	if c.SampleEvery > 0 || (c.Policy != nil && desc.Reads&Count != 0 && !index) {
		b += fifoJobBytes
	}
	return b
}

// backlogReserve is the backlog each replication is sure to have room for,
// in jobs, and the bytes each holds (perJobBytes): K jobs (one a server),
// and beyond them 20 times the mean number a random split holds in a
// stable system (Pollaczek-Khinchine: rho + rho^2 (1 + C^2)/(2 (1 - rho)) a
// server, the reference the stability rules use), at most 10^5 (a long
// queue at load 0.99 with heavy-tailed sizes): for a trace, a ramp, an
// overload or sizes of infinite variance, 10^5. A backlog beyond it still
// runs until the limit (backlogLimit), and ends in backlogError there.
func (c *Config) backlogReserve() (jobs, perJob int64) {
	const most = 100_000
	jobs = most
	_, ramp := c.arrivals().(Ramp)
	if rho := c.Load; c.Trace == nil && !ramp && rho > 0 && rho < 1 {
		if m2, m := c.sizes().SecondMoment(), c.sizes().Mean(); !math.IsInf(m2, 1) {
			each := rho + rho*rho*(m2/(m*m))/(2*(1-rho)) // (1 + C^2) = E[X^2]/E[X]^2
			jobs = int64(min(most, math.Ceil(20*each*float64(c.Servers))))
		}
	}
	return max(jobs, int64(c.Servers)), c.perJobBytes()
}

// backlogFix is what lowers the backlog's room: the dispatchers' copies of
// each job (JSQ over all K, live, keeps one an index), or the load.
func (c *Config) backlogFix() string {
	if n := describe(c.Policy, c).jobIndexes; n > 1 {
		return fmt.Sprintf("lower M (each of the %d dispatchers' indexes holds every job; -view own keeps each job in its dispatcher's only)", n)
	}
	return "lower the load or K"
}

// backlogLimit is the per-job state the replications running at once may
// hold in all (heldAll): half of the memory the rest of the configuration
// leaves, the other half for old copies and the collector's slack.
// checkBounds makes it at least backlogReserve a replication running at once.
func (c *Config) backlogLimit() int64 {
	return (memoryLimit - c.fixedMemory()) / 2
}
