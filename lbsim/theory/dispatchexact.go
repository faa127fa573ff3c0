package theory

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"time"
)

// DispatchRule is a dispatching policy that DispatchExact solves exactly.
//
//   - JSQ-d (JIQ false): each arrival samples D distinct servers uniformly at
//     random and joins the one with the fewest jobs (queue plus service), ties
//     broken uniformly among the tied sampled servers. D = 0 or D = K is JSQ
//     over all K servers (ties uniformly among all the shortest); D = 1 is
//     random splitting.
//   - JIQ (JIQ true, D = 0): an arrival joins an idle server (no job) chosen
//     uniformly among the idle ones if there is one, otherwise a server
//     chosen uniformly among all K.
//   - SED-d (SED true): as JSQ-d, but the job joins the sampled server of
//     the shortest expected delay (n_k + 1)/mu_k, ties to the faster
//     server, then uniformly; with equal speeds it is JSQ-d.
//   - First (JSQ-d or SED-d): ties go to the lowest-numbered server instead
//     of uniformly (lbsim's ties=first); the servers are then not
//     exchangeable, so the state is the unsorted vector even at equal speeds.
type DispatchRule struct {
	D     int
	JIQ   bool
	SED   bool
	First bool
}

// String names the rule as the simulator labels it: "JSQ", "JSQ-2", "JIQ".
func (r DispatchRule) String() string {
	name := "JSQ"
	switch {
	case r.JIQ:
		return "JIQ"
	case r.SED:
		name = "SED"
	}
	if r.D != 0 {
		name += "-" + strconv.Itoa(r.D)
	}
	if r.First {
		name += " (ties first)"
	}
	return name
}

// Limits of DispatchExact: at most DispatchMaxServers servers, at most
// DispatchMaxStates states in the truncated chain and at most
// DispatchMaxWork state-iterations of the solver, which keep one call
// below about 1.5 s of one core and 150 MB (see DispatchExact for
// measured costs).
const (
	DispatchMaxServers = 8
	DispatchMaxStates  = 250_000
	DispatchMaxWork    = 30_000_000 // states x solver iterations, summed over the solves
)

// dispatchBoundaryTol is the target stationary mass of the truncation
// boundary (states that lost a transition).
const dispatchBoundaryTol = 1e-11

// DispatchExact returns the exact mean delays of dispatching Poisson arrivals
// of total rate lambda to K = len(speeds) FCFS servers under rule, with
// exponential job sizes of mean 1 (for mean m, pass lambda*m and multiply
// the delays by m); server k completes jobs at rate speeds[k] while busy.
//
// Model. The state is the vector n of jobs per server, a continuous-time
// Markov chain: an arrival joins server k at rate lambda P(k | n), and a
// busy server k completes a job at rate mu_k. For JSQ-d, if b other servers
// have exactly n_k jobs and c others have more,
//
//	P(k | n) = sum_{j=0}^{d-1} C(b, j) C(c, d-1-j) / (C(K, d) (j+1))
//
// (k and j of its ties are sampled, the other d-1-j have more jobs; the job
// goes to one of the j+1 tied servers). For JIQ, P(k | n) = 1/I if n_k = 0
// and I > 0 servers are idle, 1/K if none is. With equal speeds the servers
// are exchangeable and the state is the sorted vector (symmetric reduction),
// with the probability of joining a server holding v jobs
// (C(T_v, d) - C(T_{v+1}, d)) / C(K, d), T_v = #servers with >= v jobs.
//
// Solution. The chain is truncated to {total jobs <= N, max - min <= S};
// N and S are extrapolated from the decay of the level and spread masses of
// a first, smaller solve until the stationary mass of the boundary states
// (those that lost a transition) is below 1e-11. The truncated chain is
// solved by Gauss-Seidel sweeps with aggregation (as Chain in ctmc.go does)
// over several levels instead of one (the total, the longest and the
// shortest queue, with unequal speeds every server's queue) and Anderson
// mixing; see dispatchChain.solve. Chain's
// single aggregation needs about 5,000 sweeps for JIQ with K=2 at load 0.9,
// where queue lengths diffuse almost independently; this solver needs
// about 250. Then, by Little's law and PASTA,
//
//	E[R] = E[N] / lambda,
//	E[W] = E[R] - E[1/mu_J],  E[1/mu_J] = sum_n pi(n) sum_k P(k | n) / mu_k,
//
// J being the server a job joins.
//
// Conditions and limits: 1 <= K <= DispatchMaxServers, every speed > 0,
// 0 <= lambda < sum_k mu_k, and for JSQ-d with d < K every set S of servers
// must keep up with the jobs it receives when all sampled servers are in S,
// lambda C(|S|, d)/C(K, d) < sum_{k in S} mu_k (for d = 1: lambda/K < mu_k);
// the m slowest servers are the hardest set of size m. JIQ with unequal
// speeds can be unstable below sum mu (a slow server also gets lambda/K of
// the jobs whenever no server is idle: speeds 2 and 1 are unstable above
// lambda = 2.5616, load 0.854): for K = 2 the exact condition is checked (see
// jiq2Overload); for K >= 3 such a chain does not settle and is refused,
// with a hint at the slow server.
// A chain predicted to need more than DispatchMaxStates states or
// DispatchMaxWork state-iterations is refused with an error that says so.
//
// Results (including errors) are memoised, keyed by the inputs, in a small
// cache safe for concurrent use, so repeated calls cost a map look-up.
//
// Cost of a first call (CPU time of one core; run TestDispatchExactCost
// with LBSIM_THEORY_COST=1). Equal speeds: JSQ and JSQ-2 with K=2 at loads
// 0.5-0.95 in 1-16 ms; K=3 at 0.9 in 46 ms (JSQ) and 150 ms (JSQ-2), at
// 0.95 in 130 ms (58k states) and 410 ms (104k); K=4 at 0.9 (JSQ) in 280
// ms (112k); JSQ-2 with K=5, 6 at 0.7 in 0.3 s (83k) and 1.2 s (205k
// states, 150 MB). JIQ: K=2 at 0.9 in 130 ms (18k states) and at 0.95 in
// 0.74 s (71k), K=3 at 0.7 in 73 ms, K=4 at 0.7 in 0.79 s (132k), K=6 at
// 0.5 in 0.28 s. Speeds 3, 2, 1: SED at 0.8 in 0.36 s (61k states), SED-2
// at 0.7 in 0.2 s (42k), JIQ at 0.6 in 0.5 s (73k); speeds 3, 1: JIQ at 0.7
// in 0.14 s (43k). Refused: JIQ with K=3 at 0.9, K=5 at 0.7; everything
// with K >= 4 at 0.9 but JSQ with K=4; a refusal costs at most 90 ms.
func DispatchExact(rule DispatchRule, lambda float64, speeds []float64) (Delay, error) {
	key := keyOf(rule, lambda, speeds)
	dispatchCache.Lock()
	e, ok := dispatchCache.m[key]
	if !ok {
		if len(dispatchCache.m) >= dispatchCacheSize {
			for k := range dispatchCache.m { // evict an arbitrary entry
				delete(dispatchCache.m, k)
				break
			}
		}
		e = &dispatchEntry{ready: make(chan struct{})}
		dispatchCache.m[key] = e
	}
	dispatchCache.Unlock()
	if ok {
		<-e.ready
		return e.d, e.err
	}
	// If the solver panics, waiting callers get this error, not a zero Delay.
	e.err = fmt.Errorf("theory: exact %s chain for lambda=%g, speeds %v: the computation was interrupted by a panic", rule, lambda, speeds)
	defer close(e.ready)
	sol, err := solveDispatch(rule, lambda, speeds)
	e.d, e.err = sol.Delay, err
	return e.d, e.err
}

// dispatchCache memoises DispatchExact; an entry's ready is closed once its
// result is set, so concurrent callers of one key wait for one computation.
var dispatchCache = struct {
	sync.Mutex
	m map[dispatchKey]*dispatchEntry
}{m: map[dispatchKey]*dispatchEntry{}}

const dispatchCacheSize = 512

type dispatchEntry struct {
	ready chan struct{}
	d     Delay
	err   error
}

// dispatchKey is what a chain depends on: the rule (the struct itself, so
// a field it gains is in the key), the rate and the speeds, as bits.
type dispatchKey struct {
	rule   DispatchRule
	lambda uint64
	speeds string
}

func keyOf(rule DispatchRule, lambda float64, speeds []float64) dispatchKey {
	b := make([]byte, 0, 17*len(speeds))
	for _, s := range speeds {
		b = strconv.AppendUint(append(b, ' '), math.Float64bits(s), 16)
	}
	return dispatchKey{rule: rule, lambda: math.Float64bits(lambda), speeds: string(b)}
}

// dispatchSolution is DispatchExact's result with the solver's statistics.
type dispatchSolution struct {
	Delay
	MeanJobs     float64
	States       int     // states of the final truncated chain
	MaxTotal     int     // N: truncation of the total number of jobs
	MaxSpread    int     // S: truncation of max - min
	BoundaryMass float64 // stationary mass of the states that lost a transition
	Solves       int     // chains solved (truncation enlargements + 1)
	Sweeps       int     // iterations, summed over the solves
	Work         int     // state-iterations, summed over the solves
	Elapsed      time.Duration
}

// qvec is a vector of queue lengths; entries K.. are zero.
type qvec [DispatchMaxServers]uint16

// dispatchModel is a validated dispatching system.
type dispatchModel struct {
	rule      DispatchRule
	K, d      int
	lambda    float64
	mu        []float64
	equal     bool        // equal speeds: sorted states
	join      [][]float64 // JSQ-d: join[b][c], see DispatchExact
	chooseTab []float64   // C(T, d) / C(K, d), T = 0..K
	jiqSlow   int         // JIQ: a server k with mu_k <= lambda/K, or -1
	subsets   []uint8     // SED-d at unequal speeds, and First: the d-subsets of servers, as bit masks
}

func newDispatchModel(rule DispatchRule, lambda float64, speeds []float64) (*dispatchModel, error) {
	K := len(speeds)
	if K < 1 || K > DispatchMaxServers {
		return nil, fmt.Errorf("theory: number of servers K=%d is invalid for the exact dispatching chain: need 1 <= K <= %d; simulate larger systems or use a mean-field limit", K, DispatchMaxServers)
	}
	if err := checkArrivalRate(lambda); err != nil {
		return nil, err
	}
	total := 0.0
	for k, mu := range speeds {
		if err := checkPositive(fmt.Sprintf("speed mu[%d]", k), mu); err != nil {
			return nil, err
		}
		total += mu
	}
	if lambda >= total {
		return nil, fmt.Errorf("theory: arrival rate lambda=%g is unstable for speeds %v (load lambda/sum = %g): need 0 <= lambda < sum of speeds = %g; lower lambda", lambda, speeds, lambda/total, total)
	}
	d := rule.D
	switch {
	case rule.JIQ && d != 0:
		return nil, fmt.Errorf("theory: DispatchRule{D: %d, JIQ: true} is invalid: JIQ samples no servers, need D=0; pass DispatchRule{JIQ: true}", d)
	case rule.JIQ && rule.SED:
		return nil, errors.New("theory: DispatchRule{JIQ: true, SED: true} is invalid: choose JIQ or SED")
	case rule.JIQ && rule.First:
		return nil, errors.New("theory: DispatchRule{JIQ: true, First: true} is invalid: First breaks the ties of JSQ-d and SED-d; drop First")
	case d < 0 || d > K:
		return nil, fmt.Errorf("theory: number of choices d=%d is invalid for K=%d servers: need 0 <= d <= K (0 means all K, JSQ); pass d in 0..%d", d, K, K)
	case d == 0:
		d = K
	}
	m := &dispatchModel{rule: rule, K: K, d: d, lambda: lambda, mu: slices.Clone(speeds), equal: true, jiqSlow: -1}
	for _, mu := range speeds {
		m.equal = m.equal && mu == speeds[0]
	}
	if rule.SED && !m.equal || rule.First {
		m.equal = false
		for mask := range 1 << K {
			if bits.OnesCount(uint(mask)) == d {
				m.subsets = append(m.subsets, uint8(mask))
			}
		}
	}
	if rule.JIQ {
		for k, mu := range speeds {
			if lambda/float64(K) >= mu {
				m.jiqSlow = k
			}
		}
		if K == 2 && !m.equal {
			if k, rate := jiq2Overload(lambda, speeds); k >= 0 {
				return nil, fmt.Errorf("theory: JIQ with speeds %v is unstable at lambda=%g: server %d (speed %g) gets lambda/2 of the jobs whenever the other server is busy, a rate %g it cannot serve; need lambda < %g",
					speeds, lambda, k, speeds[k], rate, jiq2Threshold(speeds))
			}
		}
	}
	if !rule.JIQ {
		// Stability of JSQ-d: the m slowest servers are the hardest set of size m.
		slow := slices.Clone(speeds)
		slices.Sort(slow)
		sum := 0.0
		for size := 1; size <= K; size++ {
			sum += slow[size-1]
			share := binom(size, d) / binom(K, d)
			if size < d {
				share = 0
			}
			if size < K && lambda*share >= sum {
				return nil, fmt.Errorf("theory: JSQ-%d with speeds %v is unstable at lambda=%g: the %d slowest servers (total speed %g) receive lambda*C(%d,%d)/C(%d,%d)=%g when all %d sampled servers are among them; need lambda < %g (or use more choices d)",
					d, speeds, lambda, size, sum, size, d, K, d, lambda*share, d, sum/share)
			}
		}
		m.chooseTab = make([]float64, K+1)
		for t := d; t <= K; t++ {
			m.chooseTab[t] = binom(t, d) / binom(K, d)
		}
		m.join = make([][]float64, K)
		for b := range K {
			m.join[b] = make([]float64, K-b)
			for c := range K - b {
				p := 0.0
				for j := 0; j <= min(b, d-1); j++ {
					if d-1-j <= c {
						p += binom(b, j) * binom(c, d-1-j) / binom(K, d) / float64(j+1)
					}
				}
				m.join[b][c] = p
			}
		}
	}
	return m, nil
}

// jiq2Overload checks JIQ with two servers of unequal speeds for a server k
// that cannot keep up: if its queue is long, it gets lambda/2 of the jobs
// while the other server o is busy, and o then alone is a queue that gets
// every job when idle and lambda/2 when busy (stable iff lambda/2 < mu_o),
// busy with probability x/(1+x), x = (lambda/mu_o) / (1 - lambda/(2 mu_o))
// (birth-death balance). Server k is overloaded iff
// (lambda/2) x/(1+x) >= mu_k; it returns k and that rate, or -1.
func jiq2Overload(lambda float64, mu []float64) (int, float64) {
	for k := range 2 {
		o := 1 - k
		if lambda/2 >= mu[o] {
			continue // o overloads first: the set {k, o} needs lambda < mu_k + mu_o
		}
		x := lambda / mu[o] / (1 - lambda/(2*mu[o]))
		if rate := lambda / 2 * x / (1 + x); rate >= mu[k] {
			return k, rate
		}
	}
	return -1, 0
}

// jiq2Threshold is the largest stable lambda of JIQ with two servers.
func jiq2Threshold(mu []float64) float64 {
	lo, hi := 0.0, mu[0]+mu[1]
	for range 100 {
		mid := (lo + hi) / 2
		if k, _ := jiq2Overload(mid, mu); k >= 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// binom returns C(n, k) for 0 <= n <= DispatchMaxServers (exact), 0 if k < 0 or k > n.
func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
	}
	return float64(c)
}

// routeFull calls f(k, P(k | n)) for every server k that an arrival in the
// unsorted state n joins with positive probability.
func (m *dispatchModel) routeFull(n *qvec, f func(k int, p float64)) {
	K := m.K
	if m.subsets != nil {
		m.routeSubsets(n, f)
		return
	}
	if m.rule.JIQ {
		idle := 0
		for k := range K {
			if n[k] == 0 {
				idle++
			}
		}
		for k := range K {
			switch {
			case idle == 0:
				f(k, 1/float64(K))
			case n[k] == 0:
				f(k, 1/float64(idle))
			}
		}
		return
	}
	for k := range K {
		b, c := 0, 0
		for j := range K {
			switch {
			case j == k:
			case n[j] == n[k]:
				b++
			case n[j] > n[k]:
				c++
			}
		}
		if p := m.join[b][c]; p > 0 {
			f(k, p)
		}
	}
}

// routeSubsets calls f(k, P(k | n)) over every d-subset S of servers (each
// sampled with probability 1/C(K,d)): the job joins the servers of S with
// the fewest jobs (SED: the least (n_k + 1)/mu_k, then the fastest of them),
// the first of them under First, else one of the t left uniformly.
func (m *dispatchModel) routeSubsets(n *qvec, f func(k int, p float64)) {
	var p [DispatchMaxServers]float64
	per := 1 / float64(len(m.subsets))
	value := func(k int) float64 { return float64(n[k]) }
	if m.rule.SED {
		value = func(k int) float64 { return float64(n[k]+1) / m.mu[k] }
	}
	for _, set := range m.subsets {
		var win [DispatchMaxServers]int
		t := 0
		for k := range m.K {
			if set&(1<<k) == 0 {
				continue
			}
			if t == 0 {
				win[0], t = k, 1
				continue
			}
			b := win[0]
			vk, vb := value(k), value(b)
			faster := m.rule.SED && m.mu[k] > m.mu[b]
			switch {
			case vk < vb || vk == vb && faster:
				win[0], t = k, 1
			case m.rule.First:
			case vk == vb && (!m.rule.SED || m.mu[k] == m.mu[b]):
				win[t] = k
				t++
			}
		}
		for _, k := range win[:t] {
			p[k] += per / float64(t)
		}
	}
	for k, x := range p[:m.K] {
		if x > 0 {
			f(k, x)
		}
	}
}

// routeSorted calls f(i, P) for the runs of the sorted state n: P is the
// probability that an arrival joins one of the servers n[first..i] holding
// v = n[i] jobs (i is the last index of the run).
func (m *dispatchModel) routeSorted(n *qvec, f func(last int, p float64)) {
	K := m.K
	for first := 0; first < K; {
		last := first
		for last+1 < K && n[last+1] == n[first] {
			last++
		}
		var p float64
		switch {
		case m.rule.JIQ && n[0] == 0:
			if n[first] == 0 {
				p = 1
			}
		case m.rule.JIQ:
			p = float64(last-first+1) / float64(K)
		default: // T_v = K-first servers have >= v jobs, K-last-1 have > v
			p = m.chooseTab[K-first] - m.chooseTab[K-last-1]
		}
		if p > 0 {
			f(last, p)
		}
		first = last + 1
	}
}

// next emits the transitions out of n.
func (m *dispatchModel) next(n qvec, emit func(qvec, float64)) {
	K := m.K
	if m.equal {
		m.routeSorted(&n, func(last int, p float64) {
			t := n
			t[last]++ // the last of a run keeps the vector sorted
			emit(t, m.lambda*p)
		})
		for first := 0; first < K; {
			last := first
			for last+1 < K && n[last+1] == n[first] {
				last++
			}
			if n[first] > 0 {
				t := n
				t[first]-- // the first of a run keeps the vector sorted
				emit(t, float64(last-first+1)*m.mu[0])
			}
			first = last + 1
		}
		return
	}
	m.routeFull(&n, func(k int, p float64) {
		t := n
		t[k]++
		emit(t, m.lambda*p)
	})
	for k := range K {
		if n[k] > 0 {
			t := n
			t[k]--
			emit(t, m.mu[k])
		}
	}
}

// meanServiceTime is sum_k P(k | n) / mu_k, the mean service time of a job
// arriving in state n.
func (m *dispatchModel) meanServiceTime(n qvec) float64 {
	if m.equal {
		return 1 / m.mu[0]
	}
	s := 0.0
	m.routeFull(&n, func(k int, p float64) { s += p / m.mu[k] })
	return s
}

func (m *dispatchModel) total(n qvec) int {
	t := 0
	for _, v := range n[:m.K] {
		t += int(v)
	}
	return t
}

func (m *dispatchModel) longest(n qvec) int {
	if m.equal {
		return int(n[m.K-1])
	}
	return int(slices.Max(n[:m.K]))
}

func (m *dispatchModel) shortest(n qvec) int {
	if m.equal {
		return int(n[0])
	}
	return int(slices.Min(n[:m.K]))
}

func (m *dispatchModel) spread(n qvec) int {
	lo, hi := n[0], n[0]
	for _, v := range n[1:m.K] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return int(hi - lo)
}

// solve solves the chain on the truncation {total <= N, spread <= S},
// chosen adaptively.
func (m *dispatchModel) solve(maxStates int) (dispatchSolution, error) {
	start := time.Now()
	if m.lambda == 0 { // an arrival finds every server idle, all tied
		r := 0.0
		for _, mu := range m.mu {
			r += 1 / mu / float64(m.K)
		}
		return dispatchSolution{Delay: Delay{Wait: 0, Response: r}, States: 1, Solves: 1}, nil
	}
	work := DispatchMaxWork // state-iterations left
	// The first chain is solved loosely (enough to locate its mass) and,
	// if its boundary is light enough, again strictly; every enlarged
	// chain is solved strictly at once.
	N, S := m.firstTruncation()
	var prev *dispatchChain
	iters := 0
	for solves := 1; ; solves++ {
		maxN, maxS := N, S
		ch, err := m.build(func(n qvec) bool { return m.total(n) <= maxN && m.spread(n) <= maxS }, maxStates)
		if err != nil {
			return dispatchSolution{}, m.tooLarge(N, S, maxStates)
		}
		strict := solves > 1
		// A priori: the level masses fall at most by r = lambda/sum mu per
		// job (the rate down is at most sum mu), P_n >= P_0 r^n, so the
		// boundary mass target needs N >= ln(1e-11 (1 - r)) / ln r at
		// least. Refuse at once if that truncation is already over the
		// budget.
		r := m.lambda / sumOf(m.mu)
		if nMin := math.Log(dispatchBoundaryTol*(1-r)) / math.Log(r); !strict && nMin > float64(N) {
			n := int(min(nMin, math.MaxUint16))
			s := n
			if S < N {
				s = min(S, n)
			}
			if est := m.predictStates(ch, N, S, n, s, maxStates); est > maxStates || est*30 > work {
				return dispatchSolution{}, m.tooLarge(n, s, maxStates)
			}
		}
		tol := dispatchTol
		if !strict {
			tol = dispatchLooseTol
		}
		its, err := ch.solve(prev, tol, work/len(ch.states))
		iters += its
		work -= its * len(ch.states)
		if err != nil {
			return dispatchSolution{}, m.notConverged(len(ch.states), iters)
		}
		mass := ch.boundaryMass()
		if mass < dispatchBoundaryTol && !strict {
			its, err = ch.solve(ch, dispatchTol, work/len(ch.states))
			iters += its
			work -= its * len(ch.states)
			if err != nil {
				return dispatchSolution{}, m.notConverged(len(ch.states), iters)
			}
			mass = ch.boundaryMass()
		}
		if mass < dispatchBoundaryTol {
			sol := ch.measure()
			sol.MaxTotal, sol.MaxSpread, sol.Solves, sol.Sweeps, sol.Work = N, S, solves, iters, DispatchMaxWork-work
			sol.Elapsed = time.Since(start)
			return sol, nil
		}
		if solves == 5 {
			return dispatchSolution{}, fmt.Errorf("theory: exact %s chain for lambda=%g, speeds %v did not reach boundary mass %g after %d enlargements (mass %.2g with N=%d jobs, spread %d)%s; lower lambda or simulate",
				m.rule, m.lambda, m.mu, dispatchBoundaryTol, solves, mass, N, S, m.unstableHint())
		}
		N2, S2, ok := m.enlarge(ch, N, S)
		if !ok {
			return dispatchSolution{}, fmt.Errorf("theory: exact %s chain for K=%d, lambda=%g (load %g), speeds %v: the probability of n jobs still grows at n=%d jobs, the largest truncation within the budget of DispatchMaxStates=%d states%s; lower the load or K, or simulate",
				m.rule, m.K, m.lambda, m.lambda/sumOf(m.mu), m.mu, N, maxStates, m.unstableHint())
		}
		if N2 == N && S2 == S { // the boundary mass is spread thin: grow anyway
			N2 = N + N/4 + 1
			S2 = min(N2, S+S/4+1)
		}
		est := m.predictStates(ch, N, S, N2, S2, maxStates)
		N, S, prev = N2, S2, ch
		if est > maxStates {
			return dispatchSolution{}, m.tooLarge(N, S, maxStates)
		}
		// The strict solve of the larger chain takes up to 2.5 times the
		// iterations of the first, loose one: refuse now rather than after
		// spending the budget.
		if need := est * max(its, 20) * 5 / 2; need > work {
			return dispatchSolution{}, fmt.Errorf("theory: exact %s chain for K=%d, lambda=%g (load %g), speeds %v needs about %d states x %d iterations, over the work budget of DispatchMaxWork=%d state-iterations%s; lower the load or K, or simulate",
				m.rule, m.K, m.lambda, m.lambda/sumOf(m.mu), m.mu, est, max(its, 20)*5/2, DispatchMaxWork, m.unstableHint())
		}
	}
}

// unstableHint explains a JIQ chain that does not settle: a server whose
// speed is at most lambda/K may be overloaded by the jobs it gets whenever
// no server is idle.
func (m *dispatchModel) unstableHint() string {
	if m.jiqSlow < 0 {
		return ""
	}
	k := m.jiqSlow
	return fmt.Sprintf(" (the system may be unstable: under JIQ server %d of speed %g gets lambda/K=%g whenever no server is idle)", k, m.mu[k], m.lambda/float64(m.K))
}

func (m *dispatchModel) notConverged(states, its int) error {
	return fmt.Errorf("theory: exact %s chain for K=%d, lambda=%g (load %g), speeds %v did not converge within the work budget of DispatchMaxWork=%d state-iterations (%d states, %d iterations)%s; lower the load or K, or simulate",
		m.rule, m.K, m.lambda, m.lambda/sumOf(m.mu), m.mu, DispatchMaxWork, states, its, m.unstableHint())
}

func (m *dispatchModel) tooLarge(N, S, maxStates int) error {
	return fmt.Errorf("theory: exact %s chain for K=%d, lambda=%g (load %g), speeds %v needs the truncation N=%d jobs, spread %d for boundary mass < %g, which holds more than the budget of DispatchMaxStates=%d states%s; lower the load or K, or simulate",
		m.rule, m.K, m.lambda, m.lambda/sumOf(m.mu), m.mu, N, S, dispatchBoundaryTol, maxStates, m.unstableHint())
}

func sumOf(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// firstTruncation returns a truncation whose boundary mass is not yet small
// but whose level and spread masses show the decay to extrapolate: a total
// of N jobs where the all-busy ratio r = lambda / sum mu has fallen to 1e-4.
func (m *dispatchModel) firstTruncation() (N, S int) {
	r := m.lambda / sumOf(m.mu)
	N = m.K + int(math.Ceil(math.Log(1e-4)/math.Log(r)))
	N = max(N, 4*m.K, 12)
	S = N
	switch {
	case !m.rule.JIQ && m.d == m.K:
		S = min(N, 6) // JSQ keeps the queues balanced
	case !m.rule.JIQ && m.d > 1:
		S = min(N, 10)
	}
	// Bound the first solve to a quarter of the budget.
	for m.countStates(N, S, DispatchMaxStates/4) > DispatchMaxStates/4 && N > 8 {
		N = N * 3 / 4
		S = min(S, N)
	}
	return N, S
}

// enlarge extrapolates the decay of the level masses P(total = n) and of the
// spread masses P(spread = s) of st to the N and S at which the boundary
// masses fall below a third of the target.
func (m *dispatchModel) enlarge(ch *dispatchChain, N, S int) (int, int, bool) {
	level := make([]float64, N+1)
	spread := make([]float64, S+1)
	for i, n := range ch.states {
		level[m.total(n)] += ch.pi[i]
		spread[m.spread(n)] += ch.pi[i]
	}
	target := dispatchBoundaryTol / 3
	grow := func(mass []float64, cur int, floor float64) (int, bool) {
		top := mass[cur]
		if top < target {
			return cur, true
		}
		// Decay ratio per step over the upper half, away from the boundary.
		a, b := cur/3, 2*cur/3
		for a > 0 && mass[a] == 0 {
			a++
		}
		if b <= a || mass[a] <= 0 || mass[b] <= 0 {
			return 2 * cur, true
		}
		r := math.Pow(mass[b]/mass[a], 1/float64(b-a))
		r = max(r, floor)
		if !(r < 1) {
			return 0, false
		}
		steps := math.Log(target/top) / math.Log(r)
		return cur + int(math.Ceil(steps*1.15)) + 2, true
	}
	r := m.lambda / sumOf(m.mu)
	N2, ok := grow(level, N, r)
	if !ok {
		return 0, 0, false
	}
	S2 := S
	if S < N {
		// The spread boundary mass is what the states at spread S hold.
		var ok bool
		if S2, ok = grow(spread, S, 0); !ok {
			S2 = 2 * S
		}
	}
	N2 = max(N2, N)
	S2 = min(max(S2, S), N2)
	if S == N {
		S2 = N2
	}
	return N2, S2, true
}

// predictStates predicts the states of the truncation {N2, S2} from ch,
// the chain of {N, S}: the count of the box, scaled by the fraction of
// its box that ch reached (under SED with unequal speeds a slow server's
// queue grows only beside the longer queues of the faster ones, so a
// chain reaches a fraction of its box: 60,544 of 349,504 states for
// speeds 3, 2, 1 and N = 126). It stops early, at a value above limit,
// once the prediction exceeds limit.
func (m *dispatchModel) predictStates(ch *dispatchChain, N, S, N2, S2, limit int) int {
	box, reached := m.countStates(N, S, math.MaxInt), len(ch.states)
	return m.countStates(N2, S2, limit*(box/reached+1)) * reached / box
}

// countStates counts the states of {total <= N, spread <= S}, stopping
// early once the count exceeds limit.
func (m *dispatchModel) countStates(N, S, limit int) int {
	if N >= math.MaxUint16 { // queue lengths are stored as uint16
		return limit + 1
	}
	// The vectors (0, ..., 0, a, b), a <= b <= w = min(S, N), a + b <= N,
	// are at least w^2/8 states: a cheap bound before the counts below,
	// whose cost grows like S K N.
	if w := min(S, N); m.K >= 2 && w*w/8 > limit {
		return limit + 1
	}
	// Vectors (sorted if equal speeds) of K entries in [lo, lo+S] with
	// minimum lo and sum <= N, for every lo: entries in [0, S] with at
	// least one 0, all in [0, S] less all in [1, S] (= all in [0, S-1]
	// with sum <= T - K), T = N - lo K the budget above lo.
	K := m.K
	all, inner := m.boxCounts(S, min(N, K*S)), m.boxCounts(S-1, min(N, K*S))
	at := func(c []int, t int) int {
		if t < 0 || len(c) == 0 {
			return 0
		}
		return c[min(t, len(c)-1)]
	}
	count := 0
	for lo := 0; lo*K <= N; lo++ {
		T := N - lo*K
		count += at(all, T) - at(inner, T-K)
		if count > limit {
			return count
		}
	}
	return count
}

// boxCounts returns c with c[t] the number of vectors of K entries in
// [0, S] with sum <= t (multisets if speeds are equal), t = 0..T; nil if
// S < 0.
func (m *dispatchModel) boxCounts(S, T int) []int {
	if S < 0 {
		return nil
	}
	K := m.K
	var ways []int // ways[t]: vectors (multisets) of K entries with sum t
	if !m.equal {
		ways = make([]int, T+1)
		ways[0] = 1
		for range K { // convolve with the entries 0..S: a running window sum
			nw := make([]int, T+1)
			run := 0
			for t := 0; t <= T; t++ {
				run += ways[t]
				if t-S-1 >= 0 {
					run -= ways[t-S-1]
				}
				nw[t] = run
			}
			ways = nw
		}
	} else {
		// Multisets: w[j][t] counts j entries from the values so far with
		// sum t; adding value v any number of times.
		w := make([][]int, K+1)
		for j := range w {
			w[j] = make([]int, T+1)
		}
		w[0][0] = 1
		for v := 0; v <= S; v++ {
			for j := 1; j <= K; j++ {
				for t := v; t <= T; t++ {
					w[j][t] += w[j-1][t-v]
				}
			}
		}
		ways = w[K]
	}
	for t := 1; t <= T; t++ {
		ways[t] += ways[t-1]
	}
	return ways
}

// solveDispatch validates and solves.
func solveDispatch(rule DispatchRule, lambda float64, speeds []float64) (dispatchSolution, error) {
	m, err := newDispatchModel(rule, lambda, speeds)
	if err != nil {
		return dispatchSolution{}, err
	}
	return m.solve(DispatchMaxStates)
}

// dispatchTol is the solver's tolerance on ||G(x) - x||_1; solves that
// only locate the mass for the truncation use dispatchLooseTol.
const (
	dispatchTol      = 1e-13
	dispatchLooseTol = 1e-9
)

// dispatchChain is a truncated dispatching chain in compressed form (the
// incoming transitions of state s are from[inStart[s]:inStart[s+1]]) with
// its current stationary vector pi.
//
// Solver: Gauss-Seidel sweeps on pi_s q_s = sum_t pi_t q(t, s), each followed
// by aggregation steps. For a function L of the state that every transition
// changes by at most one, the stationary masses P_l of its levels satisfy
// the cut balance P_l u_l = P_{l+1} d_{l+1} (u, d: mean rates up and down
// within a level); rescaling the levels to it removes the slow mode of L.
// The chain uses three: the total number of jobs, the longest and the
// shortest queue. Under JIQ and JSQ-d with small d the queues move almost
// independently, and aggregation over the total alone leaves their slow
// diffusion to Gauss-Seidel (tried: every queue length, the spread; these
// three and Anderson mixing (see solve) needed the fewest sweeps).
type dispatchChain struct {
	m       *dispatchModel
	states  []qvec
	index   map[qvec]int32
	out     []float64
	dropped []bool
	inStart []int
	from    []int32
	rate    []float64
	invOut  []float64 // 1/out (0 for a state without transitions)
	aggs    []dispatchAgg
	pi      []float64
}

// dispatchAgg is one aggregation: per state its level and its rates to the
// levels above and below; per level scratch sums.
type dispatchAgg struct {
	level           []int32
	up, down        []float64
	mass, u, d, fac []float64
	// ends, if set: the states of level l are ends[l-1]..ends[l]-1.
	ends []int
}

func (m *dispatchModel) build(keep func(qvec) bool, maxStates int) (*dispatchChain, error) {
	var zero qvec
	positive := func(n qvec, emit func(qvec, float64)) { // a zero rate is no transition
		m.next(n, func(to qvec, rate float64) {
			if rate > 0 {
				emit(to, rate)
			}
		})
	}
	g, err := Chain[qvec]{Start: zero, Next: positive, Keep: keep}.explore(maxStates)
	if err != nil {
		return nil, fmt.Errorf("theory: exact dispatching chain: %w", err)
	}
	ch := &dispatchChain{m: m, states: g.states, index: g.index, out: g.out, dropped: g.dropped,
		inStart: g.inStart, from: g.from, rate: g.rate}
	n := len(ch.states)
	ch.invOut = make([]float64, n)
	for s, o := range ch.out {
		if o > 0 {
			ch.invOut[s] = 1 / o
		}
	}
	type edge struct {
		from, to int32
		rate     float64
	}
	var edges []edge
	for to := range n {
		for j := ch.inStart[to]; j < ch.inStart[to+1]; j++ {
			edges = append(edges, edge{ch.from[j], int32(to), ch.rate[j]})
		}
	}
	// Aggregations: the total, the longest and the shortest queue, and
	// with unequal speeds every server's queue: there a slow server's long
	// queue beside an often idle fast one is a slow mode the others miss
	// (JIQ with speeds 3, 1 at load 0.7: 1277 iterations and 3e-9 off
	// with the three, 88 with every queue).
	fns := []func(qvec) int{m.total}
	if m.K > 1 {
		fns = append(fns, m.longest, m.shortest)
	}
	if !m.equal {
		for k := range m.K {
			fns = append(fns, func(n qvec) int { return int(n[k]) })
		}
	}
	for _, f := range fns {
		a := dispatchAgg{level: make([]int32, n), up: make([]float64, n), down: make([]float64, n)}
		top := 0
		for s, q := range ch.states {
			a.level[s] = int32(f(q))
			top = max(top, int(a.level[s]))
		}
		for _, e := range edges {
			switch a.level[e.to] - a.level[e.from] {
			case 1:
				a.up[e.from] += e.rate
			case -1:
				a.down[e.from] += e.rate
			}
		}
		a.mass, a.u, a.d, a.fac = make([]float64, top+1), make([]float64, top+1), make([]float64, top+1), make([]float64, top+1)
		if slices.IsSorted(a.level) {
			a.ends = make([]int, top+1)
			for s, l := range a.level {
				a.ends[l] = s + 1
			}
			for l := 1; l <= top; l++ { // levels without states (none for the total)
				a.ends[l] = max(a.ends[l], a.ends[l-1])
			}
		}
		ch.aggs = append(ch.aggs, a)
	}
	return ch, nil
}

// solve iterates from prev's solution where the states overlap (nil:
// uniform) and returns the iterations used.
//
// The iteration is x <- G(x), G a Gauss-Seidel sweep followed by the
// aggregation steps and a normalisation, accelerated by Anderson mixing
// (Walker and Ni, SIAM J. Numer. Anal. 49 (2011)) over the last
// dispatchMixing steps: x_{k+1} = G(x_k) - sum_i gamma_i dG_i with gamma
// minimising ||f_k - sum_i gamma_i dF_i||_2, f = G(x) - x, dF and dG the
// differences of successive f and G(x); negative entries are set to zero.
// It stops when ||G(x) - x||_1 < tol and keeps G(x), or when rounding
// keeps the residual from falling further: below 100 tol, not halved in 15
// steps.
func (ch *dispatchChain) solve(prev *dispatchChain, tol float64, maxIter int) (int, error) {
	n := len(ch.states)
	x := make([]float64, n)
	if prev != nil { // new states start at zero
		for s, q := range ch.states {
			if i, ok := prev.index[q]; ok {
				x[s] = prev.pi[i]
			}
		}
	} else {
		for s := range x {
			x[s] = 1 / float64(n)
		}
	}
	const m = dispatchMixing
	// g = G(x), f = g - x; the previous g and f are kept for the differences.
	g, f := make([]float64, n), make([]float64, n)
	gOld, fOld := make([]float64, n), make([]float64, n)
	var dF, dG [m][]float64
	for i := range m {
		dF[i], dG[i] = make([]float64, n), make([]float64, n)
	}
	var gram [m][m]float64 // gram[i][j] = <dF_i, dF_j>
	used, next := 0, 0     // stored differences; slot of the next one
	lastRes, bestRes, mark, markIter := math.Inf(1), math.Inf(1), math.Inf(1), 0
	best := make([]float64, n)
	for k := 1; k <= maxIter; k++ {
		copy(g, x)
		ch.sweep(g)
		res := 0.0
		for s, v := range g {
			f[s] = v - x[s]
			res += math.Abs(f[s])
		}
		if res < tol {
			ch.pi = g
			return k, nil
		}
		// Rounding stops the residual near 1e-13: accept the best residual
		// if it is within 100 tol and has not halved in 15 iterations.
		if res < bestRes {
			bestRes = res
			if res < 100*tol {
				copy(best, g)
			}
		}
		if res < mark/2 {
			mark, markIter = res, k
		} else if k-markIter > 15 && bestRes < 100*tol {
			ch.pi = best
			return k, nil
		}
		if res > 4*lastRes { // the mixing went astray: restart it
			used = 0
		} else if k > 1 {
			df, dg := dF[next], dG[next]
			for s := range df {
				df[s], dg[s] = f[s]-fOld[s], g[s]-gOld[s]
			}
			used = min(used+1, m)
			for i := range used {
				slot := (next - i + m) % m
				gram[next][slot] = dot(df, dF[slot])
				gram[slot][next] = gram[next][slot]
			}
			next = (next + 1) % m
		}
		lastRes = res
		g, gOld = gOld, g
		f, fOld = fOld, f
		// Now gOld = G(x) and fOld = f of this step.
		copy(x, gOld)
		if used == 0 {
			continue
		}
		// Slots next-1, next-2, ... hold the used differences.
		var a [m][m]float64
		var b, gamma [m]float64
		var slots [m]int
		trace := 0.0
		for i := range used {
			slots[i] = (next - 1 - i + m) % m
		}
		for i := range used {
			for j := range used {
				a[i][j] = gram[slots[i]][slots[j]]
			}
			b[i] = dot(dF[slots[i]], fOld)
			trace += a[i][i]
		}
		for i := range used {
			a[i][i] += 1e-13 * trace
		}
		if !solveSmall(&a, &b, &gamma, used) {
			used = 0
			continue
		}
		for i := range used {
			axpy(-gamma[i], dG[slots[i]], x)
		}
		total := 0.0
		for s, v := range x {
			v = max(v, 0)
			x[s] = v
			total += v
		}
		scale(x, 1/total)
	}
	ch.pi = g
	return maxIter, fmt.Errorf("theory: exact %s chain (%d states) did not converge to tolerance %g within %d iterations; lower the load", ch.m.rule, n, tol, maxIter)
}

// dot returns sum_i a_i b_i.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy sets y += alpha x.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// scale sets x *= alpha.
func scale(x []float64, alpha float64) {
	for i := range x {
		x[i] *= alpha
	}
}

// dispatchMixing is the number of previous steps Anderson mixing combines.
const dispatchMixing = 3

// sweep is one Gauss-Seidel sweep on pi followed by the aggregation steps.
func (ch *dispatchChain) sweep(pi []float64) {
	for s := range pi {
		if w := ch.invOut[s]; w > 0 {
			in := 0.0
			for j := ch.inStart[s]; j < ch.inStart[s+1]; j++ {
				in += pi[ch.from[j]] * ch.rate[j]
			}
			pi[s] = in * w
		}
	}
	for i := range ch.aggs {
		ch.aggs[i].apply(pi)
	}
}

// solveSmall solves a x = b for the leading n x n block by Gaussian
// elimination with partial pivoting; it reports false if a is singular.
func solveSmall(a *[dispatchMixing][dispatchMixing]float64, b, x *[dispatchMixing]float64, n int) bool {
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if a[p][c] == 0 {
			return false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for j := c; j < n; j++ {
				a[r][j] -= f * a[c][j]
			}
			b[r] -= f * b[c]
		}
	}
	for r := n - 1; r >= 0; r-- {
		v := b[r]
		for j := r + 1; j < n; j++ {
			v -= a[r][j] * x[j]
		}
		x[r] = v / a[r][r]
	}
	return true
}

// apply rescales the levels of a to the cut balance their conditional laws
// imply, and normalises pi; it only normalises if a level has no mass or
// no flux across a cut.
func (a *dispatchAgg) apply(pi []float64) {
	if a.ends != nil {
		lo := 0
		for l, hi := range a.ends {
			var p, u, d float64
			for s := lo; s < hi; s++ {
				p += pi[s]
				u += pi[s] * a.up[s]
				d += pi[s] * a.down[s]
			}
			a.mass[l], a.u[l], a.d[l] = p, u, d
			lo = hi
		}
	} else {
		clear(a.mass)
		clear(a.u)
		clear(a.d)
		for s, p := range pi {
			l := a.level[s]
			a.mass[l] += p
			a.u[l] += p * a.up[s]
			a.d[l] += p * a.down[s]
		}
	}
	total := 0.0
	want := 1.0
	ok := a.mass[0] > 0
	for l := range a.mass {
		if l > 0 {
			ok = ok && a.mass[l] > 0 && a.u[l-1] > 0 && a.d[l] > 0
			if !ok {
				break
			}
			// P_l = P_{l-1} (u_{l-1}/p_{l-1}) / (d_l/p_l)
			want *= (a.u[l-1] / a.mass[l-1]) / (a.d[l] / a.mass[l])
		}
		a.fac[l] = want / a.mass[l]
		total += want
	}
	if !ok {
		total = 0
		for l, p := range a.mass {
			a.fac[l] = 1
			total += p
		}
	}
	for l := range a.fac {
		a.fac[l] /= total
	}
	if a.ends != nil {
		lo := 0
		for l, hi := range a.ends {
			scale(pi[lo:hi], a.fac[l])
			lo = hi
		}
		return
	}
	for s, l := range a.level {
		pi[s] *= a.fac[l]
	}
}

// boundaryMass is the stationary mass of the states that lost a transition.
func (ch *dispatchChain) boundaryMass() float64 {
	mass := 0.0
	for s, p := range ch.pi {
		if ch.dropped[s] {
			mass += p
		}
	}
	return mass
}

// measure computes the delays from the stationary law.
func (ch *dispatchChain) measure() dispatchSolution {
	m := ch.m
	jobs, service := 0.0, 0.0
	for s, q := range ch.states {
		jobs += ch.pi[s] * float64(m.total(q))
		service += ch.pi[s] * m.meanServiceTime(q)
	}
	r := jobs / m.lambda
	return dispatchSolution{
		Delay:        Delay{Wait: max(r-service, 0), Response: r}, // no rounding below 0
		MeanJobs:     jobs,
		States:       len(ch.states),
		BoundaryMass: ch.boundaryMass(),
	}
}
