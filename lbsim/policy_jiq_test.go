package lbsim_test

import (
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// jiqChain is JIQ on two rate-1 servers with Poisson arrivals at rate
// 2 rho, exponential sizes: the state is the two queue lengths. A job joins
// the idle server if exactly one is idle, else either with probability 1/2
// (both idle: ties drawn uniformly; none idle: a random server). Queue
// lengths are truncated at b.
func jiqChain(rho float64, b int) theory.Chain[[2]int] {
	lambda := 2 * rho
	return theory.Chain[[2]int]{
		Next: func(q [2]int, emit func([2]int, float64)) {
			for i := range q {
				p := 0.5
				if (q[0] == 0) != (q[1] == 0) { // exactly one idle
					p = 0
					if q[i] == 0 {
						p = 1
					}
				}
				if p > 0 {
					up := q
					up[i]++
					emit(up, lambda*p)
				}
				if q[i] > 0 {
					down := q
					down[i]--
					emit(down, 1)
				}
			}
		},
		Keep:  func(q [2]int) bool { return q[0] <= b && q[1] <= b },
		Level: func(q [2]int) int { return q[0] + q[1] },
	}
}

// meanResponse is E[N]/lambda (Little's law) of a solved chain whose state
// jobs counts the jobs, checking that the truncation lost no visible mass.
func meanResponse[S comparable](t *testing.T, ch theory.Chain[S], lambda float64, jobs func(S) int) float64 {
	t.Helper()
	st, err := ch.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if st.BoundaryMass > 1e-8 || st.Residual > 1e-9 {
		t.Fatalf("chain truncated too tightly: boundary mass %g, residual %g (%d states)", st.BoundaryMass, st.Residual, len(st.States))
	}
	return st.Mean(func(s S) float64 { return float64(jobs(s)) }) / lambda
}

// JIQ on two servers against its exactly solved Markov chain, under FCFS and
// PS (with exponential sizes both give the same queue-length chain; JIQ
// reads only whether a server has work).
func TestJIQMatchesMarkovChain(t *testing.T) {
	for _, rho := range []float64{0.5, 0.9} {
		exact := meanResponse(t, jiqChain(rho, 250), 2*rho, func(q [2]int) int { return q[0] + q[1] })
		for _, disc := range []lbsim.Discipline{lbsim.FCFS, lbsim.PS} {
			cfg := lbsim.Config{Servers: 2, Load: rho, Sizes: exp1, Policy: lbsim.JIQ{}, Discipline: disc, Jobs: 1_000_000, Reps: 8}
			within(t, "jiq K=2 "+disc.String(), run(t, cfg).Response, exact, 0)
		}
	}
}

// JIQ with one dispatcher on many servers: an idle server almost always
// exists, so the wait vanishes as K grows and the mean response tends to
// E[X] = 1 (Lu et al. 2011); it is never worse than random dispatch
// (M/M/1 per server).
func TestJIQManyServers(t *testing.T) {
	for _, rho := range []float64{0.5, 0.9} {
		rnd := must(theory.MM1(rho, 1, 1))
		prev := rnd.Wait
		for _, k := range []int{10, 100, 1000} {
			cfg := lbsim.Config{Servers: k, Load: rho, Sizes: exp1, Policy: lbsim.JIQ{}, Jobs: 1_000_000, Warmup: 100_000, Reps: 4}
			r := run(t, cfg)
			t.Logf("rho=%v K=%d: wait %.4g ± %.2g, response %.4g", rho, k, r.Wait.Mean, r.Wait.CI95, r.Response.Mean)
			if r.Wait.Mean > 0 && r.Wait.Mean+r.Wait.CI95 >= prev {
				t.Errorf("rho=%v K=%d: JIQ wait %v not below %.4g (random dispatch, or JIQ on fewer servers)", rho, k, r.Wait, prev)
			}
			if k == 1000 && r.Wait.Mean > 0.001 {
				t.Errorf("rho=%v K=1000: JIQ wait %v, expected below 0.001 E[X]", rho, r.Wait)
			}
			prev = r.Wait.Mean
			if k == 1000 {
				within(t, "jiq K=1000 response", r.Response, 1, 0.01)
			}
		}
	}
}

// JIQ on a board: never refreshed (T beyond the last arrival) every server
// shows idle, so JIQ draws uniformly among all K: random dispatch, M/M/1 per
// server; refreshed far more often than jobs arrive, it is live JIQ.
func TestJIQStaleBoard(t *testing.T) {
	cfg := lbsim.Config{Servers: 10, Load: 0.7, Sizes: exp1, Policy: lbsim.JIQ{}, Refresh: 1e12, Jobs: 300_000, Reps: 8}
	within(t, "jiq on a frozen board", run(t, cfg).Wait, must(theory.MM1(0.7, 1, 1)).Wait, 0)
	exact := meanResponse(t, jiqChain(0.8, 200), 1.6, func(q [2]int) int { return q[0] + q[1] })
	cfg = lbsim.Config{Servers: 2, Load: 0.8, Sizes: exp1, Policy: lbsim.JIQ{}, Refresh: 1e-4, Jobs: 200_000, Reps: 8}
	within(t, "jiq board T=1e-4", run(t, cfg).Response, exact, 0)
}
