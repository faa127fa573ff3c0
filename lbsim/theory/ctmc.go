package theory

import (
	"fmt"
	"math"
)

// Chain is a continuous-time Markov chain on states of any comparable type,
// given by its transitions and solved for its stationary law on a finite
// set of states: those reachable from Start that Keep accepts. Transitions
// to states Keep rejects are dropped (the truncation); the stationary mass
// of states that lost one is reported as BoundaryMass, so that a caller can
// see whether the truncation was wide enough.
//
// Solver: Gauss-Seidel sweeps on the balance equations
// pi_s q_s = sum_t pi_t q(t, s). If Level is set, every transition must
// change the level by at most one (e.g. the number of jobs in the system);
// each sweep is then followed by an aggregation step that rescales the
// levels to the birth-death balance P_l u_l = P_{l+1} d_{l+1} their
// conditional laws imply, which removes the slow mode plain Gauss-Seidel
// leaves in queueing chains (as in JSQdChain). Iteration stops when the L1
// change of pi in a sweep is below Tol.
type Chain[S comparable] struct {
	Start S
	// Next calls emit for every transition out of s, with its rate (> 0).
	// Several emits to the same state add up; a self-loop is ignored.
	Next func(s S, emit func(to S, rate float64))
	// Keep reports whether s belongs to the truncated chain (nil: all).
	Keep func(s S) bool
	// Level is optional: a state's level, changed by at most one per transition.
	Level func(s S) int

	Tol       float64 // L1 change of pi per sweep (0: 1e-13)
	MaxStates int     // refuse larger chains (0: 2,000,000)
	MaxSweeps int     // give up after this many sweeps (0: 100,000)
}

// Stationary is the solution of a Chain.
type Stationary[S comparable] struct {
	States       []S
	Pi           []float64 // Pi[i] is the stationary probability of States[i]
	BoundaryMass float64   // probability of the states that lost a transition to Keep
	Residual     float64   // ||pi Q||_1 / max_s q_s
	Sweeps       int
}

// Mean is E[f(S)] under the stationary law.
func (st Stationary[S]) Mean(f func(S) float64) float64 {
	m := 0.0
	for i, s := range st.States {
		m += st.Pi[i] * f(s)
	}
	return m
}

// Solve explores the chain from Start and returns its stationary law.
func (c Chain[S]) Solve() (Stationary[S], error) {
	if c.Next == nil {
		return Stationary[S]{}, fmt.Errorf("theory: Chain needs a Next function (the transitions)")
	}
	if c.Keep != nil && !c.Keep(c.Start) {
		return Stationary[S]{}, fmt.Errorf("theory: Chain's Start state %v is outside Keep; start inside the truncation", c.Start)
	}
	tol, maxStates, maxSweeps := c.Tol, c.MaxStates, c.MaxSweeps
	if tol == 0 {
		tol = 1e-13
	}
	if maxStates == 0 {
		maxStates = 2_000_000
	}
	if maxSweeps == 0 {
		maxSweeps = 100_000
	}
	g, err := c.explore(maxStates)
	if err != nil {
		return Stationary[S]{}, err
	}
	pi, sweeps, err := g.solve(tol, maxSweeps)
	if err != nil {
		return Stationary[S]{}, err
	}
	st := Stationary[S]{States: g.states, Pi: pi, Sweeps: sweeps}
	maxOut := 0.0
	for s, p := range pi {
		if g.dropped[s] {
			st.BoundaryMass += p
		}
		maxOut = max(maxOut, g.out[s])
		st.Residual += math.Abs(g.inflow(pi, s) - p*g.out[s])
	}
	st.Residual /= maxOut
	return st, nil
}

// generator is a truncated chain in compressed form: for each state its
// incoming transitions (from, rate) and its total outflow rate.
type generator[S comparable] struct {
	states  []S
	index   map[S]int32 // the position of each state in states
	out     []float64
	dropped []bool
	inStart []int // incoming transitions of s: from[inStart[s]:inStart[s+1]]
	from    []int32
	rate    []float64
	level   []int // nil without Level; states are sorted by level otherwise
	up      []float64
	down    []float64 // rates to the next and previous level
	bounds  []int     // states of level l are [bounds[l], bounds[l+1])
}

func (c Chain[S]) explore(maxStates int) (*generator[S], error) {
	index := map[S]int32{c.Start: 0}
	g := &generator[S]{states: []S{c.Start}, index: index}
	type edge struct {
		from, to int32
		rate     float64
	}
	var edges []edge
	for s := 0; s < len(g.states); s++ {
		g.out = append(g.out, 0)
		g.dropped = append(g.dropped, false)
		var bad error
		c.Next(g.states[s], func(to S, rate float64) {
			if !(rate > 0) || math.IsInf(rate, 0) {
				bad = fmt.Errorf("theory: Chain transition %v -> %v has rate %g; rates must be finite and > 0", g.states[s], to, rate)
			}
			if to == g.states[s] {
				return
			}
			if c.Keep != nil && !c.Keep(to) {
				g.dropped[s] = true
				return
			}
			t, ok := index[to]
			if !ok {
				t = int32(len(g.states))
				index[to] = t
				g.states = append(g.states, to)
			}
			g.out[s] += rate
			edges = append(edges, edge{int32(s), t, rate})
		})
		if bad != nil {
			return nil, bad
		}
		if len(g.states) > maxStates {
			return nil, fmt.Errorf("theory: Chain has more than MaxStates=%d states; narrow Keep or raise MaxStates", maxStates)
		}
	}
	n := len(g.states)
	if c.Level != nil {
		g.level = make([]int, n)
		lo, hi := math.MaxInt, math.MinInt
		for s, st := range g.states {
			g.level[s] = c.Level(st)
			lo, hi = min(lo, g.level[s]), max(hi, g.level[s])
		}
		g.up, g.down = make([]float64, n), make([]float64, n)
		for _, e := range edges {
			switch g.level[e.to] - g.level[e.from] {
			case 1:
				g.up[e.from] += e.rate
			case -1:
				g.down[e.from] += e.rate
			case 0:
			default:
				return nil, fmt.Errorf("theory: Chain transition %v -> %v changes the level by more than one; fix Level or leave it nil", g.states[e.from], g.states[e.to])
			}
		}
		g.bounds = make([]int, hi-lo+2)
		for _, l := range g.level {
			g.bounds[l-lo+1]++
		}
		for l := 1; l < len(g.bounds); l++ {
			g.bounds[l] += g.bounds[l-1]
		}
		for s := range g.level {
			g.level[s] -= lo
		}
	}
	g.inStart = make([]int, n+1)
	for _, e := range edges {
		g.inStart[e.to+1]++
	}
	for s := range n {
		g.inStart[s+1] += g.inStart[s]
	}
	g.from, g.rate = make([]int32, len(edges)), make([]float64, len(edges))
	fill := append([]int(nil), g.inStart[:n]...)
	for _, e := range edges {
		g.from[fill[e.to]], g.rate[fill[e.to]] = e.from, e.rate
		fill[e.to]++
	}
	return g, nil
}

func (g *generator[S]) inflow(pi []float64, s int) float64 {
	in := 0.0
	for j := g.inStart[s]; j < g.inStart[s+1]; j++ {
		in += pi[g.from[j]] * g.rate[j]
	}
	return in
}

func (g *generator[S]) solve(tol float64, maxSweeps int) ([]float64, int, error) {
	n := len(g.states)
	pi, prev := make([]float64, n), make([]float64, n)
	for s := range pi {
		pi[s] = 1 / float64(n)
	}
	for k := 1; k <= maxSweeps; k++ {
		copy(prev, pi)
		for s := range pi {
			if g.out[s] > 0 {
				pi[s] = g.inflow(pi, s) / g.out[s]
			}
		}
		g.aggregate(pi)
		change := 0.0
		for s := range pi {
			change += math.Abs(pi[s] - prev[s])
		}
		if change < tol {
			return pi, k, nil
		}
	}
	return nil, maxSweeps, fmt.Errorf("theory: Gauss-Seidel did not reach tolerance %g within MaxSweeps=%d (%d states); raise MaxSweeps or Tol, or give a Level", tol, maxSweeps, n)
}

// aggregate rescales the levels to the birth-death balance implied by the
// conditional laws within levels, then normalises (only normalises without
// levels, or when a level has no mass or no flux to rescale with).
func (g *generator[S]) aggregate(pi []float64) {
	total := 0.0
	if g.level == nil {
		for _, p := range pi {
			total += p
		}
		for s := range pi {
			pi[s] /= total
		}
		return
	}
	levels := len(g.bounds) - 1
	mass, up, down := make([]float64, levels), make([]float64, levels), make([]float64, levels)
	for s, p := range pi {
		l := g.level[s]
		mass[l] += p
		up[l] += p * g.up[s]
		down[l] += p * g.down[s]
	}
	want := make([]float64, levels)
	want[0] = 1
	ok := mass[0] > 0
	for l := 1; l < levels && ok; l++ {
		ok = mass[l] > 0 && up[l-1] > 0 && down[l] > 0
		if ok { // P_l = P_{l-1} (u_{l-1}/p_{l-1}) / (d_l/p_l)
			want[l] = want[l-1] * (up[l-1] / mass[l-1]) / (down[l] / mass[l])
		}
	}
	if !ok {
		copy(want, mass)
	}
	for _, w := range want {
		total += w
	}
	for s := range pi {
		if m := mass[g.level[s]]; m > 0 {
			pi[s] *= want[g.level[s]] / m / total
		}
	}
}
