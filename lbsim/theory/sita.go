package theory

import (
	"fmt"
	"math"
)

// ClassMoments is one class of jobs under a size cut-off: the probability that
// a job is in the class and the class's conditional moments
// M1 = E[X | class], M2 = E[X^2 | class].
type ClassMoments struct {
	Prob, M1, M2 float64
}

// SITAResult holds the exact mean delays of SITA with random splitting.
type SITAResult struct {
	C           int     // servers 1..C take short jobs, C+1..K long jobs
	LoadShort   float64 // per-server load of the short group
	LoadLong    float64 // per-server load of the long group
	Overall     Delay   // job-weighted over both classes
	Short, Long Delay   // per class
}

// SITAClasses returns the exact mean delays of size-interval task assignment on K
// speed-1 FCFS servers: short jobs go uniformly at random to servers 1..c,
// long jobs to servers c+1..K. By Poisson thinning each short server is an
// M/G/1 queue with rate lambda p_s / c and the short class's moments, each
// long server one with rate lambda p_l / (K-c):
//
//	rho_s = lambda p_s E[X|s] / c,        E[W_s] = (lambda p_s / c) E[X^2|s] / (2 (1 - rho_s)),
//	rho_l = lambda p_l E[X|l] / (K - c),  E[W_l] = (lambda p_l / (K-c)) E[X^2|l] / (2 (1 - rho_l)),
//	E[W]  = p_s E[W_s] + p_l E[W_l].
//
// Conditions: Poisson arrivals, 1 <= c <= K-1, p_s + p_l = 1, both groups
// stable; the error for an unstable group gives the range of stable c.
func SITAClasses(lambda float64, K, c int, short, long ClassMoments) (SITAResult, error) {
	if err := checkSITA(lambda, K, short, long); err != nil {
		return SITAResult{}, err
	}
	if c < 1 || c > K-1 {
		return SITAResult{}, fmt.Errorf("theory: SITA cut c=%d is invalid for K=%d servers: need 1 <= c <= %d so that both short and long jobs have servers; round c* up or pick c in that range", c, K, K-1)
	}
	lo, hi := sitaStableRange(lambda, K, short, long)
	rs := lambda * short.Prob * short.M1 / float64(c)
	rl := lambda * long.Prob * long.M1 / float64(K-c)
	if rs >= 1 || rl >= 1 {
		group, rho := "short-job group (servers 1..c)", rs
		if rs < 1 {
			group, rho = "long-job group (servers c+1..K)", rl
		}
		if lo > hi {
			return SITAResult{}, fmt.Errorf("theory: SITA with c=%d: the %s has load rho=%g, need rho < 1, and no c in 1..%d keeps both groups stable at lambda=%g; lower the arrival rate", c, group, rho, K-1, lambda)
		}
		return SITAResult{}, fmt.Errorf("theory: SITA with c=%d: the %s has load rho=%g, need rho < 1; choose c in %d..%d (the stable range at lambda=%g) or lower the arrival rate", c, group, rho, lo, hi, lambda)
	}
	ws, err := MG1{Lambda: lambda * short.Prob / float64(c), Size: Law{short.M1, short.M2}, Mu: 1}.FCFS()
	if err != nil {
		return SITAResult{}, err
	}
	wl, err := MG1{Lambda: lambda * long.Prob / float64(K-c), Size: Law{long.M1, long.M2}, Mu: 1}.FCFS()
	if err != nil {
		return SITAResult{}, err
	}
	return SITAResult{
		C: c, LoadShort: rs, LoadLong: rl, Short: ws, Long: wl,
		Overall: Delay{
			Wait:     short.Prob*ws.Wait + long.Prob*wl.Wait,
			Response: short.Prob*ws.Response + long.Prob*wl.Response,
		},
	}, nil
}

// SITATwoPoint is SITA for the handout's two-point sizes (x_m with
// probability 1-p, x_M with probability p): both groups are M/D/1, e.g.
// E[W_s] = rho_s x_m / (2 (1 - rho_s)) with rho_s = lambda (1-p) x_m / c.
func SITATwoPoint(lambda float64, K, c int, xm, xM, p float64) (SITAResult, error) {
	short, long, err := twoPointClasses(xm, xM, p)
	if err != nil {
		return SITAResult{}, err
	}
	return SITAClasses(lambda, K, c, short, long)
}

// SITAOptimalC returns the c in 1..K-1 that minimises the overall mean wait of
// SITATwoPoint at arrival rate lambda, found by exact search over every
// stable c, with the SITA result at that c.
func SITAOptimalC(lambda float64, K int, xm, xM, p float64) (SITAResult, error) {
	short, long, err := twoPointClasses(xm, xM, p)
	if err != nil {
		return SITAResult{}, err
	}
	if err := checkSITA(lambda, K, short, long); err != nil {
		return SITAResult{}, err
	}
	lo, hi := sitaStableRange(lambda, K, short, long)
	if lo > hi {
		return SITAResult{}, fmt.Errorf("theory: no SITA cut c in 1..%d is stable at lambda=%g (total load %g of %d servers); lower the arrival rate",
			K-1, lambda, lambda*(short.Prob*short.M1+long.Prob*long.M1), K)
	}
	var best SITAResult
	for c := lo; c <= hi; c++ {
		r, err := SITAClasses(lambda, K, c, short, long)
		if err != nil {
			return SITAResult{}, err
		}
		if c == lo || r.Overall.Wait < best.Overall.Wait {
			best = r
		}
	}
	return best, nil
}

// SITAEqualLoadC returns the real cut c_E that gives both groups the same
// load, c_E / K = (1-p) x_m / E[X], i.e. c_E = K (1-p) x_m / E[X] with
// E[X] = (1-p) x_m + p x_M. It does not depend on lambda.
func SITAEqualLoadC(K int, xm, xM, p float64) (float64, error) {
	if K < 2 {
		return 0, fmt.Errorf("theory: SITA needs K >= 2 servers, got K=%d; add servers", K)
	}
	if _, _, err := twoPointClasses(xm, xM, p); err != nil {
		return 0, err
	}
	return float64(K) * (1 - p) * xm / TwoPointMoments(xm, xM, p).M1, nil
}

// HandoutCStar returns the handout's c*, the solution of
// x_m / c* = x_M / (K - c*), that is c* = K x_m / (x_m + x_M). It balances the
// service time of one job of each class per server, not the load, and
// ignores p: for x_m=1, x_M=1000, K=100 it is about 0.1 (no valid SITA).
func HandoutCStar(K int, xm, xM float64) (float64, error) {
	if K < 2 {
		return 0, fmt.Errorf("theory: SITA needs K >= 2 servers, got K=%d; add servers", K)
	}
	if err := checkPositive("short size x_m", xm); err != nil {
		return 0, err
	}
	if err := checkPositive("long size x_M", xM); err != nil {
		return 0, err
	}
	return float64(K) * xm / (xm + xM), nil
}

// twoPointClasses splits the two-point law into its short and long classes.
func twoPointClasses(xm, xM, p float64) (ClassMoments, ClassMoments, error) {
	if err := checkPositive("short size x_m", xm); err != nil {
		return ClassMoments{}, ClassMoments{}, err
	}
	if err := checkPositive("long size x_M", xM); err != nil {
		return ClassMoments{}, ClassMoments{}, err
	}
	if xM <= xm {
		return ClassMoments{}, ClassMoments{}, fmt.Errorf("theory: long size x_M=%g must exceed short size x_m=%g: need x_M > x_m; swap them", xM, xm)
	}
	if !(p > 0 && p < 1) {
		return ClassMoments{}, ClassMoments{}, fmt.Errorf("theory: long-job probability p=%g is invalid: need 0 < p < 1 for two classes; use plain M/D/1 if all jobs have one size", p)
	}
	return ClassMoments{Prob: 1 - p, M1: xm, M2: xm * xm}, ClassMoments{Prob: p, M1: xM, M2: xM * xM}, nil
}

// checkSITA validates everything but c.
func checkSITA(lambda float64, K int, short, long ClassMoments) error {
	if K < 2 {
		return fmt.Errorf("theory: SITA needs K >= 2 servers, got K=%d; add servers", K)
	}
	if err := checkArrivalRate(lambda); err != nil {
		return err
	}
	for _, sc := range []struct {
		name string
		c    ClassMoments
	}{{"short", short}, {"long", long}} {
		if !(sc.c.Prob > 0 && sc.c.Prob < 1) {
			return fmt.Errorf("theory: %s-class probability %g is invalid: need 0 < p < 1; give both classes positive probability", sc.name, sc.c.Prob)
		}
		if err := checkMoments(Law{sc.c.M1, sc.c.M2}); err != nil {
			return fmt.Errorf("%w (in the %s class)", err, sc.name)
		}
	}
	if s := short.Prob + long.Prob; math.Abs(s-1) > 1e-9 {
		return fmt.Errorf("theory: class probabilities sum to %g: need p_short + p_long = 1; normalise them", s)
	}
	return nil
}

// sitaStableRange returns the smallest and largest c in 1..K-1 for which
// both groups have load below 1: c > lambda p_s E[X|s] and
// K - c > lambda p_l E[X|l]. lo > hi means no c is stable.
func sitaStableRange(lambda float64, K int, short, long ClassMoments) (lo, hi int) {
	as := lambda * short.Prob * short.M1 // offered load of short jobs, in servers
	al := lambda * long.Prob * long.M1
	lo = max(1, int(math.Floor(as))+1)
	hi = min(K-1, K-(int(math.Floor(al))+1))
	return lo, hi
}

// EqualLoadCuts returns the cutoffs x_1 < ... < x_{G-1} of size-interval
// assignment that give the groups of sizes (x_{g-1}, x_g] the given shares
// of the work (SITA-E, Harchol-Balter, Crovella and Murta 1999): x_g solves
//
//	E[X; X <= x_g] = levels[g-1],
//
// for increasing levels in (0, E[X]), where partial(x) = E[X; X <= x] is
// the law's partial first moment (non-decreasing, right-continuous, 0 at
// 0). x_g is the least x with partial(x) >= level, found by bisection to
// the last bit of x, or the size before an atom when that meets the level
// to 1e-12 (sums of atoms round). A law whose partial moment jumps over a
// level (an atom of size x_g: two-point, deterministic, empirical laws)
// has no such cutoff: the error is an *AtomError.
func EqualLoadCuts(partial func(x float64) float64, levels []float64) ([]float64, error) {
	const slack, atom = 1e-12, 1e-9
	cuts := make([]float64, len(levels))
	lo := 0.0 // partial(lo) < level: the previous cutoff's level is lower
	for g, level := range levels {
		if !(level > 0) || g > 0 && !(level > levels[g-1]) {
			return nil, fmt.Errorf("theory: equal-load level %d is %g: need increasing levels > 0", g+1, level)
		}
		hi, err := reaching(partial, level, lo, g)
		if err != nil {
			return nil, err
		}
		if at := partial(hi); at > level*(1+atom) { // a jump at hi
			e := &AtomError{Group: g + 1, X: hi, Level: level, Below: partial(prevBelow(hi)), At: at}
			if e.Below > 0 { // the size before the atom: the least x with partial(x) = Below
				e.Before = leastReaching(partial, e.Below, 0, hi)
			}
			if e.Below < level*(1-slack) || !(e.Before > lo) {
				return nil, e
			}
			hi = e.Before // the level met, but for rounding, by the sizes before the atom
		}
		cuts[g], lo = hi, hi
	}
	return cuts, nil
}

// reaching is the least x > lo with partial(x) >= level, given
// partial(lo) < level: the bracket doubled from max(2 lo, 1), then bisected.
func reaching(partial func(x float64) float64, level, lo float64, g int) (float64, error) {
	hi := max(2*lo, 1.0)
	for partial(hi) < level {
		if hi *= 2; math.IsInf(hi, 1) {
			return 0, fmt.Errorf("theory: the partial moment never reaches level %g (group %d): need levels below E[X]", level, g+1)
		}
	}
	return leastReaching(partial, level, lo, hi), nil
}

// NearestLoadCuts is EqualLoadCuts for a law whose partial moment jumps
// over the levels (an empirical law, a request log): each cutoff x_g is a
// size of the law, the atom whose jump holds levels[g-1] or the size
// before it, whichever brings E[X; X <= x_g] nearer the level (ties to the
// smaller), so that a group's work misses its share by at most half the
// work of the atoms at its two cutoffs. total is E[X]; reached are
// E[X; X <= x_g].
//
// An atom holding more work than a group next to its cutoff needs (the
// difference of its level and the one before or after, 0 and total at the
// ends) is an *AtomError with that group's work as Need: either side of it
// gives one group more than twice its share or none. Without one the
// cutoffs increase, below the largest size: two levels a group's share
// apart cannot both be within half an atom's jump of one size.
func NearestLoadCuts(partial func(x float64) float64, levels []float64, total float64) (cuts, reached []float64, err error) {
	const atom = 1e-9 // a jump past the level by less is the level met
	cuts, reached = make([]float64, len(levels)), make([]float64, len(levels))
	lo := 0.0
	for g, level := range levels {
		if !(level > 0 && level < total) || g > 0 && !(level > levels[g-1]) {
			return nil, nil, fmt.Errorf("theory: equal-load level %d is %g: need increasing levels in (0, %g)", g+1, level, total)
		}
		x, err := reaching(partial, level, lo, g)
		if err != nil {
			return nil, nil, err
		}
		cuts[g], reached[g], lo = x, partial(x), x
		if reached[g] <= level*(1+atom) {
			continue
		}
		before, after := 0.0, total
		if g > 0 {
			before = levels[g-1]
		}
		if g+1 < len(levels) {
			after = levels[g+1]
		}
		e := &AtomError{Group: g + 1, X: x, Level: level, Below: partial(prevBelow(x)), At: reached[g], Need: min(level-before, after-level)}
		if e.Below > 0 {
			e.Before = leastReaching(partial, e.Below, 0, x)
		}
		if e.At-e.Below > e.Need {
			return nil, nil, e
		}
		if level-e.Below <= e.At-level { // Below > level - Need >= 0: the size before exists
			cuts[g], reached[g] = e.Before, e.Below
		}
	}
	return cuts, reached, nil
}

// leastReaching is the least x in (lo, hi] with partial(x) >= level, by
// bisection to the last bit, given partial(lo) < level <= partial(hi).
func leastReaching(partial func(x float64) float64, level, lo, hi float64) float64 {
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return hi
		}
		if partial(mid) >= level {
			hi = mid
		} else {
			lo = mid
		}
	}
}

// prevBelow is the float just below x > 0.
func prevBelow(x float64) float64 { return math.Nextafter(x, 0) }

// AtomError is an equal-load level that falls inside a jump of the partial
// moment: the sizes at X bring E[X; X < x] = Below up to At at once, past
// Level, so no cutoff gives group Group its share of the work.
type AtomError struct {
	Group            int
	X                float64
	Level, Below, At float64
	// Before is the largest size below X (the least x with E[X; X <= x] =
	// Below), 0 when there is none: the other cutoff nearest the level.
	Before float64
	// Need is, from NearestLoadCuts, the work of the smaller group next to
	// the cutoff, which the atom's work At - Below exceeds; 0 otherwise.
	Need float64
}

func (e *AtomError) Error() string {
	return fmt.Sprintf("theory: no cutoff gives group %d its share of the work, E[X; X <= x] = %.6g: the sizes at x = %.6g bring it from %.6g to %.6g at once",
		e.Group, e.Level, e.X, e.Below, e.At)
}
