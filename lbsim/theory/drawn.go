package theory

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// DrawnMaxServers bounds DrawnExact's K: its chain is on the vector of
// queue lengths, truncated by the total only.
const DrawnMaxServers = 3

// drawnMaxStates bounds DrawnExact's truncated chain (under a second of one core).
const drawnMaxStates = 120_000

// DrawnExact returns the exact mean delays of JSQ-d with replacement,
// Envoy's least request with equal weights (choice_count d): each Poisson
// arrival (total rate lambda) draws d of the K = len(speeds) servers
// independently and uniformly and joins the first drawn of the fewest jobs;
// sizes exponential of mean 1, server k completing jobs at rate speeds[k]
// while busy (FCFS; PS has the same law of the numbers of jobs).
//
// The first drawn of the fewest is uniform among the servers that hold that
// number, so with G_v the servers holding at least v jobs and E_v those
// holding exactly v, a job joins a given server holding v with probability
//
//	((G_v/K)^d - (G_{v+1}/K)^d) / E_v.
//
// The chain on the vector n (sorted when the speeds are equal: the servers
// are exchangeable) is truncated to a total of N jobs, N grown until the
// states that lost a transition hold below 1e-10 of the mass, and solved by
// Chain; then E[R] = E[N]/lambda (Little) and E[W] = E[R] - E[1/mu_J]
// (PASTA, J the server a job joins).
//
// Conditions: 1 <= K <= DrawnMaxServers, d >= 1, speeds > 0, and stability:
// the m slowest servers receive every job whose d draws all fall among
// them, lambda (m/K)^d, which must stay below their total speed for every
// m <= K. A chain of more than 120,000 states is refused (K = 3 at loads
// above about 0.8). Results are memoised.
func DrawnExact(d int, lambda float64, speeds []float64) (Delay, error) {
	key := fmt.Sprint(d, math.Float64bits(lambda), speeds)
	if r, ok := drawnCache.Load(key); ok {
		return r.(drawnResult).d, r.(drawnResult).err
	}
	delay, err := drawnExact(d, lambda, speeds)
	drawnCache.Store(key, drawnResult{delay, err})
	return delay, err
}

var drawnCache sync.Map

type drawnResult struct {
	d   Delay
	err error
}

type drawnState [DrawnMaxServers]int32

func drawnExact(d int, lambda float64, speeds []float64) (Delay, error) {
	k := len(speeds)
	if k < 1 || k > DrawnMaxServers || d < 1 {
		return Delay{}, fmt.Errorf("theory: K=%d servers and d=%d draws are invalid for the exact chain of draws with replacement: need 1 <= K <= %d and d >= 1; simulate larger systems", k, d, DrawnMaxServers)
	}
	if err := checkArrivalRate(lambda); err != nil {
		return Delay{}, err
	}
	slow, sum := slices.Clone(speeds), 0.0
	slices.Sort(slow)
	for m, mu := range slow {
		if err := checkPositive(fmt.Sprintf("speed mu[%d]", m), mu); err != nil {
			return Delay{}, err
		}
		sum += mu
		if share := math.Pow(float64(m+1)/float64(k), float64(d)); lambda*share >= sum {
			return Delay{}, fmt.Errorf("theory: %d draws with replacement on speeds %v are unstable at lambda=%g: the %d slowest servers (total speed %g) receive lambda (%d/%d)^%d = %g; need lambda < %g", d, speeds, lambda, m+1, sum, m+1, k, d, lambda*share, sum/share)
		}
	}
	equal := slow[0] == slow[k-1]
	join := func(n drawnState, f func(j int, p float64)) {
		for j := range k {
			g, above, e := 0, 0, 0
			for i := range k {
				switch {
				case n[i] > n[j]:
					g, above = g+1, above+1
				case n[i] == n[j]:
					g, e = g+1, e+1
				}
			}
			f(j, (math.Pow(float64(g)/float64(k), float64(d))-math.Pow(float64(above)/float64(k), float64(d)))/float64(e))
		}
	}
	total := func(n drawnState) int { return int(n[0] + n[1] + n[2]) }
	step := func(n drawnState, j int, by int32) drawnState {
		n[j] += by
		if equal {
			slices.Sort(n[:k])
		}
		return n
	}
	n := int(math.Ceil(25/-math.Log(lambda/sum))) + 10
	for range 4 {
		ch := Chain[drawnState]{
			Next: func(s drawnState, emit func(drawnState, float64)) {
				join(s, func(j int, p float64) { emit(step(s, j, 1), lambda*p) })
				for j := range k {
					if s[j] > 0 {
						emit(step(s, j, -1), speeds[j])
					}
				}
			},
			Keep: func(s drawnState) bool { return total(s) <= n }, Level: total, MaxStates: drawnMaxStates,
		}
		st, err := ch.Solve()
		if err != nil {
			return Delay{}, fmt.Errorf("theory: exact chain of %d draws with replacement, lambda=%g, speeds %v: %w", d, lambda, speeds, err)
		}
		if st.BoundaryMass < 1e-10 {
			r := st.Mean(func(s drawnState) float64 { return float64(total(s)) }) / lambda
			service := st.Mean(func(s drawnState) float64 {
				t := 0.0
				join(s, func(j int, p float64) { t += p / speeds[j] })
				return t
			})
			return Delay{Wait: max(r-service, 0), Response: r}, nil
		}
		n = n * 3 / 2
	}
	return Delay{}, fmt.Errorf("theory: exact chain of %d draws with replacement, lambda=%g, speeds %v: the truncation did not settle at %d jobs; lower the load", d, lambda, speeds, n)
}
