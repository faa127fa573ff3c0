package lbsim

import (
	"fmt"
)

// Policy is a dispatching policy: it sends each arriving job to one server.
// The policies are Random, RoundRobin, LeastLoaded (LL-d and LWL), JSQ (JSQ-d
// and JSQ) and SITA.
type Policy interface {
	// String is the policy spec that ParsePolicy reads back (e.g. "ll:d=2").
	String() string
	// Validate checks the policy against the system (K servers, size law).
	Validate(k int, sizes SizeLaw) error
	// reads says which server state the policy looks at.
	reads() stateKind
	newDispatcher(s *sim) dispatcher
}

// stateKind is the server state a policy reads.
type stateKind int

const (
	readsNothing stateKind = iota
	readsWork              // remaining workload (time units)
	readsCount             // number of jobs present
)

// dispatcher is one run's instance of a policy.
type dispatcher interface {
	// pick chooses the server for a job of size x arriving at time t.
	pick(t, x float64) int
}

// observer is a dispatcher that keeps its own index of the servers: it is
// told that the job of size x joined server k at time t.
type observer interface {
	sent(k int, t, x float64)
}

// refresher is a dispatcher that rebuilds its index when the board is
// refreshed at time r0.
type refresher interface {
	refreshed(r0 float64)
}

// Random (RND) sends each job to a server chosen uniformly at random.
type Random struct{}

func (Random) String() string                  { return "rnd" }
func (Random) Validate(int, SizeLaw) error     { return nil }
func (Random) reads() stateKind                { return readsNothing }
func (Random) newDispatcher(s *sim) dispatcher { return &randomDispatcher{k: s.k, r: s.rDispatch} }

type randomDispatcher struct {
	k int
	r *Stream
}

func (d *randomDispatcher) pick(float64, float64) int { return d.r.IntN(d.k) }

// RoundRobin (RR) sends the n-th job to server n mod K.
type RoundRobin struct{}

func (RoundRobin) String() string                  { return "rr" }
func (RoundRobin) Validate(int, SizeLaw) error     { return nil }
func (RoundRobin) reads() stateKind                { return readsNothing }
func (RoundRobin) newDispatcher(s *sim) dispatcher { return &rrDispatcher{k: s.k} }

type rrDispatcher struct{ k, next int }

func (d *rrDispatcher) pick(float64, float64) int {
	k := d.next
	if d.next++; d.next == d.k {
		d.next = 0
	}
	return k
}

// SITA (size interval task allocation) sends short jobs uniformly to servers
// 1..C and long jobs uniformly to servers C+1..K. With Cut = 0 the size law
// must be two-point and "long" means x = x_M; otherwise a job is long when
// its size exceeds Cut.
type SITA struct {
	C   int
	Cut float64
}

func (p SITA) String() string {
	if p.Cut > 0 {
		return fmt.Sprintf("sita:cut=%s,c=%d", fmtNum(p.Cut), p.C)
	}
	return fmt.Sprintf("sita:c=%d", p.C)
}
func (p SITA) reads() stateKind { return readsNothing }
func (p SITA) Validate(k int, sizes SizeLaw) error {
	if p.C < 1 || p.C > k-1 {
		return fmt.Errorf("sita c=%d is invalid: need 1 <= c <= K-1 = %d so that both short and long jobs have a server; pick c in 1..%d", p.C, k-1, k-1)
	}
	if p.Cut < 0 {
		return fmt.Errorf("sita cut=%v is invalid: need cut > 0 (or no cut with two-point sizes)", p.Cut)
	}
	if p.Cut == 0 {
		if _, ok := sizes.(TwoPoint); !ok && sizes != nil {
			return fmt.Errorf("sita without cut needs two-point sizes, not %s; give a size cut-off, e.g. sita:cut=10,c=%d", sizes, p.C)
		}
	}
	return nil
}
func (p SITA) newDispatcher(s *sim) dispatcher {
	d := &sitaDispatcher{c: p.C, k: s.k, cut: p.Cut, r: s.rDispatch}
	if tp, ok := s.cfg.Sizes.(TwoPoint); ok && p.Cut == 0 {
		d.long = tp.XM
	}
	return d
}

type sitaDispatcher struct {
	c, k      int
	cut, long float64
	r         *Stream
}

func (d *sitaDispatcher) pick(_, x float64) int {
	if (d.cut > 0 && x > d.cut) || (d.cut == 0 && x == d.long) {
		return d.c + d.r.IntN(d.k-d.c)
	}
	return d.r.IntN(d.c)
}
