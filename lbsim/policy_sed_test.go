package lbsim_test

import (
	"fmt"
	"math"
	"math/bits"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// queues is the state of K <= 3 servers: the jobs at each (unused entries 0).
type queues [3]int

// route is a count-based dispatching rule: the probability that a job
// arriving in state q joins each server.
type route func(q queues, mu []float64) [3]float64

// sampledRoute is the rule that samples d of the K servers uniformly (every
// d-subset alike) and sends the job to a best server of the subset, by
// better (a < b: a is strictly better; neither: a tie, drawn uniformly).
func sampledRoute(d int, better func(q queues, mu []float64, a, b int) bool) route {
	return func(q queues, mu []float64) [3]float64 {
		k := len(mu)
		var p [3]float64
		var sets []int
		for mask := range 1 << k {
			if bits.OnesCount(uint(mask)) == d {
				sets = append(sets, mask)
			}
		}
		for _, set := range sets {
			var win []int
			for a := range k {
				if set&(1<<a) == 0 {
					continue
				}
				beaten := false
				for b := range k {
					beaten = beaten || set&(1<<b) != 0 && better(q, mu, b, a)
				}
				if !beaten {
					win = append(win, a)
				}
			}
			for _, a := range win {
				p[a] += 1 / float64(len(sets)*len(win))
			}
		}
		return p
	}
}

// sedBetter: a is better than b if its expected delay (n+1)/mu is smaller,
// or equal on a faster server.
func sedBetter(q queues, mu []float64, a, b int) bool {
	da, db := float64(q[a]+1)/mu[a], float64(q[b]+1)/mu[b]
	return da < db || da == db && mu[a] > mu[b]
}

func jsqBetter(q queues, _ []float64, a, b int) bool { return q[a] < q[b] }

// exactChainDelay solves the dispatching chain of rule on servers of
// speeds mu with exponential sizes of mean 1 and Poisson arrivals at rate
// lambda (theory.Chain, truncated to total <= n jobs), and returns the mean
// wait and response: E[R] = E[N]/lambda (Little), E[W] = E[R] - E[1/mu_J]
// (PASTA: J the server an arrival joins). The truncation error is bounded by
// solving again with 1.5 n jobs: it returns the larger of the two changes
// as err.
func exactChainDelay(t *testing.T, r route, mu []float64, lambda float64, n int) (w, resp, errBound float64) {
	t.Helper()
	solve := func(n int) (float64, float64) {
		ch := theory.Chain[queues]{
			Next: func(q queues, emit func(queues, float64)) {
				p := r(q, mu)
				for k := range mu {
					if p[k] > 0 {
						up := q
						up[k]++
						emit(up, lambda*p[k])
					}
					if q[k] > 0 {
						down := q
						down[k]--
						emit(down, mu[k])
					}
				}
			},
			Keep:  func(q queues) bool { return q[0]+q[1]+q[2] <= n },
			Level: func(q queues) int { return q[0] + q[1] + q[2] },
		}
		st, err := ch.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if st.BoundaryMass > 1e-9 {
			t.Fatalf("chain truncated too tightly at %d jobs: boundary mass %g", n, st.BoundaryMass)
		}
		jobs := st.Mean(func(q queues) float64 { return float64(q[0] + q[1] + q[2]) })
		service := st.Mean(func(q queues) float64 {
			p, s := r(q, mu), 0.0
			for k := range mu {
				s += p[k] / mu[k]
			}
			return s
		})
		return jobs/lambda - service, jobs / lambda
	}
	w, resp = solve(n)
	w2, _ := solve(n * 3 / 2)
	return w, resp, math.Abs(w2 - w)
}

// SED and JSQ (over all servers and of 2 sampled) on two and three servers
// of unequal speeds: the simulator's mean wait against the exact Markov
// chain solved here (its own routing, not the simulator's), and lbsim's
// Theory (theory.DispatchExact) against the same chain.
func TestSEDAndJSQUnequalSpeedsExact(t *testing.T) {
	t.Parallel() // no process-wide state; its exact reference is solved on one core
	jobs := int64(400_000)
	if testing.Short() {
		jobs = 150_000
	}
	// The chains are truncated at n jobs in all: two servers at load 0.7
	// need 70 (at 50 the boundary holds 7e-9 of the mass); three at 0.6
	// reach a boundary mass below 1e-9 at 50, where the truncation bound is
	// 2-4e-10, and w moves by less than 3e-10 from n = 70: far inside
	// Theory's tolerance 1e-6 w, at a third of the states of n = 70
	// (C(53,3) = 23,426 and C(78,3) = 76,076 for the bound, against
	// 62,196 and 204,156).
	for _, c := range []struct {
		policy string
		rule   route
		speeds []float64
		load   float64
		n      int
	}{
		{"sed", sampledRoute(2, sedBetter), []float64{2, 1}, 0.7, 70},
		{"jsq", sampledRoute(2, jsqBetter), []float64{2, 1}, 0.7, 70},
		{"sed", sampledRoute(3, sedBetter), []float64{2, 1, 1}, 0.6, 50},
		{"sed:d=2", sampledRoute(2, sedBetter), []float64{2, 1, 1}, 0.6, 50},
		{"jsq", sampledRoute(3, jsqBetter), []float64{2, 1, 1}, 0.6, 50},
		{"jsq:d=2", sampledRoute(2, jsqBetter), []float64{2, 1, 1}, 0.6, 50},
		{"sed", sampledRoute(3, sedBetter), []float64{4, 1, 1}, 0.5, 50},
	} {
		t.Run(fmt.Sprintf("%s/%v/%v", c.policy, c.speeds, c.load), func(t *testing.T) {
			p, err := lbsim.ParsePolicy(c.policy)
			if err != nil {
				t.Fatal(err)
			}
			cfg := lbsim.Config{Servers: len(c.speeds), Speeds: c.speeds, Load: c.load, Sizes: lbsim.Exponential{M: 1},
				Policy: p, Jobs: jobs, Warmup: 10_000, Reps: 8, Seed: 11}
			w, _, bound := exactChainDelay(t, c.rule, c.speeds, c.load*cfg.Capacity(), c.n)
			if bound > 1e-7 {
				t.Fatalf("truncation error bound %g too large", bound)
			}
			r, err := lbsim.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(r.Wait.Mean - w); d > 1.5*r.Wait.CI95 {
				t.Errorf("simulated mean wait %.5f ± %.5f, exact %.5f (off by %.2f half-widths)", r.Wait.Mean, r.Wait.CI95, w, d/r.Wait.CI95)
			}
			if ref, ok := lbsim.Exact(cfg); !ok {
				t.Errorf("no exact value from lbsim.Theory")
			} else if math.Abs(ref.Wait-w) > 1e-6*w+bound {
				t.Errorf("lbsim.Theory (%s) %.8f, the chain here %.8f", ref.Method, ref.Wait, w)
			}
			t.Logf("%s speeds %v load %v: simulated %.5f ± %.5f, exact %.5f (truncation error < %.1g)", p, c.speeds, c.load, r.Wait.Mean, r.Wait.CI95, w, bound)
		})
	}
}
