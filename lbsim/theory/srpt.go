package theory

import (
	"fmt"
	"math"
	"slices"
)

// Partial is a job-size law as the M/G/1-SRPT formula reads it: its
// moments below every size x.
type Partial interface {
	// Below is (F(x), E[X; X <= x], E[X^2; X <= x]) with F(x) = P(X <= x)
	// and E[Y; A] = E[Y 1_A], for x >= 0; at x = +Inf the totals (1, E[X],
	// E[X^2]), E[X^2] possibly +Inf.
	Below(x float64) (p, m1, m2 float64)
}

// Atomic is a Partial law whose whole mass sits on finitely many sizes
// (deterministic, two-point, empirical): SRPT's mean is then a finite sum.
type Atomic interface {
	Partial
	// Atoms are the sizes of positive probability, ascending and distinct.
	Atoms() []float64
}

// SRPTTolerance is the relative error bound MG1SRPT.Solve aims for.
const SRPTTolerance = 1e-9

// srptMaxPoints caps the integration grid: a law that needs more is
// returned with the bound reached (SRPTMeans.Bound says how far it is).
const srptMaxPoints = 1 << 18

// MG1SRPT is a single server under preemptive shortest remaining
// processing time: Poisson arrivals at rate Lambda, i.i.d. sizes of law
// Size, speed Mu (a job of size x needs x/Mu of service). Ties between
// equal remaining times go to the earlier job, so equal sizes are served
// FCFS.
type MG1SRPT struct {
	Lambda float64
	Size   Partial
	Mu     float64
}

// SRPTMeans are an M/G/1-SRPT server's mean delays, each within its bound
// of the true value (integration and rounding; the law's Below is taken
// as accurate to a few ulps).
type SRPTMeans struct {
	// Delay: Response = E[T]; Wait = E[T] - E[X]/mu, the mean time in
	// system beyond the job's own service (as under PS: a job preempted
	// after it started waits again).
	Delay
	// Bound bounds |error| of Response (and of Wait).
	Bound float64
	// Below are E[T; X <= cuts[i]] for Solve's cuts, the share of the mean
	// response that jobs of size at most the cut bring (E[T | class] =
	// (Below[j] - Below[i]) / P(cut_i < X <= cut_j)), with their bounds.
	Below, BelowBound []float64
	// Points is the number of sizes at which the law was evaluated.
	Points int
}

// Solve returns the mean delays of Schrage and Miller (1966). A job of
// size x (service x/mu) waits until it first runs for W(x) and then
// stays R(x) longer:
//
//	W(x) = lambda E[min(X,x)^2] / (2 mu^2 (1 - rho(x-)) (1 - rho(x))),
//	R(x) = int_0^x dt / (mu (1 - rho(t))),   rho(x) = lambda E[X; X <= x] / mu,
//
// and E[T] = E[W(X) + R(X)]. The two factors of W's denominator are the
// work ahead of the job (jobs of remaining size <= x, equal sizes that came
// earlier included: rho(x)) and the busy period of the later arrivals that
// preempt it (strictly shorter: rho(x-)); for a continuous law both are
// (1 - rho(x))^2, for a deterministic one W is the M/D/1 wait.
//
// How: with G = 1/(1 - rho), W dF = M2(x)/(2x) dG (M2(x) = E[min(X,x)^2]),
// and by parts and Fubini
//
//	mu E[T] = E[X] + (1/2) int Psi(y) dG(y),
//	Psi(y) = int_y^inf E[min(X/x,1)^2] dx = E[(X-y)+] + E[X; X > y] + E[X^2; X <= y]/y,
//
// a closed form of the partial moments, convex and decreasing. An atomic
// law makes the integral a finite sum (G jumps at the atoms only): exact.
// Otherwise on each cell (a, b] of a grid, in the variable r = rho(y),
// dG = dr/(1-r)^2 and the cell's mean size ybar = E[X^2; a < X <= b] /
// E[X; a < X <= b] is known, so Jensen and the chord of the convex Psi at
// ybar, and Chebyshev's inequality for the weight 1/(1-r)^2, bracket the
// cell's part to second order in its width; the cells are split where
// the bracket is widest until the sum of the brackets, of the tail's
// bound Psi(y_max) (G(inf) - G(y_max)) and of the rounding is below
// SRPTTolerance times E[T] (or srptMaxPoints are spent, or the rounding
// outweighs the brackets: Bound says what was reached; a Pareto tail of
// index near 1 keeps a tenth of its mean beyond 1e15 E[X], where y (1 -
// F(y)) is lost to rounding). The value is the middle of the bracket.
//
// E[T; X <= c] for each cut c: the same integral up to c, with
//
//	mu E[T; X <= c] = (1/2) [h(c) G(c) + 2E[X] - Psi(c) - 2c(1-F(c))
//	                  + A(c) + k B(c) - (Psi(c) + k c)(G(c) - 1)],
//
// A(c) = int_(0,c] Psi dG, B(c) = int_(0,c] y dG, k = 2(1-F(c)), h(c) =
// M2(c)/c. Conditions: Poisson arrivals, 0 < E[X] < inf (E[X^2] may be
// infinite: the mean is finite for every law with a finite mean),
// rho = lambda E[X]/mu < 1.
func (q MG1SRPT) Solve(cuts ...float64) (SRPTMeans, error) {
	if err := checkArrivalRate(q.Lambda); err != nil {
		return SRPTMeans{}, err
	}
	if err := checkPositive("speed mu", q.Mu); err != nil {
		return SRPTMeans{}, err
	}
	if q.Size == nil {
		return SRPTMeans{}, fmt.Errorf("theory: size law is nil: pass a law with Below, e.g. a lbsim size law's partial moments")
	}
	p, m, _ := q.Size.Below(math.Inf(1))
	if !finite(m) || m <= 0 || math.Abs(p-1) > 1e-12 {
		return SRPTMeans{}, fmt.Errorf("theory: size law has P(X < inf)=%g, E[X]=%g: need a law of total mass 1 and 0 < E[X] < inf", p, m)
	}
	s := srpt{law: q.Size, lam: q.Lambda / q.Mu, mean: m}
	if rho := s.lam * m; rho >= 1 {
		return SRPTMeans{}, fmt.Errorf("theory: M/G/1-SRPT load rho=%g (lambda=%g, E[X]=%g, mu=%g) is unstable: need 0 <= rho < 1; lower the arrival rate or raise the speed", rho, q.Lambda, m, q.Mu)
	}
	for _, c := range cuts {
		if !(c >= 0) {
			return SRPTMeans{}, fmt.Errorf("theory: SRPT cut %g is invalid: need a size >= 0 (or +Inf)", c)
		}
	}
	s.gInf = 1 / (1 - s.lam*m)
	var out SRPTMeans
	if a, ok := q.Size.(Atomic); ok {
		s.atomic(a.Atoms())
	} else {
		s.integrate(cuts)
	}
	total, bound := s.total()
	out.Response, out.Bound = total/q.Mu, bound/q.Mu
	out.Wait = out.Response - m/q.Mu
	for _, c := range cuts {
		v, b := s.below(c)
		out.Below, out.BelowBound = append(out.Below, v/q.Mu), append(out.BelowBound, b/q.Mu)
	}
	out.Points = len(s.pts)
	return out, nil
}

// srpt is one evaluation of Solve, in units of size (speed 1, rate
// lambda/mu).
type srpt struct {
	law        Partial
	lam, mean  float64
	gInf       float64     // G(inf) = 1/(1-rho)
	pts        []srptPoint // the grid: pts[0] is y = 0
	exact      bool        // atomic: the brackets are points
	tail       float64     // the bound of int_(y_max, inf) Psi dG
	roundError float64     // of every cell's evaluation, summed
}

// srptPoint is the law at size y and the integrals A = int_(0,y] Psi dG
// and B = int_(0,y] y dG up to it, bracketed.
type srptPoint struct {
	y, f, m1, m2       float64
	aLo, aHi, bLo, bHi float64
}

func (s *srpt) at(y float64) srptPoint {
	f, m1, m2 := s.law.Below(y)
	return srptPoint{y: y, f: f, m1: m1, m2: m2}
}

func (s *srpt) g(p srptPoint) float64 { return 1 / (1 - s.lam*p.m1) }

// psi is Psi(y) = E[(X-y)+] + E[X; X > y] + E[X^2; X <= y]/y, and its
// slope -psi1 with psi1 = E[min(X/y,1)^2] (Psi(0) = 2E[X], psi1(0) = 1).
func (s *srpt) psi(p srptPoint) (psi, psi1 float64) {
	if p.y == 0 {
		return 2 * s.mean, 1
	}
	above, tail := max(s.mean-p.m1, 0), max(1-p.f, 0)
	return max(above-p.y*tail, 0) + above + p.m2/p.y, tail + p.m2/(p.y*p.y)
}

// atomic sums over the atoms: G jumps at atom y by dG, and A, B gain
// Psi(y) dG and y dG exactly.
func (s *srpt) atomic(atoms []float64) {
	s.exact = true
	s.pts = []srptPoint{{}}
	for _, y := range atoms {
		s.pts = append(s.pts, s.at(y))
	}
	s.accumulate()
}

// integrate refines a grid of sizes until the brackets meet the tolerance.
func (s *srpt) integrate(cuts []float64) {
	ys := []float64{0}
	for y := s.mean * 0x1p-30; y <= s.mean*0x1p10; y *= 2 {
		ys = append(ys, y)
	}
	for _, c := range cuts {
		if c > 0 && !math.IsInf(c, 1) {
			ys = append(ys, c)
		}
	}
	slices.Sort(ys)
	ys = slices.Compact(ys)
	s.pts = make([]srptPoint, len(ys))
	for i, y := range ys {
		s.pts[i] = s.at(y)
	}
	// the tail: extend y_max until Psi(y_max) (G(inf) - G(y_max)) is small
	target := SRPTTolerance * 2 * s.mean // of 2 mu E[T] >= 2 E[X]
	for len(s.pts) < srptMaxPoints/2 {
		last := s.pts[len(s.pts)-1]
		if s.tailBound(last) <= target/4 || last.y > s.mean*0x1p200 {
			break // small enough, or a tail too heavy to reach it (Bound says)
		}
		s.pts = append(s.pts, s.at(2*last.y))
	}
	bLimit := 0.0 // B is needed up to the largest finite cut only
	for _, c := range cuts {
		if !math.IsInf(c, 1) {
			bLimit = max(bLimit, c)
		}
	}
	for {
		gaps := s.accumulate()
		last := s.pts[len(s.pts)-1]
		s.tail = s.tailBound(last)
		target = SRPTTolerance * 2 * (s.mean + last.aLo/2) // of 2 mu E[T], at least
		sum, w := 0.0, make([]float64, len(s.pts))
		for i := 1; i < len(s.pts); i++ {
			w[i] = gaps[i].a
			if s.pts[i].y <= bLimit {
				w[i] += 2 * gaps[i].b
			}
			sum += w[i]
		}
		// Done when the bound meets the target, or when the cells' part
		// is below the rounding's, which splitting does not lower.
		if sum+s.tail+s.roundError <= target || sum <= s.roundError {
			return
		}
		n, split := len(s.pts), 0
		for i := 1; i < n; i++ {
			if w[i] > target/float64(2*n) {
				split++
			}
		}
		if n+split > srptMaxPoints {
			return // the bound reached is the answer's Bound
		}
		next := make([]srptPoint, 0, n+split)
		next = append(next, s.pts[0])
		for i := 1; i < n; i++ {
			a, b := s.pts[i-1], s.pts[i]
			if w[i] > target/float64(2*n) {
				mid := (a.y + b.y) / 2
				if a.y > 0 && b.y > 2*a.y {
					mid = math.Sqrt(a.y * b.y)
				}
				if mid > a.y && mid < b.y {
					next = append(next, s.at(mid))
				}
			}
			next = append(next, b)
		}
		if len(next) == n {
			return // no cell can be split further (rounding)
		}
		s.pts = next
	}
}

// tailBound bounds int_(y, inf) Psi dG by Psi(y) (G(inf) - G(y)), with
// Psi(y) <= 2 E[X; X > y] + E[X^2; X <= y]/y (robust to the rounding of
// 1 - F(y) at large y).
func (s *srpt) tailBound(p srptPoint) float64 {
	dg := s.gInf - s.g(p)
	if p.f >= 1 && p.m1 >= s.mean {
		return 0 // no mass beyond y
	}
	return (2*max(s.mean-p.m1, 0) + p.m2/p.y) * max(dg, 0) * (1 + 1e-12)
}

type srptGap struct{ a, b float64 }

// accumulate fills each point's brackets of A and B from its cell (the
// previous point to it), and returns each cell's bracket widths; it also
// sums the rounding allowance.
//
// Cell (a, b], in r = rho(y) from r_a to r_b (dr = dRho): y(r) lies in
// [a, b] with mean ybar = E[X^2; cell]/E[X; cell], and the weight w(r) =
// 1/(1-r)^2 has mean dG/dRho. So int Psi(y(r)) w(r) dr = dG mean(Psi) +
// int Psi (w - wbar) dr, the first between dG Psi(ybar) (Jensen; below
// it by the tangents at a and b) and dG chord(ybar), the second (Psi
// decreasing, w increasing: Chebyshev) between -dPsi dw dRho/4 and 0;
// likewise int y w dr lies between dG ybar and dG ybar + (b-a) dw
// dRho/4.
func (s *srpt) accumulate() []srptGap {
	gaps := make([]srptGap, len(s.pts))
	s.roundError = 0
	const eps = 0x1p-52
	for i := 1; i < len(s.pts); i++ {
		a, b := &s.pts[i-1], &s.pts[i]
		b.aLo, b.aHi, b.bLo, b.bHi = a.aLo, a.aHi, a.bLo, a.bHi
		dRho := s.lam * (b.m1 - a.m1)
		if !(dRho > 0) {
			continue // no mass in the cell: G is flat
		}
		ga, gb := s.g(*a), s.g(*b)
		dG := gb - ga
		pa, qa := s.psi(*a)
		pb, qb := s.psi(*b)
		// rounding: of G (telescoping: eps G(inf) |dPsi|), of Psi (a
		// few eps E[X], and y (1 - F(y)) off by y eps but kept in [0,
		// E[X; X > y]]) and of the running sums
		s.roundError += 4*eps*(s.gInf*(pa-pb)+dG*4*s.mean) + 2*dG*min(2*eps*b.y, max(s.mean-b.m1, 0)) + eps*b.aHi
		if s.exact { // all the cell's mass is at b
			b.aLo, b.aHi = b.aLo+dG*pb, b.aHi+dG*pb
			b.bLo, b.bHi = b.bLo+dG*b.y, b.bHi+dG*b.y
			continue
		}
		ybar := min(max(s.lam*(b.m2-a.m2)/dRho, a.y), b.y)
		chord := pa + (pb-pa)*(ybar-a.y)/(b.y-a.y)
		tangent := max(pa-qa*(ybar-a.y), pb+qb*(b.y-ybar))
		dw := gb*gb - ga*ga
		aLo, aHi := dG*min(tangent, chord)-(pa-pb)*dw*dRho/4, dG*chord
		bLo, bHi := dG*ybar, dG*ybar+(b.y-a.y)*dw*dRho/4
		b.aLo, b.aHi, b.bLo, b.bHi = b.aLo+aLo, b.aHi+aHi, b.bLo+bLo, b.bHi+bHi
		gaps[i] = srptGap{aHi - aLo, bHi - bLo}
	}
	return gaps
}

// total is mu E[T] = E[X] + A(inf)/2 and its bound.
func (s *srpt) total() (v, bound float64) {
	last := s.pts[len(s.pts)-1]
	lo, hi := last.aLo, last.aHi+s.tail
	return s.mean + (lo+hi)/4, (hi-lo)/4 + s.roundError/2
}

// below is mu E[T; X <= c] and its bound, from the grid point at c (or,
// for an atomic law, the last atom at most c).
func (s *srpt) below(c float64) (v, bound float64) {
	if math.IsInf(c, 1) {
		return s.total()
	}
	if c == 0 {
		return 0, 0
	}
	i, _ := slices.BinarySearchFunc(s.pts, c, func(p srptPoint, c float64) int {
		switch {
		case p.y < c:
			return -1
		case p.y > c:
			return 1
		}
		return 0
	})
	if i == len(s.pts) || s.pts[i].y != c {
		i-- // atomic: the last atom below c carries A and B
	}
	p := s.at(c)
	p.aLo, p.aHi, p.bLo, p.bHi = s.pts[i].aLo, s.pts[i].aHi, s.pts[i].bLo, s.pts[i].bHi
	g := s.g(p)
	psi, _ := s.psi(p)
	tail := max(1-p.f, 0)
	k := 2 * tail
	base := (p.m2/c+c*tail)*g + 2*s.mean - psi - 2*c*tail - (psi+k*c)*(g-1)
	lo, hi := base+p.aLo+k*p.bLo, base+p.aHi+k*p.bHi
	return (lo + hi) / 4, (hi-lo)/4 + s.roundError/2 + 4*0x1p-52*(math.Abs(base)+hi)
}

// AtomResponses are E[T | X = x] of an Atomic law at each of its atoms, in
// order, by Solve's W(x) + R(x) as finite sums: rho(t) is constant between
// atoms, rho(x-) is its value below x, and E[min(X,x)^2] = E[X^2; X <= x] +
// x^2 (1 - F(x)). The mean slowdown of the queue is then sum_x P(X = x)
// mu E[T | x] / x.
func (q MG1SRPT) AtomResponses() ([]float64, error) {
	a, ok := q.Size.(Atomic)
	if !ok {
		return nil, fmt.Errorf("theory: AtomResponses needs an Atomic size law")
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	var out []float64
	var prev, r, rhoPrev float64 // the last atom, R there, rho up to it
	for _, x := range a.Atoms() {
		p, m1, m2 := q.Size.Below(x)
		rho := q.Lambda * m1 / q.Mu
		r += (x - prev) / (q.Mu * (1 - rhoPrev))
		w := q.Lambda * (m2 + x*x*(1-p)) / (2 * q.Mu * q.Mu * (1 - rhoPrev) * (1 - rho))
		out = append(out, w+r)
		prev, rhoPrev = x, rho
	}
	return out, nil
}

// Slowdown is E[mu T(X)/X; lo < X <= hi], the part of the mean slowdown
// E[T/S] (S = X/mu) that sizes in (lo, hi] bring, for a law that is not
// Atomic (AtomResponses sums those), with T(x) = W(x) + R(x) as in Solve:
// mu R(x) = int_0^x dt/(1 - rho(t)) and mu W(x) = lambda E[min(X,x)^2] /
// (2 mu (1 - rho(x))^2). Integrated on nested geometric grids (about n
// cells an e-fold, and 16n a unit of probability) between the sizes of probability 1e-15 from either end (lo, hi
// and breaks among the grid points): each cell contributes P(cell) times
// the integrand at its mean size, R by the trapezoid rule, both errors of
// second order in the cell's width, so Richardson's extrapolation over n
// and 2n gives the value; n doubles until two extrapolations are within
// SRPTTolerance of each other (bound: their difference).
func (q MG1SRPT) Slowdown(lo, hi float64, breaks ...float64) (s, bound float64, err error) {
	if err := q.check(); err != nil {
		return 0, 0, err
	}
	const tail = 1e-15
	a, b := 1.0, 1.0 // sizes of F(a) <= tail, 1 - F(b) <= tail
	for p, _, _ := q.Size.Below(a); p > tail && a > 1e-300; p, _, _ = q.Size.Below(a) {
		a /= 2
	}
	for p, _, _ := q.Size.Below(b); 1-p > tail && b < 1e300; p, _, _ = q.Size.Below(b) {
		b *= 2
	}
	pts := []float64{a, b}
	for _, x := range append([]float64{lo, hi}, breaks...) {
		if x > a && x < b {
			pts = append(pts, x)
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	lam := q.Lambda / q.Mu
	// at is the integrand's sum over the grid of n cells an e-fold.
	at := func(n int) float64 {
		p0, m10, _ := q.Size.Below(a)
		sum, r := 0.0, a*(1+lam*m10/2) // mu R(a), rho(t) ~ linear below a
		if a > lo && a <= hi {
			sum += p0 // mu T(x)/x -> 1 as x -> 0
		}
		for j := 1; j < len(pts); j++ {
			x0, x1 := pts[j-1], pts[j]
			f0, _, _ := q.Size.Below(x0)
			f1, _, _ := q.Size.Below(x1)                                     // a share of the mass, of the load
			cells := int(math.Ceil(16*math.Log(x1/x0)+256*(f1-f0))) * n / 16 // nested grids
			in := x0 >= lo && x1 <= hi
			step, y1 := math.Pow(x1/x0, 1/float64(cells)), x0
			for c := 1; c <= cells; c++ {
				y0 := y1
				if y1 *= step; c == cells {
					y1 = x1
				}
				p1, m11, _ := q.Size.Below(y1)
				g0, g1 := 1/(1-lam*m10), 1/(1-lam*m11)
				if in && p1 > p0 {
					xm := min(max((m11-m10)/(p1-p0), y0), y1) // within the cell despite rounding
					pm, mm1, mm2 := q.Size.Below(xm)
					gm := 1 / (1 - lam*mm1)
					w := lam * (mm2 + xm*xm*(1-pm)) / 2 * gm * gm
					sum += (p1 - p0) * (w + r + (xm-y0)*(g0+gm)/2) / xm
				}
				r += (y1 - y0) * (g0 + g1) / 2
				p0, m10 = p1, m11
			}
		}
		return sum
	}
	s1, prev := at(16), math.NaN()
	for n := 32; n <= 8192; n *= 2 {
		s2 := at(n)
		s, s1 = (4*s2-s1)/3, s2
		if bound = math.Abs(s - prev); bound <= SRPTTolerance*s {
			return s, bound, nil
		}
		prev = s
	}
	return s, bound, fmt.Errorf("theory: SRPT slowdown: the grids disagree by %g of %g", bound, s)
}

// check is what Solve requires of the queue, without solving it: a law of
// finite positive mean at a load below 1, a positive speed.
func (q MG1SRPT) check() error {
	if q.Size == nil || !(q.Mu > 0) || !(q.Lambda >= 0) {
		return fmt.Errorf("theory: M/G/1-SRPT needs a size law, a speed > 0 and a rate >= 0 (got mu=%g, lambda=%g)", q.Mu, q.Lambda)
	}
	if _, m, _ := q.Size.Below(math.Inf(1)); !(m > 0) || !(q.Lambda*m/q.Mu < 1) {
		return fmt.Errorf("theory: M/G/1-SRPT with E[X]=%g at load %g: need 0 < E[X] < inf and a load below 1", m, q.Lambda*m/q.Mu)
	}
	return nil
}
