package lbsim

import (
	"fmt"
	"math"
)

// Pareto is the (bounded) Pareto law with tail index Alpha on [L, H]
// (H = +Inf for the unbounded law): P(X > x) = ((L/x)^Alpha - r)/(1 - r),
// r = (L/H)^Alpha. For the unbounded law E[X] = Alpha L/(Alpha-1) and
// E[X^2] = Alpha L^2/(Alpha-2) (infinite for Alpha <= 2).
type Pareto struct {
	Alpha, L, H float64
	mean        float64 // the mean NewPareto solved L for, for String
}

func init() {
	mustRegister(sizeRegistry, Family[SizeLaw]{Name: "pareto", Params: []string{"alpha", "mean", "min", "max"}, Need: []string{"alpha"},
		Example: "pareto:alpha=2.2,mean=1", Summary: "Pareto of tail index alpha, given its mean (or its lower end min), bounded at max if given",
		New: func(p Params) (SizeLaw, error) {
			mx, bounded := p["max"], p.Has("max")
			if bounded && mx <= 0 {
				return nil, fmt.Errorf("pareto max=%v is invalid: need max > mean (or leave it out)", mx)
			}
			switch {
			case p.Has("mean") == p.Has("min"):
				return nil, fmt.Errorf("pareto: give mean or min (the lower end L), one of them; e.g. pareto:alpha=2.2,mean=1")
			case p.Has("mean"):
				return NewPareto(p["alpha"], p["mean"], mx)
			case !bounded:
				mx = math.Inf(1)
			}
			return Pareto{Alpha: p["alpha"], L: p["min"], H: mx}, nil
		}})
}

// NewPareto returns the Pareto law of tail index alpha > 1 and the given mean,
// truncated at max (+Inf or 0 for none); L is solved for the mean.
func NewPareto(alpha, mean, max float64) (Pareto, error) {
	if math.IsNaN(alpha) || alpha <= 1 || math.IsInf(alpha, 0) {
		return Pareto{}, fmt.Errorf("pareto alpha=%v is invalid: need alpha > 1 for a finite mean; e.g. alpha=2.2", alpha)
	}
	if err := inRange("pareto mean", mean, "e.g. mean=1"); err != nil {
		return Pareto{}, err
	}
	if max == 0 {
		max = math.Inf(1)
	}
	if math.IsNaN(max) || max <= mean {
		return Pareto{}, fmt.Errorf("pareto max=%v is invalid: need max > mean=%v (or no max); raise max", max, mean)
	}
	p := Pareto{Alpha: alpha, H: max, L: mean * (alpha - 1) / alpha, mean: mean}
	if !math.IsInf(max, 1) {
		// The mean increases with L; bisect L in (0, mean).
		lo, hi := 0.0, mean
		for range 200 {
			p.L = (lo + hi) / 2
			if p.Mean() < mean {
				lo = p.L
			} else {
				hi = p.L
			}
		}
	}
	return p, nil
}

func (s Pareto) ratio() float64 { return math.Pow(s.L/s.H, s.Alpha) }

// Rand inverts the distribution function: X = L (1 - U (1 - r))^(-1/Alpha).
func (s Pareto) Rand(r *Stream) float64 {
	return s.L * math.Pow(1-r.Float64()*(1-s.ratio()), -1/s.Alpha)
}

// fill is Rand for each of out, with (1 - r) and the exponent -1/Alpha
// prepared once (fixedPow: math.Pow's bits).
func (s Pareto) fill(r *Stream, out []float64) {
	r.fillUniform(out)
	c, pow := 1-s.ratio(), newFixedPow(-1/s.Alpha)
	for i, u := range out {
		out[i] = s.L * pow.at(1-u*c)
	}
}

// moment is E[X^j] = below(j, H), for the unbounded law Alpha L^j/(Alpha-j)
// (+Inf for Alpha <= j).
func (s Pareto) moment(j float64) float64 {
	if a := s.Alpha; math.IsInf(s.H, 1) {
		if a <= j {
			return math.Inf(1)
		}
		return a * math.Pow(s.L, j) / (a - j)
	}
	return s.below(j, s.H)
}

// below is E[X^j; X <= c] for L <= c <= H:
// Alpha L^j/(1-r) * ((c/L)^(j-Alpha) - 1)/(j-Alpha), ln(c/L) for j = Alpha
// (by expm1, accurate for Alpha near j too).
func (s Pareto) below(j, c float64) float64 {
	return s.Alpha * math.Pow(s.L, j) / (1 - s.ratio()) * expIntegral(j-s.Alpha, math.Log(c/s.L))
}

// expIntegral is the integral of e^(d u) for u from 0 to t: expm1(d t)/d,
// and t for d = 0.
func expIntegral(d, t float64) float64 {
	if d == 0 {
		return t
	}
	return math.Expm1(d*t) / d
}
func (s Pareto) Mean() float64         { return s.moment(1) }
func (s Pareto) SecondMoment() float64 { return s.moment(2) }

// closedSCV is the unbounded law's 1/(Alpha (Alpha-2)) (see SCV).
func (s Pareto) closedSCV() (float64, bool) {
	return 1 / (s.Alpha * (s.Alpha - 2)), math.IsInf(s.H, 1) && s.Alpha > 2
}

// thirdMoment is E[X^3] = moment(3): +Inf for the unbounded law with Alpha <= 3.
func (s Pareto) thirdMoment() float64 { return s.moment(3) }

// belowCut is (0, 0, 0) for cut <= L, the totals for cut >= H, and between
// (below(0, cut), below(1, cut), below(2, cut)): finite for any finite cut.
func (s Pareto) belowCut(cut float64) (p, m1, m2 float64) {
	switch {
	case !(cut > s.L):
		return 0, 0, 0
	case cut >= s.H:
		return 1, s.Mean(), s.SecondMoment()
	}
	return s.below(0, cut), s.below(1, cut), s.below(2, cut)
}

func (s Pareto) Validate() error {
	if err := inRange("pareto L", s.L, "build it with NewPareto"); err != nil {
		return err
	}
	if math.IsNaN(s.Alpha) || s.Alpha <= 1 {
		return fmt.Errorf("pareto alpha=%v is invalid: need alpha > 1; e.g. alpha=2.2", s.Alpha)
	}
	if !(s.H > s.L) {
		return fmt.Errorf("pareto max=%v is invalid: need max > L=%v; raise max", s.H, s.L)
	}
	return nil
}

// String gives the mean while it gives L exactly (NewPareto), else L as min.
func (s Pareto) String() string {
	out := "pareto:alpha=" + fmtNum(s.Alpha)
	if p, err := NewPareto(s.Alpha, s.mean, s.H); err == nil && p == s {
		out += ",mean=" + fmtNum(s.mean)
	} else {
		out += ",min=" + fmtNum(s.L)
	}
	if !math.IsInf(s.H, 1) {
		out += ",max=" + fmtNum(s.H)
	}
	return out
}

// WithSCV is the unbounded Pareto law of the same mean and SCV scv.
func (s Pareto) WithSCV(scv float64) (SizeLaw, error) {
	return NewPareto(paretoAlpha(scv), s.Mean(), 0)
}

// paretoAlpha is the tail index of the unbounded Pareto law with the given
// SCV: SCV = 1/(alpha (alpha - 2)) for alpha > 2, so alpha = 1 + sqrt(1 + 1/SCV).
func paretoAlpha(scv float64) float64 { return 1 + math.Sqrt(1+1/scv) }

// tailIndex is Alpha for the unbounded law, +Inf for a bounded one.
func (s Pareto) tailIndex() float64 {
	if math.IsInf(s.H, 1) {
		return s.Alpha
	}
	return math.Inf(1)
}
