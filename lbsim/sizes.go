package lbsim

import (
	"fmt"
	"math"
	"strconv"
)

// SizeLaw is the law of i.i.d. job sizes, in units of work (a server of speed
// mu serves a job of size x in x/mu time units).
type SizeLaw interface {
	// Rand draws one size.
	Rand(r *Stream) float64
	// Mean is E[X].
	Mean() float64
	// SecondMoment is E[X^2] (+Inf when it does not exist).
	SecondMoment() float64
	// Validate reports an invalid parameter, naming it, its range and a fix.
	Validate() error
	// String is the size spec that ParseSizes reads back.
	String() string
}

// Classifier is implemented by size laws whose jobs fall in named classes
// (short and long jobs of a two-point law); results are then also reported
// per class. A job of size x is in class i when cuts[i-1] < x <= cuts[i].
type Classifier interface {
	Classes() (names []string, cuts []float64)
}

// SizeClass is a class of jobs that results are reported for (Result.Classes):
// the jobs with sizes in (the previous class's Upper, Upper], sent to
// servers From..To-1.
type SizeClass struct {
	Name     string
	Upper    float64
	From, To int
}

// lawClasses are the classes of the size law's Classifier, if it has one,
// each sent to all k servers.
func lawClasses(sizes SizeLaw, k int) []SizeClass {
	cl, ok := sizes.(Classifier)
	if !ok {
		return nil
	}
	names, cuts := cl.Classes()
	out := make([]SizeClass, len(names))
	for i, name := range names {
		out[i] = SizeClass{Name: name, Upper: math.Inf(1), To: k}
		if i < len(cuts) {
			out[i].Upper = cuts[i]
		}
	}
	return out
}

// filler is a size law that draws a block of sizes in one call (the common
// laws, for speed; others are drawn one Rand at a time).
type filler interface {
	fill(r *Stream, out []float64)
}

// SCV is the squared coefficient of variation Var[X]/E[X]^2 of a size law.
func SCV(s SizeLaw) float64 {
	m := s.Mean()
	return s.SecondMoment()/(m*m) - 1
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// positive checks a scale parameter: finite, > 0 and within
// [MinMagnitude, MaxMagnitude] (see limits.go).
func positive(name string, v float64, fix string) error { return inRange(name, v, fix) }

// TwoPoint sizes: X = XM (a long job) with probability P, else Xm (short).
// The handout sets P = x_M^-beta (alpha = 1), see NewTwoPointBeta.
//
//	E[X] = (1-P) Xm + P XM,  E[X^2] = (1-P) Xm^2 + P XM^2.
type TwoPoint struct {
	Xm, XM, P float64
	// Beta records the handout's tail index when P = XM^-Beta (0 if P was given).
	Beta float64
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
func (s TwoPoint) fill(r *Stream, out []float64) {
	r.fillUniform(out)
	for i, u := range out {
		out[i] = s.Xm
		if u < s.P {
			out[i] = s.XM
		}
	}
}
func (s TwoPoint) Mean() float64 { return (1-s.P)*s.Xm + s.P*s.XM }
func (s TwoPoint) SecondMoment() float64 {
	return (1-s.P)*s.Xm*s.Xm + s.P*s.XM*s.XM
}
func (s TwoPoint) Classes() ([]string, []float64) {
	return []string{"short", "long"}, []float64{(s.Xm + s.XM) / 2}
}
func (s TwoPoint) Validate() error {
	if err := positive("twopoint xm", s.Xm, "give the short size, e.g. xm=1"); err != nil {
		return err
	}
	if err := positive("twopoint xM", s.XM, "give the long size, e.g. xM=1000"); err != nil {
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
func (s TwoPoint) String() string {
	if s.Beta != 0 {
		return "twopoint:xm=" + fmtNum(s.Xm) + ",xM=" + fmtNum(s.XM) + ",beta=" + fmtNum(s.Beta)
	}
	return "twopoint:xm=" + fmtNum(s.Xm) + ",xM=" + fmtNum(s.XM) + ",p=" + fmtNum(s.P)
}

// Exponential sizes with mean M: E[X] = M, E[X^2] = 2 M^2.
type Exponential struct{ M float64 }

func (s Exponential) Rand(r *Stream) float64        { return r.ExpFloat64() * s.M }
func (s Exponential) fill(r *Stream, out []float64) { r.fillExp(out, s.M) }
func (s Exponential) Mean() float64                 { return s.M }
func (s Exponential) SecondMoment() float64         { return 2 * s.M * s.M }
func (s Exponential) Validate() error {
	return positive("exp mean", s.M, "e.g. exp:mean=1")
}
func (s Exponential) String() string { return "exp:mean=" + fmtNum(s.M) }

// Deterministic sizes: X = X0 always.
type Deterministic struct{ X0 float64 }

func (s Deterministic) Rand(*Stream) float64  { return s.X0 }
func (s Deterministic) Mean() float64         { return s.X0 }
func (s Deterministic) SecondMoment() float64 { return s.X0 * s.X0 }
func (s Deterministic) Validate() error       { return positive("det x", s.X0, "e.g. det:x=1") }
func (s Deterministic) String() string        { return "det:x=" + fmtNum(s.X0) }

// H2 is a two-phase hyperexponential: with probability P1 an exponential of
// rate Rate1, else of rate Rate2.
//
//	E[X] = P1/Rate1 + (1-P1)/Rate2,  E[X^2] = 2 P1/Rate1^2 + 2 (1-P1)/Rate2^2.
type H2 struct {
	P1, Rate1, Rate2 float64
	mean, scv        float64 // the balanced-means parameters, for String
}

// maxH2SCV keeps 1-P1 (about 1/(4 scv)) far above float64's resolution.
const maxH2SCV = 1e12

// NewH2Balanced returns the H2 law with balanced means (P1/Rate1 = (1-P1)/Rate2)
// of mean m and squared coefficient of variation c2 >= 1:
//
//	P1 = (1 + sqrt((c2-1)/(c2+1)))/2,  Rate1 = 2 P1/m,  Rate2 = 2 (1-P1)/m.
func NewH2Balanced(m, c2 float64) (H2, error) {
	if err := positive("h2 mean", m, "e.g. h2:mean=1,scv=10"); err != nil {
		return H2{}, err
	}
	if math.IsNaN(c2) || math.IsInf(c2, 0) || c2 < 1 {
		return H2{}, fmt.Errorf("h2 scv=%v is invalid: need a finite scv >= 1 (an H2 law is at least as variable as the exponential); use exp for scv 1 or det/twopoint below it", c2)
	}
	if c2 > maxH2SCV {
		return H2{}, fmt.Errorf("h2 scv=%v is too large: need 1 <= scv <= %g (the rare phase has probability about 1/(4 scv), which float64 cannot resolve beyond); use pareto for heavier tails", c2, float64(maxH2SCV))
	}
	p1 := (1 + math.Sqrt((c2-1)/(c2+1))) / 2
	return H2{P1: p1, Rate1: 2 * p1 / m, Rate2: 2 * (1 - p1) / m, mean: m, scv: c2}, nil
}

func (s H2) Rand(r *Stream) float64 {
	if r.Float64() < s.P1 {
		return r.ExpFloat64() / s.Rate1
	}
	return r.ExpFloat64() / s.Rate2
}
func (s H2) fill(r *Stream, out []float64) { r.fillHyperExp(out, s.P1, s.Rate1, s.Rate2) }
func (s H2) Mean() float64                 { return s.P1/s.Rate1 + (1-s.P1)/s.Rate2 }
func (s H2) SecondMoment() float64 {
	return 2*s.P1/(s.Rate1*s.Rate1) + 2*(1-s.P1)/(s.Rate2*s.Rate2)
}
func (s H2) Validate() error {
	if !(s.P1 >= 0 && s.P1 <= 1) {
		return fmt.Errorf("h2 p1=%v is invalid: need 0 <= p1 <= 1; give the law as h2:mean=M,scv=C", s.P1)
	}
	if err := positive("h2 rate1", s.Rate1, "give the law as h2:mean=M,scv=C"); err != nil {
		return err
	}
	return positive("h2 rate2", s.Rate2, "give the law as h2:mean=M,scv=C")
}
func (s H2) String() string {
	if s.mean == 0 {
		return fmt.Sprintf("h2:p1=%s,rate1=%s,rate2=%s", fmtNum(s.P1), fmtNum(s.Rate1), fmtNum(s.Rate2))
	}
	return "h2:mean=" + fmtNum(s.mean) + ",scv=" + fmtNum(s.scv)
}

// Pareto is the (bounded) Pareto law with tail index Alpha on [L, H]
// (H = +Inf for the unbounded law): P(X > x) = ((L/x)^Alpha - r)/(1 - r),
// r = (L/H)^Alpha. For the unbounded law E[X] = Alpha L/(Alpha-1) and
// E[X^2] = Alpha L^2/(Alpha-2) (infinite for Alpha <= 2).
type Pareto struct{ Alpha, L, H float64 }

// NewPareto returns the Pareto law of tail index alpha > 1 and the given mean,
// truncated at max (+Inf or 0 for none); L is solved for the mean.
func NewPareto(alpha, mean, max float64) (Pareto, error) {
	if math.IsNaN(alpha) || alpha <= 1 || math.IsInf(alpha, 0) {
		return Pareto{}, fmt.Errorf("pareto alpha=%v is invalid: need alpha > 1 for a finite mean; e.g. alpha=2.2", alpha)
	}
	if err := positive("pareto mean", mean, "e.g. mean=1"); err != nil {
		return Pareto{}, err
	}
	if max == 0 {
		max = math.Inf(1)
	}
	if math.IsNaN(max) || max <= mean {
		return Pareto{}, fmt.Errorf("pareto max=%v is invalid: need max > mean=%v (or no max); raise max", max, mean)
	}
	p := Pareto{Alpha: alpha, H: max, L: mean * (alpha - 1) / alpha}
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

// fill is Rand for each of out, with (1 - r) and -1/Alpha computed once.
func (s Pareto) fill(r *Stream, out []float64) {
	r.fillUniform(out)
	c, e := 1-s.ratio(), -1/s.Alpha
	for i, u := range out {
		out[i] = s.L * math.Pow(1-u*c, e)
	}
}

// moment is E[X^j] = Alpha L^Alpha/(1-r) * (H^(j-Alpha) - L^(j-Alpha))/(j-Alpha).
func (s Pareto) moment(j float64) float64 {
	a := s.Alpha
	if math.IsInf(s.H, 1) {
		if a <= j {
			return math.Inf(1)
		}
		return a * math.Pow(s.L, j) / (a - j)
	}
	c := a * math.Pow(s.L, a) / (1 - s.ratio())
	if a == j {
		return c * math.Log(s.H/s.L)
	}
	return c * (math.Pow(s.H, j-a) - math.Pow(s.L, j-a)) / (j - a)
}
func (s Pareto) Mean() float64         { return s.moment(1) }
func (s Pareto) SecondMoment() float64 { return s.moment(2) }
func (s Pareto) Validate() error {
	if err := positive("pareto L", s.L, "build it with NewPareto"); err != nil {
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
func (s Pareto) String() string {
	out := "pareto:alpha=" + fmtNum(s.Alpha) + ",mean=" + fmtNum(s.Mean())
	if !math.IsInf(s.H, 1) {
		out += ",max=" + fmtNum(s.H)
	}
	return out
}

// Empirical sizes: a uniform choice among Values (repeated values weigh
// more). The course's "modal" mix {100, 500, 1000} is NewModal(100, 500, 1000).
type Empirical struct {
	Values []float64
	name   string // "modal" or "empirical", for String
}

// NewModal is the uniform choice among the listed sizes.
func NewModal(values ...float64) Empirical { return Empirical{Values: values, name: "modal"} }

// NewEmpirical resamples observed sizes uniformly.
func NewEmpirical(values []float64) Empirical { return Empirical{Values: values, name: "empirical"} }

func (s Empirical) Rand(r *Stream) float64 { return s.Values[r.IntN(len(s.Values))] }
func (s Empirical) Mean() float64 {
	sum := 0.0
	for _, v := range s.Values {
		sum += v
	}
	return sum / float64(len(s.Values))
}
func (s Empirical) SecondMoment() float64 {
	sum := 0.0
	for _, v := range s.Values {
		sum += v * v
	}
	return sum / float64(len(s.Values))
}
func (s Empirical) Validate() error {
	if len(s.Values) == 0 {
		return fmt.Errorf("%s sizes: no values given; list at least one, e.g. modal:100,500,1000", s.kind())
	}
	for i, v := range s.Values {
		if err := positive(fmt.Sprintf("%s value #%d", s.kind(), i+1), v, "sizes must be positive"); err != nil {
			return err
		}
	}
	return nil
}
func (s Empirical) kind() string {
	if s.name == "" {
		return "empirical"
	}
	return s.name
}
func (s Empirical) String() string {
	out := s.kind() + ":"
	if s.kind() == "empirical" && len(s.Values) > 8 {
		return fmt.Sprintf("empirical:n=%d,mean=%s", len(s.Values), fmtNum(s.Mean()))
	}
	for i, v := range s.Values {
		if i > 0 {
			out += ","
		}
		out += fmtNum(v)
	}
	return out
}

// TailIndex is alpha for the unbounded law (E[X^j] is finite only for j <
// alpha) and +Inf for a bounded one.
func (s Pareto) TailIndex() float64 {
	if math.IsInf(s.H, 1) {
		return s.Alpha
	}
	return math.Inf(1)
}

// tailIndex is a law's tail index: +Inf unless it says otherwise
// (a TailIndex method: Pareto, Lomax).
func tailIndex(s SizeLaw) float64 {
	if t, ok := s.(interface{ TailIndex() float64 }); ok {
		return t.TailIndex()
	}
	return math.Inf(1)
}
