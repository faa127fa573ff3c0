package lbsim

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// integrate is the integral of f over [a, b] by 20-point Gauss-Legendre on
// each of 1000 equal pieces: independent of the laws' closed forms, and
// good to about 1e-14 for the smooth integrands here.
func integrate(f func(float64) float64, a, b float64) float64 {
	const pieces = 1000
	sum := 0.0
	for i := range pieces {
		lo, hi := a+(b-a)*float64(i)/pieces, a+(b-a)*float64(i+1)/pieces
		sum += quad.Fixed(f, lo, hi, 20, quad.Legendre{}, 0)
	}
	return sum
}

// continuousLaw is a law with its density and distribution function from
// distuv, for integrating E[X^j; X <= cut] independently of BelowCut.
type continuousLaw struct {
	law      SizeLaw
	pdf, cdf func(x float64) float64
	lo, hi   float64 // the support
	far      float64 // a finite end for integrals up to hi = +Inf (the mass beyond is negligible)
	logx     bool    // integrate over ln x (power-law densities)
	cuts     []float64
}

// partial is E[X^j; lo < X <= b] by integration of x^j f(x).
func (c continuousLaw) partial(j int, b float64) float64 {
	if b = math.Min(b, c.hi); math.IsInf(b, 1) {
		b = c.far
	}
	if b <= c.lo {
		return 0
	}
	if c.logx {
		return integrate(func(s float64) float64 {
			x := math.Exp(s)
			return math.Pow(x, float64(j+1)) * c.pdf(x)
		}, math.Log(c.lo), math.Log(b))
	}
	return integrate(func(x float64) float64 { return math.Pow(x, float64(j)) * c.pdf(x) }, c.lo, b)
}

func expLaw(m float64, cuts ...float64) continuousLaw {
	d := distuv.Exponential{Rate: 1 / m}
	return continuousLaw{law: Exponential{M: m}, pdf: d.Prob, cdf: d.CDF, hi: math.Inf(1), far: 100 * m, cuts: cuts}
}

func erlangLaw(k int, m float64, cuts ...float64) continuousLaw {
	d := distuv.Gamma{Alpha: float64(k), Beta: float64(k) / m} // Beta is the rate
	return continuousLaw{law: Erlang{K: k, M: m}, pdf: d.Prob, cdf: d.CDF, hi: math.Inf(1), far: 100 * m, cuts: cuts}
}

func h2Law(s H2, cuts ...float64) continuousLaw {
	d1, d2 := distuv.Exponential{Rate: s.Rate1}, distuv.Exponential{Rate: s.Rate2}
	return continuousLaw{
		law:  s,
		pdf:  func(x float64) float64 { return s.P1*d1.Prob(x) + (1-s.P1)*d2.Prob(x) },
		cdf:  func(x float64) float64 { return s.P1*d1.CDF(x) + (1-s.P1)*d2.CDF(x) },
		hi:   math.Inf(1),
		far:  100 / math.Min(s.Rate1, s.Rate2),
		cuts: cuts,
	}
}

// paretoLaw is distuv's Pareto conditioned on X <= H; an unbounded law is
// integrated up to e^80 L (E[X^3; X > e^80 L] / E[X^3] = e^-120 for Alpha = 4.5).
func paretoLaw(s Pareto, cuts ...float64) continuousLaw {
	d := distuv.Pareto{Xm: s.L, Alpha: s.Alpha}
	return continuousLaw{
		law:  s,
		pdf:  func(x float64) float64 { return d.Prob(x) / d.CDF(s.H) },
		cdf:  func(x float64) float64 { return math.Min(d.CDF(x)/d.CDF(s.H), 1) },
		lo:   s.L,
		hi:   s.H,
		far:  s.L * math.Exp(80),
		logx: true,
		cuts: cuts,
	}
}

func continuousLaws(t *testing.T) []continuousLaw {
	balanced, err := NewH2Balanced(1, 10)
	if err != nil {
		t.Fatal(err)
	}
	par22, err := NewPareto(2.2, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	par15, err := NewPareto(1.5, 2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return []continuousLaw{
		expLaw(2, 1e-3, 0.5, 2, 7, 40),
		expLaw(1e-3, 1e-6, 1e-3, 0.01),
		erlangLaw(1, 1, 0.1, 1, 5),
		erlangLaw(4, 2, 0.05, 1, 2, 5, 20),
		erlangLaw(50, 3, 1.5, 2.9, 3, 3.5, 6),
		erlangLaw(1000, 1, 0.9, 1, 1.05, 2),
		h2Law(balanced, 0.01, 0.5, 1, 4, 30, 150),
		h2Law(H2{P1: 0.3, Rate1: 5, Rate2: 0.5}, 0.1, 1, 10),
		paretoLaw(par22, par22.L*(1+1e-6), 0.6, 1, 5, 100, 1e6),
		paretoLaw(par15, 0.7, 1, 10, 999, 1000*(1-1e-12)),
		paretoLaw(Pareto{Alpha: 1, L: 1, H: 100}, 1.5, 10, 99), // j = Alpha for the mean
		paretoLaw(Pareto{Alpha: 2, L: 1, H: 100}, 1.5, 10, 99), // j = Alpha for E[X^2]
		paretoLaw(Pareto{Alpha: 2 + 1e-9, L: 1, H: 100}, 1.5, 10, 99),
		paretoLaw(Pareto{Alpha: 3, L: 0.5, H: 50}, 0.6, 5, 49),
		paretoLaw(Pareto{Alpha: 4.5, L: 2, H: math.Inf(1)}, 2.5, 4, 40),
		paretoLaw(Pareto{Alpha: 0.5, L: 1, H: 1e4}, 2, 100, 5000), // not a valid law (no alpha > 1), the formula still holds
	}
}

// near reports |got - want| <= tol |want| (exact equality for want 0 or inf).
func near(got, want, tol float64) bool {
	if want == 0 || math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// BelowCut of each continuous law at cuts below, in and above its support
// matches P from distuv's distribution function and E[X^j; X <= cut] from
// integrating x^j f(x), to 1e-9 relative.
func TestSizeBelowCutContinuous(t *testing.T) {
	for _, c := range continuousLaws(t) {
		cuts := append([]float64{c.lo / 2, c.lo}, c.cuts...)
		if !math.IsInf(c.hi, 1) {
			cuts = append(cuts, c.hi, 2*c.hi)
		} else if !c.logx {
			cuts = append(cuts, 2*c.far)
		}
		for _, cut := range cuts {
			p, m1, m2 := below(t, c.law, cut)
			wp, w1, w2 := c.cdf(cut), c.partial(1, cut), c.partial(2, cut)
			if cut <= c.lo {
				wp = 0
			}
			if !near(p, wp, 1e-9) || !near(m1, w1, 1e-9) || !near(m2, w2, 1e-9) {
				t.Errorf("%v: BelowCut(%v) = (%v, %v, %v), want (%v, %v, %v)", c.law, cut, p, m1, m2, wp, w1, w2)
			}
			if pi := c.partial(0, cut); !near(p, pi, 1e-9) {
				t.Errorf("%v: BelowCut(%v) P = %v, integral of the density %v", c.law, cut, p, pi)
			}
		}
	}
}

// ThirdMoment of each continuous law is the integral of x^3 f(x) over its
// support, and +Inf for the unbounded Pareto law with Alpha <= 3.
func TestSizeThirdMoment(t *testing.T) {
	for _, c := range continuousLaws(t) {
		if p, ok := c.law.(Pareto); ok && math.IsInf(p.H, 1) && p.Alpha <= 3 {
			if got := third(t, c.law); !math.IsInf(got, 1) {
				t.Errorf("%v: E[X^3] = %v, want +Inf", c.law, got)
			}
			continue
		}
		if got, want := third(t, c.law), c.partial(3, c.hi); !near(got, want, 1e-9) {
			t.Errorf("%v: E[X^3] = %v, integral %v", c.law, got, want)
		}
	}
	for _, a := range []float64{1.5, 2.2, 3} {
		if got := third(t, Pareto{Alpha: a, L: 1, H: math.Inf(1)}); !math.IsInf(got, 1) {
			t.Errorf("unbounded Pareto alpha=%v: E[X^3] = %v, want +Inf", a, got)
		}
		if got := third(t, Pareto{Alpha: a, L: 1, H: 1e3}); math.IsInf(got, 0) || !(got > 0) {
			t.Errorf("bounded Pareto alpha=%v: E[X^3] = %v, want finite", a, got)
		}
	}
	// Erlang: E[X^3] = M^3 (K+1)(K+2)/K^2, here 8 * 5 * 6 / 16 = 15.
	if got := third(t, Erlang{K: 4, M: 2}); !near(got, 15, 1e-15) {
		t.Errorf("erlang:k=4,mean=2: E[X^3] = %v, want 15", got)
	}
}

// The discrete laws put their atoms at or below the cut: BelowCut against
// hand-computed sums, at each atom, just below and above it, and beyond.
func TestSizeBelowCutDiscrete(t *testing.T) {
	inf := math.Inf(1)
	type want struct{ cut, p, m1, m2 float64 }
	for _, c := range []struct {
		law   SizeLaw
		third float64
		want  []want
	}{
		{Deterministic{X0: 3}, 27, []want{{-inf, 0, 0, 0}, {0, 0, 0, 0}, {math.Nextafter(3, 0), 0, 0, 0}, {3, 1, 3, 9}, {3.5, 1, 3, 9}, {inf, 1, 3, 9}}},
		{TwoPoint{Xm: 1, XM: 1000, P: 0.01}, 0.99 + 1e7, []want{{0.5, 0, 0, 0}, {1, 0.99, 0.99, 0.99}, {999.9, 0.99, 0.99, 0.99},
			{1000, 1, 10.99, 10000.99}, {inf, 1, 10.99, 10000.99}}},
		// Values 3, 1, 2, 2, 7, 3: ties at 2 and 3 count twice; sums 18, 76, cubes 414.
		{NewEmpirical([]float64{3, 1, 2, 2, 7, 3}), 69, []want{{0.5, 0, 0, 0}, {1, 1. / 6, 1. / 6, 1. / 6}, {2, 3. / 6, 5. / 6, 9. / 6},
			{2.5, 3. / 6, 5. / 6, 9. / 6}, {3, 5. / 6, 11. / 6, 27. / 6}, {6.99, 5. / 6, 11. / 6, 27. / 6}, {7, 1, 3, 76. / 6}, {inf, 1, 3, 76. / 6}}},
		{NewModal(100, 500, 1000), (1e6 + 1.25e8 + 1e9) / 3, []want{{99, 0, 0, 0}, {100, 1. / 3, 100. / 3, 1e4 / 3},
			{500, 2. / 3, 200, 2.6e5 / 3}, {1000, 1, 1600. / 3, 1.26e6 / 3}}},
		{NewEmpirical([]float64{5, 5, 5, 5}), 125, []want{{4.99, 0, 0, 0}, {5, 1, 5, 25}}},
	} {
		for _, w := range c.want {
			p, m1, m2 := below(t, c.law, w.cut)
			if !near(p, w.p, 1e-12) || !near(m1, w.m1, 1e-12) || !near(m2, w.m2, 1e-12) {
				t.Errorf("%v: BelowCut(%v) = (%v, %v, %v), want (%v, %v, %v)", c.law, w.cut, p, m1, m2, w.p, w.m1, w.m2)
			}
		}
		if got := third(t, c.law); !near(got, c.third, 1e-12) {
			t.Errorf("%v: E[X^3] = %v, want %v", c.law, got, c.third)
		}
	}
	// The handout's law against a direct sum over its two atoms.
	s := NewTwoPointBeta(1, 1000, 0.8)
	for _, cut := range []float64{0.9, 1, 500, 1000} {
		var p, m1, m2 float64
		for _, a := range [][2]float64{{s.Xm, 1 - s.P}, {s.XM, s.P}} {
			if a[0] <= cut {
				p, m1, m2 = p+a[1], m1+a[1]*a[0], m2+a[1]*a[0]*a[0]
			}
		}
		if gp, g1, g2 := below(t, s, cut); !near(gp, p, 1e-14) || !near(g1, m1, 1e-14) || !near(g2, m2, 1e-14) {
			t.Errorf("%v: BelowCut(%v) = (%v, %v, %v), want (%v, %v, %v)", s, cut, gp, g1, g2, p, m1, m2)
		}
	}
}

// below is BelowCut(s, cut) of a law that must know it (every built-in law).
func below(t *testing.T, s SizeLaw, cut float64) (p, m1, m2 float64) {
	t.Helper()
	p, m1, m2, ok := BelowCut(s, cut)
	if !ok {
		t.Fatalf("%v (%T) does not know its moments below a cut", s, s)
	}
	return p, m1, m2
}

// third is lawThirdMoment(s) of a law that must know it (every built-in law).
func third(t *testing.T, s SizeLaw) float64 {
	t.Helper()
	m3, ok := lawThirdMoment(s)
	if !ok {
		t.Fatalf("%v (%T) does not know E[X^3]", s, s)
	}
	return m3
}

// sizeLawsForMoments are the registered families' examples and the laws of
// the tests above.
func sizeLawsForMoments(t *testing.T) []SizeLaw {
	var laws []SizeLaw
	for _, f := range sizeRegistry.families() {
		if f.NewText != nil { // file:PATH, a file's law: one of its own below
			continue
		}
		s, err := ParseSizes(f.Example)
		if err != nil {
			t.Fatalf("%s: %v", f.Example, err)
		}
		laws = append(laws, s)
	}
	for _, c := range continuousLaws(t) {
		laws = append(laws, c.law)
	}
	file, err := SizesFromFile(writeFile(t, t.TempDir(), "log.csv", "arrival,size\n0,3\n1,0.5\n1,3\n2,8\n"))
	if err != nil {
		t.Fatal(err)
	}
	return append(laws, file, Deterministic{X0: 2}, TwoPoint{Xm: 1, XM: 20, P: 0.05}, NewEmpirical([]float64{4, 1, 1, 9}),
		Pareto{Alpha: 1.5, L: 1, H: math.Inf(1)})
}

// checkBelowCut checks what any law's BelowCut satisfies: nothing below a
// nonpositive cut, the totals (1, Mean, SecondMoment) exactly at +Inf, and
// at each cut of cuts (increasing) 0 <= p <= 1, m1 <= cut p, m2 <= cut m1,
// all three nondecreasing and at most their totals.
func checkBelowCut(t *testing.T, s SizeLaw, cuts []float64) {
	t.Helper()
	for _, cut := range []float64{math.Inf(-1), -1, 0} {
		if p, m1, m2 := below(t, s, cut); p != 0 || m1 != 0 || m2 != 0 {
			t.Errorf("%v: BelowCut(%v) = (%v, %v, %v), want 0s", s, cut, p, m1, m2)
		}
	}
	if p, m1, m2 := below(t, s, math.Inf(1)); p != 1 || m1 != s.Mean() || m2 != s.SecondMoment() {
		t.Errorf("%v: BelowCut(+Inf) = (%v, %v, %v), want (1, %v, %v) exactly", s, p, m1, m2, s.Mean(), s.SecondMoment())
	}
	const slack = 1 + 1e-9
	var lp, l1, l2 float64
	for _, cut := range cuts {
		p, m1, m2 := below(t, s, cut)
		bad := !(p >= 0 && p <= 1) || !(m1 >= 0 && m1 <= cut*p*slack) || !(m2 >= 0 && m2 <= cut*m1*slack) ||
			p < lp/slack || m1 < l1/slack || m2 < l2/slack || m1 > s.Mean()*slack || m2 > s.SecondMoment()*slack
		if bad {
			t.Errorf("%v: BelowCut(%v) = (%v, %v, %v) after (%v, %v, %v): outside the bounds", s, cut, p, m1, m2, lp, l1, l2)
		}
		lp, l1, l2 = p, m1, m2
	}
	// Cauchy-Schwarz: E[X^2]^2 <= E[X] E[X^3].
	if m3, m2 := third(t, s), s.SecondMoment(); !(m2*m2 <= s.Mean()*m3*slack) {
		t.Errorf("%v: E[X^3] = %v below E[X^2]^2/E[X] = %v", s, m3, m2*m2/s.Mean())
	}
}

// Every built-in law has both methods, and BelowCut keeps the bounds of
// checkBelowCut over a grid of cuts from 1e-6 to 1e9 times the mean.
func TestSizeBelowCutBounds(t *testing.T) {
	for _, s := range sizeLawsForMoments(t) {
		var cuts []float64
		for e := -6.0; e <= 9; e += 0.25 {
			cuts = append(cuts, s.Mean()*math.Pow(10, e))
		}
		checkBelowCut(t, s, cuts)
	}
}

// Any valid law from a spec keeps the bounds of checkBelowCut at any cut.
func FuzzSizeBelowCut(f *testing.F) {
	for _, t := range sizeRegistry.families() {
		for _, cut := range []float64{0.3, 1, 999} {
			f.Add(t.Example, cut)
		}
	}
	f.Add("pareto:alpha=2,min=1,max=100", 50.0)
	f.Add("pareto:alpha=3,min=1", 1e12)
	f.Add("erlang:k=1000,mean=1", 1.0)
	f.Add("modal:1,1,2", 1.0)
	f.Fuzz(func(t *testing.T, spec string, cut float64) {
		s, err := ParseSizes(spec)
		if err != nil || math.IsNaN(cut) || math.IsInf(cut, 0) {
			return
		}
		checkBelowCut(t, s, []float64{math.Abs(cut) / 2, math.Abs(cut)})
	})
}

// ownLaw is a size law of one's own with the optional methods exported,
// answering from a built-in law's.
type ownLaw struct{ SizeLaw }

func (o ownLaw) BelowCut(cut float64) (p, m1, m2 float64) {
	p, m1, m2, _ = BelowCut(o.SizeLaw, cut)
	return p, m1, m2
}
func (o ownLaw) ThirdMoment() float64           { m3, _ := lawThirdMoment(o.SizeLaw); return m3 }
func (o ownLaw) TailIndex() float64             { return lawTailIndex(o.SizeLaw) }
func (o ownLaw) Classes() ([]string, []float64) { return []string{"small", "big"}, []float64{2} }

// The functions that ask a size law's optional methods read a built-in
// law's unexported ones and a user's exported ones alike, and say when a
// law has none.
func TestSizeHooksOfOwnLaws(t *testing.T) {
	s := Pareto{Alpha: 2.5, L: 1, H: math.Inf(1)}
	p, m1, m2, ok := BelowCut(s, 3)
	op, om1, om2, ook := BelowCut(ownLaw{s}, 3)
	m3, ok3 := lawThirdMoment(s)
	om3, ook3 := lawThirdMoment(ownLaw{s})
	if !ok || !ook || op != p || om1 != m1 || om2 != m2 || !ok3 || !ook3 || om3 != m3 || lawTailIndex(ownLaw{s}) != 2.5 {
		t.Errorf("a law of one's own forwarding to %v: BelowCut (%v %v %v %v), E[X^3] (%v %v), tail index %v", s, op, om1, om2, ook, om3, ook3, lawTailIndex(ownLaw{s}))
	}
	if cls := lawClasses(ownLaw{s}, 4); len(cls) != 2 || cls[0].Upper != 2 || cls[1].Name != "big" || cls[1].To != 4 {
		t.Errorf("classes of a law of one's own: %+v", cls)
	}
	bare := struct{ SizeLaw }{s} // none of the optional methods
	_, _, _, ok = BelowCut(bare, 3)
	_, ok3 = lawThirdMoment(bare)
	if ok || ok3 || !math.IsInf(lawTailIndex(bare), 1) || lawClasses(bare, 4) != nil {
		t.Errorf("a law without optional methods: BelowCut %v, ThirdMoment %v, tail index %v, classes %v", ok, ok3, lawTailIndex(bare), lawClasses(bare, 4))
	}
}
