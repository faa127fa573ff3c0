package theory

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// JSQdChain is the exact finite-N model of JSQ-d with exponential sizes: a
// continuous-time Markov chain of N identical rate-1 FCFS servers with Poisson
// arrivals at total rate N*Rho; each arrival samples D distinct servers
// uniformly and joins the one with the fewest jobs (ties broken uniformly).
//
// Servers are exchangeable, so the state is the sorted vector of queue
// lengths. From a state with T_i servers holding at least i jobs, an arrival
// joins a server with exactly i jobs with probability
//
//	(C(T_i, d) - C(T_{i+1}, d)) / C(N, d),
//
// and each busy server completes a job at rate 1.
//
// Truncation. The chain is infinite; it is solved on a finite set of states
// and transitions leaving the set are dropped. If MaxLen > 0 the set is the
// box {max <= MaxLen, max - min <= MaxSpread} (MaxSpread 0 means MaxLen).
// Otherwise the set is grown adaptively: starting from a small box, every
// boundary state (one with a dropped transition) that carries probability is
// given its missing neighbours, until the boundary mass is below BoundaryTol.
// The set then follows the probability mass, which under JSQ-d sits on
// balanced vectors, instead of the C(N+B, N) states of a length box.
//
// Solver. Gauss-Seidel sweeps on the balance equations
// pi_s q_s = sum_t pi_t q(t, s), each followed by an exact aggregation step:
// transitions change the number of jobs n by one, so the level masses P_n of
// a stationary pi satisfy the birth-death balance P_n u_n = P_{n+1} d_{n+1}
// (u, d: mean up and down rates within a level); rescaling every level to it
// removes the slow mode that plain Gauss-Seidel leaves. Iteration stops when
// the L1 change of pi in one sweep is below Tol.
//
// Cost (d=2, one contended core, default BoundaryTol 1e-10): rho=0.5 N=16 in
// 0.9 s (91k states); rho=0.7 N=12 in 21 s (0.5M states); rho=0.9 N=5 in 8 s,
// N=6 in 37 s (0.4M states); rho=0.99 N=2 in 1.3 s, N=3 in 21 s, N=4 in 6 min.
// N=12 at rho=0.9 is out of reach at 1e-10. Dropped arrivals bias E[R] low:
// BoundaryTol 1e-3, 1e-4, 1e-5 give E[R] = 2.8946, 2.9114, 2.9127 in 7 s,
// 60 s and 200 s (0.19M, 0.65M, 1.4M states), so the last is good to ~2e-4.
type JSQdChain struct {
	N, D int
	Rho  float64

	MaxLen      int     // fixed box truncation of each queue length (0: adaptive)
	MaxSpread   int     // fixed box truncation of max - min (0: MaxLen)
	BoundaryTol float64 // adaptive target for the boundary mass (0: 1e-10)
	Tol         float64 // L1 change of pi per sweep (0: 1e-12)
	MaxStates   int     // refuse larger state sets (0: 3,000,000)
	MaxSweeps   int     // give up after this many sweeps in total (0: 100,000)
}

// JSQdSolution is the solution of a JSQdChain.
type JSQdSolution struct {
	N, D int
	Rho  float64

	MeanJobs     float64 // E[number of jobs in the whole system]
	MeanResponse float64 // E[R] = MeanJobs / throughput (Little's law)
	MeanWait     float64 // E[W] = E[R] - 1
	// Tail[i] is the mean fraction of servers with at least i jobs, the
	// finite-N counterpart of the mean-field s_i = rho^((d^i-1)/(d-1)).
	Tail []float64

	States       int     // states in the truncated chain
	MaxLen       int     // longest queue among the states
	MaxSpread    int     // largest max - min among the states
	BoundaryMass float64 // P(state has a dropped transition)
	Residual     float64 // ||pi Q||_1 / (N (1 + rho)) at the solution
	Sweeps       int     // Gauss-Seidel sweeps, summed over enlargements
	Enlargements int     // adaptive growth steps of the state set
	Elapsed      time.Duration
}

// JSQdExact solves the JSQ-d chain for N servers, d choices and per-server
// load rho with adaptive truncation (boundary mass < 1e-10) and tolerance
// 1e-12. See JSQdChain.
func JSQdExact(N, d int, rho float64) (JSQdSolution, error) {
	return JSQdChain{N: N, D: d, Rho: rho}.Solve()
}

// Solve computes the stationary mean delays of the chain.
func (c JSQdChain) Solve() (JSQdSolution, error) {
	start := time.Now()
	if err := c.check(); err != nil {
		return JSQdSolution{}, err
	}
	c.defaults()
	if c.Rho == 0 {
		return JSQdSolution{N: c.N, D: c.D, MeanResponse: 1, Tail: []float64{1}, States: 1, Elapsed: time.Since(start)}, nil
	}
	sp := newJSQdSpace(c.N, c.D, c.Rho)
	B, S, adaptive := c.MaxLen, c.MaxSpread, c.MaxLen == 0
	if adaptive {
		B, S = 4, 2
	}
	if S == 0 || S > B {
		S = B
	}
	if err := sp.box(B, S, c.MaxStates); err != nil {
		return JSQdSolution{}, err
	}
	var pi []float64
	sweeps, grown := 0, 0
	lastMass, lastLayers := 0.0, 0
	final := false
	var ch *jsqdChain
	for {
		if ch == nil {
			ch = sp.build()
		}
		var k int
		var err error
		// While the set grows, a rough pi is enough to find where to grow.
		tol := c.Tol
		if adaptive && !final {
			tol = max(c.Tol, growTol)
		}
		pi, k, err = ch.solve(pi, tol, c.MaxSweeps-sweeps)
		sweeps += k
		if err != nil {
			return JSQdSolution{}, err
		}
		mass := ch.boundaryMass(pi)
		if adaptive && mass < c.BoundaryTol && !final {
			final = true
			continue
		}
		if !adaptive || mass < c.BoundaryTol {
			res := ch.measure(pi)
			res.N, res.D, res.Rho = c.N, c.D, c.Rho
			res.BoundaryMass, res.Residual = mass, ch.residual(pi)
			res.Sweeps, res.Enlargements = sweeps, grown
			res.Elapsed = time.Since(start)
			return res, nil
		}
		// Layers to add: extrapolate the boundary mass's decay per layer.
		layers := 2
		if grown > 0 && mass < lastMass {
			r := math.Pow(mass/lastMass, 1/float64(lastLayers))
			layers = max(1, min(maxGrowLayers, int(math.Ceil(math.Log(c.BoundaryTol/mass)/math.Log(r)))))
		}
		lastMass, lastLayers = mass, layers
		if err := sp.grow(ch, pi, c.BoundaryTol, layers, c.MaxStates); err != nil {
			return JSQdSolution{}, fmt.Errorf("%w (boundary mass %.2g after %d enlargements, target %g)", err, mass, grown, c.BoundaryTol)
		}
		grown++
		final, ch = false, nil
		pi = append(pi, make([]float64, sp.len()-len(pi))...)
	}
}

func (c JSQdChain) check() error {
	if c.N < 1 || c.N > 1000 {
		return fmt.Errorf("theory: number of servers N=%d is invalid: need 1 <= N <= 1000 (the exact chain is feasible only for small N); use the mean-field limit or simulation for larger N", c.N)
	}
	if c.D < 1 || c.D > c.N {
		return fmt.Errorf("theory: number of choices d=%d is invalid for N=%d servers: need 1 <= d <= N; pass d in 1..%d", c.D, c.N, c.N)
	}
	if err := checkLoad(c.Rho); err != nil {
		return err
	}
	if c.MaxLen < 0 || c.MaxSpread < 0 || c.MaxLen > math.MaxUint16-1 {
		return fmt.Errorf("theory: truncation MaxLen=%d MaxSpread=%d is invalid: need 0 <= MaxSpread and 0 <= MaxLen < %d (0 means adaptive); pass 0 for automatic truncation", c.MaxLen, c.MaxSpread, math.MaxUint16)
	}
	if c.BoundaryTol < 0 || c.BoundaryTol >= 1 || c.Tol < 0 || c.Tol >= 1 || c.MaxStates < 0 || c.MaxSweeps < 0 ||
		math.IsNaN(c.BoundaryTol) || math.IsNaN(c.Tol) {
		return fmt.Errorf("theory: solver settings BoundaryTol=%g Tol=%g MaxStates=%d MaxSweeps=%d are invalid: need tolerances in [0,1) and limits >= 0; leave them 0 for the defaults",
			c.BoundaryTol, c.Tol, c.MaxStates, c.MaxSweeps)
	}
	return nil
}

func (c *JSQdChain) defaults() {
	if c.BoundaryTol == 0 {
		c.BoundaryTol = 1e-10
	}
	if c.Tol == 0 {
		c.Tol = 1e-12
	}
	if c.MaxStates == 0 {
		c.MaxStates = 3_000_000
	}
	if c.MaxSweeps == 0 {
		c.MaxSweeps = 100_000
	}
}

// While the state set grows, pi is solved only to growTol (L1 change per
// sweep), enough to locate the boundary mass; each growth step adds at most
// maxGrowLayers layers. Both were tuned on N=5, d=2, rho=0.9: the mean
// response agrees with the strict setting to 1e-9 with 40% fewer sweeps.
const (
	growTol       = 1e-7
	maxGrowLayers = 8
)

// jsqdSpace is a growing set of sorted length vectors (ascending).
type jsqdSpace struct {
	N, d   int
	rho    float64
	choose []float64        // C(T, d) / C(N, d) for T = 0..N
	index  map[string]int32 // a state's bytes (keyBytes) to its number
	states []uint16
	next   []uint16 // scratch
	key    []byte   // scratch: the key of the state looked up
}

func newJSQdSpace(N, d int, rho float64) *jsqdSpace {
	sp := &jsqdSpace{N: N, d: d, rho: rho, index: map[string]int32{}, next: make([]uint16, N)}
	sp.choose = make([]float64, N+1)
	for t := d; t <= N; t++ {
		sp.choose[t] = math.Exp(lchoose(t, d) - lchoose(N, d))
	}
	return sp
}

func (sp *jsqdSpace) len() int { return len(sp.states) / sp.N }

func (sp *jsqdSpace) state(s int) []uint16 { return sp.states[s*sp.N : (s+1)*sp.N] }

// keyBytes writes state a's map key into the scratch buffer: two bytes a
// length. A lookup reads the map with it in place (m[string(b)] does not
// copy b), where a string built for each of the chain's lookups was a
// third of a solve.
func (sp *jsqdSpace) keyBytes(a []uint16) []byte {
	b := sp.key[:0]
	for _, v := range a {
		b = append(b, byte(v), byte(v>>8))
	}
	sp.key = b
	return b
}

func (sp *jsqdSpace) lookup(a []uint16) (int32, bool) {
	i, ok := sp.index[string(sp.keyBytes(a))]
	return i, ok
}

func (sp *jsqdSpace) add(a []uint16) int32 {
	if i, ok := sp.lookup(a); ok {
		return i
	}
	i := int32(sp.len())
	sp.index[string(sp.key)] = i
	sp.states = append(sp.states, a...)
	return i
}

// transitions calls visit for every transition out of state a (sorted
// ascending), with the target written into a scratch vector; up tells an
// arrival from a departure. Arrivals beyond length MaxUint16 are dropped.
func (sp *jsqdSpace) transitions(a []uint16, visit func(next []uint16, rate float64, up bool)) {
	N := sp.N
	lambda := float64(N) * sp.rho
	for first := 0; first < N; {
		v := a[first]
		last := first
		for last+1 < N && a[last+1] == v {
			last++
		}
		// Arrival to a server with v jobs (T_v = N-first, T_{v+1} = N-last-1):
		// raise the last of the run to keep the vector sorted.
		if p := sp.choose[N-first] - sp.choose[N-last-1]; p > 0 && v < math.MaxUint16 {
			copy(sp.next, a)
			sp.next[last]++
			visit(sp.next, lambda*p, true)
		}
		// Departure from one of the last-first+1 busy servers with v jobs:
		// lower the first of the run.
		if v > 0 {
			copy(sp.next, a)
			sp.next[first]--
			visit(sp.next, float64(last-first+1), false)
		}
		first = last + 1
	}
}

// box adds every state reachable from the empty system within
// {max <= B, max - min <= S}.
func (sp *jsqdSpace) box(B, S, maxStates int) error {
	if n := boxStateCount(sp.N, B, S); n > float64(maxStates) {
		return fmt.Errorf("theory: JSQ-d truncation MaxLen=%d MaxSpread=%d for N=%d has %.3g states, more than MaxStates=%d; lower MaxLen or MaxSpread, or raise MaxStates", B, S, sp.N, n, maxStates)
	}
	sp.add(make([]uint16, sp.N))
	for s := 0; s < sp.len(); s++ {
		a := slices.Clone(sp.state(s))
		sp.transitions(a, func(t []uint16, _ float64, _ bool) {
			if int(t[sp.N-1]) <= B && int(t[sp.N-1]-t[0]) <= S {
				sp.add(t)
			}
		})
	}
	return nil
}

// boxStateCount counts sorted length vectors of N servers with lengths in
// 0..B and max - min <= S: for each minimum L there are C(N+w-1, N-1) of
// them, w = min(S, B-L).
func boxStateCount(N, B, S int) float64 {
	total := 0.0
	for L := 0; L <= B; L++ {
		total += math.Exp(lchoose(N+min(S, B-L)-1, N-1))
	}
	return total
}

// lchoose returns ln C(n, k).
func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// grow adds the missing neighbours of the boundary states that carry the
// most probability: all but the lightest boundary states whose total mass is
// below tol/2 are expanded, layers deep.
func (sp *jsqdSpace) grow(ch *jsqdChain, pi []float64, tol float64, layers, maxStates int) error {
	var bnd []int32
	for s := range pi {
		if ch.dropped[s] {
			bnd = append(bnd, int32(s))
		}
	}
	slices.SortFunc(bnd, func(x, y int32) int {
		if pi[x] < pi[y] {
			return -1
		}
		if pi[x] > pi[y] {
			return 1
		}
		return 0
	})
	skip := 0.0
	for _, s := range bnd {
		if skip+pi[s] >= tol/2 {
			break
		}
		skip += pi[s]
		bnd = bnd[1:]
	}
	// Expand the heavy boundary states, then the states just added, for the
	// given number of layers.
	frontier := bnd
	for range layers {
		first := int32(sp.len())
		for _, s := range frontier {
			a := slices.Clone(sp.state(int(s)))
			sp.transitions(a, func(t []uint16, _ float64, _ bool) { sp.add(t) })
			if sp.len() > maxStates {
				return fmt.Errorf("theory: JSQ-d chain with N=%d d=%d rho=%g needs more than MaxStates=%d states; raise MaxStates or BoundaryTol, or use fewer servers or a lower load",
					sp.N, sp.d, sp.rho, maxStates)
			}
		}
		frontier = frontier[:0:0]
		for s := first; s < int32(sp.len()); s++ {
			frontier = append(frontier, s)
		}
	}
	return nil
}

// jsqdChain is the truncated chain: states visited in order of their number
// of jobs; incoming transitions of s are from[inStart[s]:inStart[s+1]].
type jsqdChain struct {
	sp       *jsqdSpace
	order    []int32 // states sorted by number of jobs
	levelEnd []int   // order[levelEnd[n-1]:levelEnd[n]] holds level n
	out      []float64
	up, down []float64 // retained arrival and departure rates
	inStart  []int64
	from     []int32
	rate     []float64
	dropped  []bool
}

// build records every transition between states of the set.
func (sp *jsqdSpace) build() *jsqdChain {
	n := sp.len()
	ch := &jsqdChain{sp: sp, out: make([]float64, n), up: make([]float64, n), down: make([]float64, n), dropped: make([]bool, n)}
	level := make([]int, n)
	type edge struct {
		from, to int32
		rate     float64
	}
	var edges []edge
	for s := 0; s < n; s++ {
		a := sp.state(s)
		for _, v := range a {
			level[s] += int(v)
		}
		sp.transitions(a, func(t []uint16, r float64, up bool) {
			j, ok := sp.lookup(t)
			if !ok {
				ch.dropped[s] = true
				return
			}
			edges = append(edges, edge{int32(s), j, r})
			ch.out[s] += r
			if up {
				ch.up[s] += r
			} else {
				ch.down[s] += r
			}
		})
	}
	ch.order = make([]int32, n)
	for i := range ch.order {
		ch.order[i] = int32(i)
	}
	slices.SortStableFunc(ch.order, func(x, y int32) int { return level[x] - level[y] })
	top := level[ch.order[n-1]]
	ch.levelEnd = make([]int, top+1)
	for i, s := range ch.order {
		ch.levelEnd[level[s]] = i + 1
	}
	ch.inStart = make([]int64, n+1)
	for _, e := range edges {
		ch.inStart[e.to+1]++
	}
	for i := 0; i < n; i++ {
		ch.inStart[i+1] += ch.inStart[i]
	}
	fill := slices.Clone(ch.inStart[:n])
	ch.from = make([]int32, len(edges))
	ch.rate = make([]float64, len(edges))
	for _, e := range edges {
		ch.from[fill[e.to]] = e.from
		ch.rate[fill[e.to]] = e.rate
		fill[e.to]++
	}
	return ch
}

func (ch *jsqdChain) inflow(pi []float64, s int32) float64 {
	in := 0.0
	for j := ch.inStart[s]; j < ch.inStart[s+1]; j++ {
		in += pi[ch.from[j]] * ch.rate[j]
	}
	return in
}

// solve runs aggregated Gauss-Seidel from pi (nil: uniform) and returns the
// stationary vector and the sweeps used.
func (ch *jsqdChain) solve(pi []float64, tol float64, maxSweeps int) ([]float64, int, error) {
	n := len(ch.out)
	if pi == nil {
		pi = make([]float64, n)
		for s := range pi {
			pi[s] = 1 / float64(n)
		}
	}
	prev := make([]float64, n)
	levels := len(ch.levelEnd)
	p, u, d := make([]float64, levels), make([]float64, levels), make([]float64, levels)
	for k := 1; k <= maxSweeps; k++ {
		copy(prev, pi)
		for _, s := range ch.order {
			if ch.out[s] > 0 {
				pi[s] = ch.inflow(pi, s) / ch.out[s]
			}
		}
		ch.aggregate(pi, p, u, d)
		change := 0.0
		for s := range pi {
			change += math.Abs(pi[s] - prev[s])
		}
		if change < tol {
			return pi, k, nil
		}
	}
	return nil, maxSweeps, fmt.Errorf("theory: Gauss-Seidel did not reach tolerance %g within MaxSweeps=%d (%d states); raise MaxSweeps or Tol", tol, maxSweeps, n)
}

// aggregate rescales pi level by level to the exact level masses of the
// birth-death chain P_l = P_{l-1} u_{l-1} / d_l that the current conditional
// distributions within levels imply, then normalises. p, u, d are scratch:
// per level the mass, and the up and down flux. If a level has no mass or no
// downward flux the step only normalises.
func (ch *jsqdChain) aggregate(pi, p, u, d []float64) {
	lo := 0
	ok := true
	for l, hi := range ch.levelEnd {
		p[l], u[l], d[l] = 0, 0, 0
		for _, s := range ch.order[lo:hi] {
			p[l] += pi[s]
			u[l] += pi[s] * ch.up[s]
			d[l] += pi[s] * ch.down[s]
		}
		ok = ok && p[l] > 0 && (l == 0 || d[l] > 0)
		lo = hi
	}
	// P_l / P_{l-1} = (u_{l-1} / p_{l-1}) / (d_l / p_l): mean rates up and down.
	// The factor P_l / p_l replaces u[l] once u[l] has been used.
	want, total := 1.0, 0.0
	upRate := 0.0
	for l := range p {
		if ok && l > 0 {
			want *= upRate / (d[l] / p[l])
		}
		if !ok {
			want = p[l]
		}
		total += want
		if p[l] > 0 {
			upRate, u[l] = u[l]/p[l], want/p[l]
		} else {
			upRate, u[l] = 0, 1
		}
	}
	lo = 0
	for l, hi := range ch.levelEnd {
		f := u[l] / total
		for _, s := range ch.order[lo:hi] {
			pi[s] *= f
		}
		lo = hi
	}
}

// boundaryMass returns the probability of states with a dropped transition.
func (ch *jsqdChain) boundaryMass(pi []float64) float64 {
	m := 0.0
	for s, p := range pi {
		if ch.dropped[s] {
			m += p
		}
	}
	return m
}

// measure computes the mean jobs, response time and tail.
func (ch *jsqdChain) measure(pi []float64) JSQdSolution {
	sp := ch.sp
	res := JSQdSolution{States: len(pi)}
	for s := range pi {
		a := sp.state(s)
		res.MaxLen = max(res.MaxLen, int(a[sp.N-1]))
		res.MaxSpread = max(res.MaxSpread, int(a[sp.N-1]-a[0]))
	}
	res.Tail = make([]float64, res.MaxLen+1)
	busy := 0.0
	for s, p := range pi {
		for _, v := range sp.state(s) {
			res.MeanJobs += p * float64(v)
			if v > 0 {
				busy += p
			}
			for i := 0; i <= int(v); i++ {
				res.Tail[i] += p / float64(sp.N)
			}
		}
	}
	res.MeanResponse = res.MeanJobs / busy
	res.MeanWait = res.MeanResponse - 1
	return res
}

// residual returns ||pi Q||_1 scaled by the largest total rate N (1 + rho).
func (ch *jsqdChain) residual(pi []float64) float64 {
	r := 0.0
	for s := range pi {
		r += math.Abs(ch.inflow(pi, int32(s)) - pi[s]*ch.out[s])
	}
	return r / (float64(ch.sp.N) * (1 + ch.sp.rho))
}
