package lbsim

import (
	"fmt"
	"math"
)

// TwoPoint sizes: X = XM (a long job) with probability P, else Xm (short).
// The handout sets P = x_M^-beta (alpha = 1), see NewTwoPointBeta.
//
//	E[X] = (1-P) Xm + P XM,  E[X^2] = (1-P) Xm^2 + P XM^2.
type TwoPoint struct {
	Xm, XM, P float64
	// Beta records the handout's tail index when P = XM^-Beta (0 if P was
	// given); it names the law in String only while it gives P exactly.
	Beta float64
}

func init() {
	mustRegister(sizeRegistry, Family[SizeLaw]{Name: "twopoint", Params: []string{"xm", "xM", "beta", "p"}, Need: []string{"xm", "xM"},
		Example: "twopoint:xm=1,xM=1000,beta=0.8", Summary: "x_M with probability p (or x_M^-beta, the handout's law), else x_m",
		New: func(p Params) (SizeLaw, error) {
			switch {
			case p.Has("beta") && p.Has("p"):
				return nil, fmt.Errorf("twopoint: give beta or p, not both")
			case p.Has("p"):
				return TwoPoint{Xm: p["xm"], XM: p["xM"], P: p["p"]}, nil
			case !p.Has("beta"):
				return nil, fmt.Errorf("twopoint: missing beta or p; e.g. twopoint:xm=1,xM=1000,beta=0.8")
			}
			return NewTwoPointBeta(p["xm"], p["xM"], p["beta"]), nil
		}})
}

// NewTwoPointBeta is the handout's law: P(X = x_M) = x_M^-beta.
func NewTwoPointBeta(xm, xM, beta float64) TwoPoint {
	return TwoPoint{Xm: xm, XM: xM, P: math.Pow(xM, -beta), Beta: beta}
}

func (s TwoPoint) Rand(r *Stream) float64 {
	if r.Float64() < s.P {
		return s.XM
	}
	return s.Xm
}

// fill is Rand for each of out, in one pass: Float64() < P tested on the
// integer (belowCount), and the size chosen by a mask, not a branch.
func (s TwoPoint) fill(r *Stream, out []float64) {
	below := belowCount(s.P)
	short, long := math.Float64bits(s.Xm), math.Float64bits(s.XM)
	p := r.pcg
	for i := range out {
		isLong := uint64(int64(p.Uint64()>>11-below) >> 63) // all ones when long
		out[i] = math.Float64frombits(short ^ (short^long)&isLong)
	}
	r.pcg = p
}
func (s TwoPoint) Mean() float64 { return (1-s.P)*s.Xm + s.P*s.XM }
func (s TwoPoint) SecondMoment() float64 {
	return (1-s.P)*s.Xm*s.Xm + s.P*s.XM*s.XM
}

// belowCut sums the atoms at most cut: (1-P) (1, Xm, Xm^2) if Xm <= cut,
// plus P (1, XM, XM^2) if XM <= cut.
func (s TwoPoint) belowCut(cut float64) (p, m1, m2 float64) {
	if s.Xm <= cut {
		p, m1, m2 = 1-s.P, (1-s.P)*s.Xm, (1-s.P)*s.Xm*s.Xm
	}
	if s.XM <= cut {
		p, m1, m2 = p+s.P, m1+s.P*s.XM, m2+s.P*s.XM*s.XM
	}
	return p, m1, m2
}

// atoms are Xm < XM (see atomsLaw; Validate asks Xm < XM).
func (s TwoPoint) atoms() []float64 { return []float64{s.Xm, s.XM} }

// thirdMoment is E[X^3] = (1-P) Xm^3 + P XM^3.
func (s TwoPoint) thirdMoment() float64 {
	return (1-s.P)*s.Xm*s.Xm*s.Xm + s.P*s.XM*s.XM*s.XM
}
func (s TwoPoint) classes() ([]string, []float64) {
	return []string{"short", "long"}, []float64{(s.Xm + s.XM) / 2}
}
func (s TwoPoint) Validate() error {
	if err := inRange("twopoint xm", s.Xm, "give the short size, e.g. xm=1"); err != nil {
		return err
	}
	if err := inRange("twopoint xM", s.XM, "give the long size, e.g. xM=1000"); err != nil {
		return err
	}
	if s.Xm >= s.XM {
		return fmt.Errorf("twopoint xm=%v must be below xM=%v: need 0 < xm < xM; swap them", s.Xm, s.XM)
	}
	if !(s.P > 0 && s.P < 1) {
		return fmt.Errorf("twopoint P(long)=%v is invalid: need 0 < p < 1 (beta > 0 with xM > 1); change p or beta", s.P)
	}
	return nil
}

// String gives beta while P = XM^-Beta exactly, else P itself.
func (s TwoPoint) String() string {
	if s.Beta != 0 && math.Pow(s.XM, -s.Beta) == s.P {
		return "twopoint:xm=" + fmtNum(s.Xm) + ",xM=" + fmtNum(s.XM) + ",beta=" + fmtNum(s.Beta)
	}
	return "twopoint:xm=" + fmtNum(s.Xm) + ",xM=" + fmtNum(s.XM) + ",p=" + fmtNum(s.P)
}
