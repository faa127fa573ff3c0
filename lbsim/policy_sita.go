package lbsim

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim/theory"
)

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
	mustRegister(policyRegistry, PolicyType{Name: "sita", Params: []string{"c", "cut"}, Example: "sita:c=20",
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

// label is SITA-c; a size cut changes the numbers, so it is named too
// (SITA-5 (cut 2)). Without one the label stays SITA-c, which notebooks parse.
func (p SITA) label() string {
	if p.Cut > 0 {
		return fmt.Sprintf("SITA-%d (cut %s)", p.C, fmtNum(p.Cut))
	}
	return fmt.Sprintf("SITA-%d", p.C)
}

// rowParams: SITA's c, the servers of the short jobs.
func (p SITA) rowParams(int) (d, c int) { return 0, p.C }
func (p SITA) reads() State             { return 0 }
func (p SITA) validate(k int, sizes SizeLaw) error {
	if k < 2 {
		return fmt.Errorf("sita needs at least 2 servers (short jobs on c of them, long jobs on the rest), got K=%d; use -servers 2 or more", k)
	}
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

// dispatcherState: its cut and a stream.
func (SITA) dispatcherState(*Config) int64 { return 0 }

type sitaDispatcher struct {
	c, k      int
	cut, long float64
	r         *Stream
}

func (d *sitaDispatcher) pick(_, x float64) int {
	lo, n := d.group(x)
	return lo + d.r.IntN(n)
}

func (*sitaDispatcher) lean(*sim) leanPolicy { return leanSITA }

// group is the servers of a job of size x, lo .. lo+n-1: the long jobs'
// (sizes above the cut, or the two-point law's long size) or the others'.
func (d *sitaDispatcher) group(x float64) (lo, n int) {
	if (d.cut > 0 && x > d.cut) || (d.cut == 0 && x == d.long) {
		return d.c, d.k - d.c
	}
	return 0, d.c
}

// classes: short jobs (sizes up to the cut, or the two-point law's short
// class) on servers 1..C, long jobs on C+1..K.
func (p SITA) classes(k int, sizes SizeLaw) []SizeClass {
	cls := []SizeClass{{Name: "short", Upper: p.Cut}, {Name: "long", Upper: math.Inf(1)}}
	if p.Cut == 0 {
		if cls = lawClasses(sizes, k); len(cls) != 2 {
			return nil
		}
	}
	cls[0].From, cls[0].To = 0, p.C
	cls[1].From, cls[1].To = p.C, k
	return cls
}

// split: SITA's two classes of jobs, short ones evenly to servers 1..C
// and long ones to C+1..K: without a cut the two-point law's sizes, with a
// cut the law's moments below and above it (BelowCut); nil for a law
// without them.
func (p SITA) split(c *Config) []classSplit {
	sizes := c.sizes()
	var short, long theory.ClassMoments
	if tp, isTP := sizes.(TwoPoint); isTP && p.Cut == 0 {
		short = theory.ClassMoments{Prob: 1 - tp.P, M1: tp.Xm, M2: tp.Xm * tp.Xm}
		long = theory.ClassMoments{Prob: tp.P, M1: tp.XM, M2: tp.XM * tp.XM}
	} else if pb, m1, m2, ok := BelowCut(sizes, p.Cut); ok && p.Cut > 0 {
		cond := func(prob, e1, e2 float64) theory.ClassMoments {
			if prob <= 0 {
				return theory.ClassMoments{}
			}
			return theory.ClassMoments{Prob: prob, M1: e1 / prob, M2: e2 / prob}
		}
		short, long = cond(pb, m1, m2), cond(1-pb, sizes.Mean()-m1, sizes.SecondMoment()-m2)
	} else {
		return nil
	}
	cut := p.Cut
	if cut == 0 {
		cut = sizes.(TwoPoint).Xm // short is x_m, long x_M > x_m
	}
	return []classSplit{{ClassMoments: short, to: p.C, hi: cut}, {ClassMoments: long, from: p.C, to: c.Servers, lo: cut, hi: math.Inf(1)}}
}

// loadAdvice is added to the error for an unstable group: the cut that
// gives both groups the same load, c_E = K (1-p) x_m / E[X].
func (p SITA) loadAdvice(c *Config) string {
	tp, ok := c.sizes().(TwoPoint)
	if !ok {
		return ""
	}
	cE := float64(c.Servers) * (1 - tp.P) * tp.Xm / tp.Mean()
	return fmt.Sprintf("choose c near the equal-load c=%d (K (1-p) x_m / E[X]), ", int(math.Round(cE)))
}

// theory: by Poisson thinning each server of a group is an M/G/1 queue of
// rate lambda p_g / n_g (n_g its servers) at its own speed, fed by its
// class's conditional moments (see split and splitTheory): two-point sizes
// without a cut (M/D/1 per group), or any law with a cut; each class's mean
// is the average over its servers.
func (p SITA) theory(c Config) (Reference, bool) {
	fcfs := "M/G/1 per group (conditional moments)"
	if _, tp := c.Sizes.(TwoPoint); tp && p.Cut == 0 {
		fcfs = "M/D/1 per group"
	}
	return splitTheory(c, fcfs, "M/G/1-PS per group (insensitive)")
}
