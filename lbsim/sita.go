package lbsim

import "fmt"

// SITA (size interval task assignment) sends short jobs uniformly to servers
// 1..C and long jobs uniformly to servers C+1..K. With Cut = 0 the size law
// must be two-point and "long" means x = x_M; otherwise a job is long when
// its size exceeds Cut. With Poisson arrivals each server is an M/G/1 queue
// fed by one class.
type SITA struct {
	C   int
	Cut float64
}

func init() {
	mustRegister(PolicyType{Name: "sita", Params: []string{"c", "cut"}, Example: "sita:c=20",
		Summary: "size interval: short jobs to servers 1..c, long ones to c+1..K (sita:cut=X,c=C: long means size > X)",
		New: func(p Params) (Policy, error) {
			c, err := p.Int("c", 0)
			if err != nil {
				return nil, fmt.Errorf("sita: %w (the number of servers for short jobs, in 1..K-1)", err)
			}
			if !p.Has("c") {
				return nil, fmt.Errorf("sita: missing parameter c; e.g. sita:c=20 or sita:cut=10,c=20")
			}
			cut := p["cut"]
			if p.Has("cut") && cut <= 0 {
				return nil, fmt.Errorf("sita: cut=%v is invalid: need cut > 0", cut)
			}
			return SITA{C: c, Cut: cut}, nil
		}})
}

func (p SITA) String() string {
	if p.Cut > 0 {
		return fmt.Sprintf("sita:cut=%s,c=%d", fmtNum(p.Cut), p.C)
	}
	return fmt.Sprintf("sita:c=%d", p.C)
}
func (p SITA) Label() string { return fmt.Sprintf("SITA-%d", p.C) }
func (p SITA) Reads() State  { return 0 }
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

// Pick is SITA through a View; the run uses the equivalent sitaDispatcher.
func (p SITA) Pick(v *View, x float64) int {
	return p.dispatcher(v.K(), v.s.cfg.sizes(), v.Rand()).pick(0, x)
}

func (p SITA) newDispatcher(s *sim) dispatcher { return p.dispatcher(s.k, s.cfg.sizes(), s.rDispatch) }

func (p SITA) dispatcher(k int, sizes SizeLaw, r *Stream) *sitaDispatcher {
	d := &sitaDispatcher{c: p.C, k: k, cut: p.Cut, r: r}
	if tp, ok := sizes.(TwoPoint); ok && p.Cut == 0 {
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
	lo, n := d.group(x)
	return lo + d.r.IntN(n)
}

// group is the servers of a job of size x, lo .. lo+n-1: the long jobs'
// (sizes above the cut, or the two-point law's long size) or the others'.
func (d *sitaDispatcher) group(x float64) (lo, n int) {
	if (d.cut > 0 && x > d.cut) || (d.cut == 0 && x == d.long) {
		return d.c, d.k - d.c
	}
	return 0, d.c
}
