package theory

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The waiting and response time laws of the M/G/1 FCFS queue whose service
// time has a rational transform, from the Pollaczek-Khinchine transform
// equation (Kleinrock, Queueing Systems I, ch. 5)
//
//	W*(s) = (1 - rho) s / (s - lambda (1 - B*(s))),
//
// B*(s) the service time's transform and rho = lambda E[S] < 1.

// MG1HyperExpTails returns the tails of the waiting and the response time
// of the M/H_n/1 FCFS queue: Poisson arrivals at rate lambda, service time
// exponential of rate m[j] with probability p[j] (a finite mixture of
// exponentials: the size law's rates times the server's speed). Then
// B*(s) = sum_j p_j m_j/(m_j + s) and W*(s) is rational, its poles the
// roots s = -r of
//
//	h(r) = lambda sum_j p_j/(m_j - r) - 1 = 0
//
// (s - lambda (1 - B*(s)) = -s h(-s)). With the distinct rates increasing,
// h rises from rho - 1 < 0 to +inf on (0, m_1) and from -inf to +inf
// between consecutive rates, so the n roots are real and distinct, r_1 in
// (0, m_1) and r_i in (m_{i-1}, m_i), found by bisection. Partial
// fractions give
//
//	P(W > t) = sum_i c_i exp(-r_i t),  c_i = (1 - rho) / (lambda r_i sum_j p_j/(m_j - r_i)^2),
//
// with sum_i c_i = rho = P(W > 0), and the response R = W + S (S
// independent of W) by convolution:
//
//	P(R > t) = sum_j p_j exp(-m_j t) + sum_{i,j} c_i p_j m_j (exp(-m_j t) - exp(-r_i t))/(r_i - m_j).
//
// One rate is M/M/1: r = m - lambda, c = rho. The result is checked
// against P(W > 0) = rho and Pollaczek-Khinchine's mean (checkWaitTail); an
// error says when rounding broke it. Conditions: rho < 1, p_j >= 0
// summing to 1, rates positive and finite.
func MG1HyperExpTails(lambda float64, p, m []float64) (wait, response Tail, err error) {
	if err := checkArrivalRate(lambda); err != nil {
		return nil, nil, err
	}
	p, m, err = exponentialPhases(p, m)
	if err != nil {
		return nil, nil, err
	}
	es, es2 := 0.0, 0.0
	for j := range p {
		es, es2 = es+p[j]/m[j], es2+2*p[j]/(m[j]*m[j])
	}
	rho := lambda * es
	if err := checkLoad(rho); err != nil {
		return nil, nil, fmt.Errorf("%w (M/H/1 with lambda=%g, E[S]=%g)", err, lambda, es)
	}
	var r, c []float64
	if lambda > 0 {
		h := func(x float64) float64 {
			s := 0.0
			for j := range p {
				s += p[j] / (m[j] - x)
			}
			return lambda*s - 1
		}
		lo := 0.0
		for _, hi := range m {
			ri := risingRoot(h, lo, hi)
			s := 0.0
			for j := range p {
				d := m[j] - ri
				s += p[j] / (d * d)
			}
			r, c, lo = append(r, ri), append(c, (1-rho)/(lambda*ri*s)), hi
		}
	}
	atom, mean := 0.0, 0.0
	for i := range r {
		atom, mean = atom+c[i], mean+c[i]/r[i]
	}
	if err := checkWaitTail("M/H/1", rho, atom, mean, lambda*es2/(2*(1-rho))); err != nil {
		return nil, nil, err
	}
	for i := range c {
		c[i] *= rho / atom // P(W > 0) = rho to the last bit: no p50 of 1e-16 above the atom
	}
	wait = func(t float64) float64 {
		s := 0.0
		for i := range r {
			s += c[i] * math.Exp(-r[i]*t)
		}
		return s
	}
	response = func(t float64) float64 {
		s := 0.0
		for j := range p {
			s += p[j] * math.Exp(-m[j]*t)
			for i := range r {
				s += c[i] * p[j] * m[j] * expGap(m[j], r[i], t)
			}
		}
		return s
	}
	return wait, response, nil
}

// risingRoot is the root of f, increasing on (lo, hi) from below 0 to
// above 0, by bisection to the last bit; f is not evaluated at the ends
// (poles of h).
func risingRoot(f func(float64) float64, lo, hi float64) float64 {
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return mid
		}
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
}

// exponentialPhases validates a mixture of exponentials and returns its
// phases of positive probability with equal rates merged, by increasing
// rate.
func exponentialPhases(p, m []float64) (ps, ms []float64, err error) {
	if len(p) != len(m) || len(p) == 0 {
		return nil, nil, fmt.Errorf("theory: a mixture of exponentials needs as many probabilities as rates, at least one: got %d and %d", len(p), len(m))
	}
	order := make([]int, len(p))
	sum := 0.0
	for j := range p {
		if !finite(p[j]) || p[j] < 0 {
			return nil, nil, fmt.Errorf("theory: phase probability p[%d]=%g is invalid: need 0 <= p <= 1, summing to 1", j, p[j])
		}
		if err := checkPositive(fmt.Sprintf("phase rate m[%d]", j), m[j]); err != nil {
			return nil, nil, err
		}
		order[j], sum = j, sum+p[j]
	}
	if math.Abs(sum-1) > 1e-12 {
		return nil, nil, fmt.Errorf("theory: phase probabilities sum to %g: need 1; normalise them", sum)
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(m[a], m[b]) })
	for _, j := range order {
		switch {
		case p[j] == 0:
		case len(ms) > 0 && ms[len(ms)-1] == m[j]:
			ps[len(ps)-1] += p[j]
		default:
			ps, ms = append(ps, p[j]), append(ms, m[j])
		}
	}
	return ps, ms, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// expGap is (exp(-a t) - exp(-b t)) / (b - a), t exp(-a t) when a = b,
// without the cancellation of the difference when a and b are close.
func expGap(a, b, t float64) float64 {
	if a > b {
		a, b = b, a
	}
	x := (b - a) * t
	if x == 0 {
		return t * math.Exp(-a*t)
	}
	return t * math.Exp(-a*t) * -math.Expm1(-x) / x
}

// checkWaitTail checks a computed M/G/1 wait law: its atom P(W > 0)
// against rho and its mean (int P(W > t) dt) against
// Pollaczek-Khinchine's, to a relative 1e-9: rounding in the roots or the
// matrices must not give a wrong law silently.
func checkWaitTail(queue string, rho, atom, mean, pk float64) error {
	if !(math.Abs(atom-rho) <= 1e-9*math.Max(rho, 1e-300)) || !(math.Abs(mean-pk) <= 1e-9*math.Max(pk, 1e-300)) {
		return fmt.Errorf("theory: %s wait law lost to rounding: P(W > 0) = %.12g against rho = %.12g, mean %.12g against Pollaczek-Khinchine's %.12g; no exact tail at this law and load", queue, atom, rho, mean, pk)
	}
	return nil
}

// PhaseType is the law of the time to absorption of a Markov chain that
// starts in phase i with probability Alpha[i] and moves among its phases
// by the sub-generator T (n x n, non-negative off the diagonal, rows
// summing to <= 0, the deficit t = -T 1 the exit rates):
//
//	P(S > x) = Alpha exp(T x) 1,  E[S^k] = k! Alpha (-T)^-k 1.
//
// Alpha sums to 1 (no atom at 0).
type PhaseType struct {
	Alpha []float64
	T     *mat.Dense
}

// ErlangPhases is the Erlang law of k phases of rate each as a PhaseType:
// T has -rate on the diagonal and rate just above it, Alpha starts in the
// first phase.
func ErlangPhases(k int, rate float64) PhaseType {
	alpha := make([]float64, k)
	alpha[0] = 1
	T := mat.NewDense(k, k, nil)
	for i := range k {
		T.Set(i, i, -rate)
		if i+1 < k {
			T.Set(i, i+1, rate)
		}
	}
	return PhaseType{Alpha: alpha, T: T}
}

// MaxTailPhases bounds the phases of MPH1Tails: its response tail takes a
// matrix exponential of twice that order at every point.
const MaxTailPhases = 20

// MPH1Tails returns the tails of the waiting and the response time of the
// M/PH/1 FCFS queue: Poisson arrivals at rate lambda, service time of the
// phase-type law s (at most MaxTailPhases phases). By the
// Pollaczek-Khinchine (Benes) form the wait is a geometric sum, N
// copies with P(N = n) = (1 - rho) rho^n, of the service's stationary
// excess, itself phase-type with start a = Alpha (-T)^-1 / E[S]; so
// (Neuts, Matrix-Geometric Solutions in Stochastic Models, ch. 2;
// Asmussen and Albrecher, Ruin Probabilities, 2nd ed., ch. IX) W is 0 with
// probability 1 - rho, else of phase-type with start a and generator
// T + rho t a, t = -T 1:
//
//	P(W > x) = rho a exp((T + rho t a) x) 1.
//
// The response R = W + S, S independent, is the concatenation: phases
// (W's, S's), start (rho a, (1 - rho) Alpha), generator
//
//	[ T + rho t a   (1 - rho) t Alpha ]
//	[ 0             T                 ],
//
// P(R > x) = start exp(G x) 1. The wait law is checked against P(W > 0) =
// rho and Pollaczek-Khinchine's mean lambda E[S^2]/(2 (1 - rho)).
func MPH1Tails(lambda float64, s PhaseType) (wait, response Tail, err error) {
	if err := checkArrivalRate(lambda); err != nil {
		return nil, nil, err
	}
	n, err := s.check()
	if err != nil {
		return nil, nil, err
	}
	var U mat.Dense // (-T)^-1: U[i][j] the mean time in j from i
	var negT mat.Dense
	negT.Scale(-1, s.T)
	if err := U.Inverse(&negT); err != nil {
		return nil, nil, fmt.Errorf("theory: phase-type sub-generator is singular (%v): every phase must lead to absorption", err)
	}
	alpha := mat.NewVecDense(n, s.Alpha)
	var au mat.VecDense // Alpha (-T)^-1: the mean times in each phase
	au.MulVec(U.T(), alpha)
	var auu mat.VecDense
	auu.MulVec(U.T(), &au)
	es, es2 := mat.Sum(&au), 2*mat.Sum(&auu)
	rho := lambda * es
	if err := checkLoad(rho); err != nil {
		return nil, nil, fmt.Errorf("%w (M/PH/1 with lambda=%g, E[S]=%g)", err, lambda, es)
	}
	exit := make([]float64, n) // t = -T 1
	for i := range n {
		exit[i] = -mat.Sum(s.T.RowView(i))
	}
	a := make([]float64, n) // the stationary excess's start
	for j := range n {
		a[j] = au.AtVec(j) / es
	}
	G := mat.NewDense(2*n, 2*n, nil)
	start := make([]float64, 2*n)
	for i := range n {
		start[i], start[n+i] = rho*a[i], (1-rho)*s.Alpha[i]
		for j := range n {
			G.Set(i, j, s.T.At(i, j)+rho*exit[i]*a[j])
			G.Set(i, n+j, (1-rho)*exit[i]*s.Alpha[j])
			G.Set(n+i, n+j, s.T.At(i, j))
		}
	}
	W := mat.DenseCopyOf(G.Slice(0, n, 0, n))
	var negW, UW mat.Dense
	negW.Scale(-1, W)
	if err := UW.Inverse(&negW); err != nil {
		return nil, nil, fmt.Errorf("theory: M/PH/1 wait generator is singular (%v); no exact tail at this law and load", err)
	}
	atom := total(start[:n])
	mean := mat.Inner(mat.NewVecDense(n, start[:n]), &UW, mat.NewVecDense(n, ones(n)))
	if err := checkWaitTail("M/PH/1", rho, atom, mean, lambda*es2/(2*(1-rho))); err != nil {
		return nil, nil, err
	}
	return phaseTail(start[:n], W), phaseTail(start, G), nil
}

// check validates a phase-type law and returns its order.
func (s PhaseType) check() (int, error) {
	if s.T == nil {
		return 0, fmt.Errorf("theory: phase-type law without a sub-generator T: build it with ErlangPhases or give T")
	}
	n, c := s.T.Dims()
	if n != c || n != len(s.Alpha) || n == 0 || n > MaxTailPhases {
		return 0, fmt.Errorf("theory: phase-type law of %d start probabilities and a %dx%d sub-generator: need a square T of order 1..%d matching Alpha", len(s.Alpha), n, c, MaxTailPhases)
	}
	if sum := total(s.Alpha); math.Abs(sum-1) > 1e-12 {
		return 0, fmt.Errorf("theory: phase-type start probabilities sum to %g: need 1", sum)
	}
	for i := range n {
		if !finite(s.Alpha[i]) || s.Alpha[i] < 0 {
			return 0, fmt.Errorf("theory: phase-type start probability Alpha[%d]=%g is invalid: need 0 <= Alpha[i] <= 1", i, s.Alpha[i])
		}
		row := 0.0
		for j := range n {
			v := s.T.At(i, j)
			if !finite(v) || (i != j && v < 0) {
				return 0, fmt.Errorf("theory: phase-type rate T[%d][%d]=%g is invalid: need finite rates, non-negative off the diagonal", i, j, v)
			}
			row += v
		}
		if row > 1e-12*math.Abs(s.T.At(i, i)) {
			return 0, fmt.Errorf("theory: phase-type row %d of T sums to %g: need <= 0 (a sub-generator)", i, row)
		}
	}
	return n, nil
}

// phaseTail is x -> start exp(G x) 1, a (possibly defective) phase-type
// tail.
func phaseTail(start []float64, G *mat.Dense) Tail {
	n := len(start)
	v, one := mat.NewVecDense(n, start), mat.NewVecDense(n, ones(n))
	return func(x float64) float64 {
		var gx, e mat.Dense
		gx.Scale(x, G)
		e.Exp(&gx)
		return math.Max(mat.Inner(v, &e, one), 0)
	}
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

func total(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}
