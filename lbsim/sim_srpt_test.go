package lbsim

import (
	"fmt"
	"math"
	"testing"
)

// srptMM1 is the mean response time of an M/M/1 queue under preemptive
// SRPT with sizes of mean 1 at arrival rate lambda, by Schrage and Miller
// (1966): a job of size x waits W(x) = lambda (m2(x) + x^2 (1-F(x))) /
// (2 (1-rho(x))^2) for the work of shorter jobs and its own start, then
// stays R(x) = int_0^x dt/(1-rho(t)) in service, rho(x) = lambda m1(x),
// with m1(x) = int_0^x t e^-t dt = 1 - e^-x (1+x) and m2(x) = int_0^x
// t^2 e^-t dt = 2 - e^-x (x^2+2x+2). E[T] = int_0^inf (W(x) + R(x)) e^-x
// dx, by Simpson's rule on [0, 60] (the tail beyond weighs e^-60), with
// R(x) carried along the grid by Simpson's rule on each double step.
func srptMM1(lambda float64) float64 {
	rho := func(x float64) float64 { return lambda * (1 - math.Exp(-x)*(1+x)) }
	wait := func(x float64) float64 {
		m2 := 2 - math.Exp(-x)*(x*x+2*x+2)
		return lambda * (m2 + x*x*math.Exp(-x)) / (2 * (1 - rho(x)) * (1 - rho(x)))
	}
	inService := func(t float64) float64 { return 1 / (1 - rho(t)) }
	const n, hi = 600_000, 60.0 // n even
	h := hi / n
	sum, r := wait(0), 0.0 // the weighed integrand at 0 (R(0) = 0)
	for i := 2; i <= n; i += 2 {
		a, m, b := float64(i-2)*h, float64(i-1)*h, float64(i)*h
		rm := r + h/2*(inService(a)+inService(m)) // R at the midpoint: the trapezoid's error is O(h^3) on a half step
		r += h / 3 * (inService(a) + 4*inService(m) + inService(b))
		w := 2.0
		if i == n {
			w = 1
		}
		sum += 4*(wait(m)+rm)*math.Exp(-m) + w*(wait(b)+r)*math.Exp(-b)
	}
	return h / 3 * sum
}

// TestSRPTMM1: one exponential server under SRPT, the simulated mean
// response against Schrage and Miller's formula, integrated in the test,
// at loads 0.5 and 0.8 (half-widths about 1% of the mean). The formula
// itself is checked at its limits: rho -> 0 gives E[X] = 1, and it lies
// below M/M/1-FCFS's 1/(1-rho).
func TestSRPTMM1(t *testing.T) {
	if v := srptMM1(1e-9); math.Abs(v-1) > 1e-8 {
		t.Fatalf("the integration at rho -> 0 gives %.12g, want E[X] = 1", v)
	}
	for _, c := range []struct {
		load float64
		jobs int64
	}{{0.5, 250_000}, {0.8, 500_000}} {
		exact := srptMM1(c.load)
		if exact >= 1/(1-c.load) {
			t.Fatalf("load %g: SRPT's %.6g is not below FCFS's %.6g", c.load, exact, 1/(1-c.load))
		}
		cfg := Config{Servers: 1, Load: c.load, Sizes: Exponential{M: 1}, Policy: Random{}, Discipline: SRPT,
			Jobs: c.jobs, Warmup: 10_000, Reps: 8, Seed: 37}
		r := run(t, cfg)
		t.Logf("M/M/1-SRPT at load %g: simulated %v, Schrage-Miller %.6g (FCFS %.6g)", c.load, r.Response, exact, 1/(1-c.load))
		if r.Response.CI95 > 0.015*exact {
			t.Errorf("load %g: half-width %.3g, over 1.5%% of %.4g: too short a run to tell", c.load, r.Response.CI95, exact)
		}
		if math.Abs(r.Response.Mean-exact) > r.Response.CI95 {
			t.Errorf("load %g: simulated mean response %v, Schrage-Miller %.6g", c.load, r.Response, exact)
		}
	}
}

// The known orderings in mean response, on the same random numbers: SRPT
// minimizes the number in system at each server (Schrage 1968), so it is
// below PS and FCFS whatever the dispatching, and far below them when sizes
// vary much (H2 with SCV 10).
func TestSRPTBelowPSAndFCFS(t *testing.T) {
	h2, err := NewH2Balanced(1, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Policy{Random{}, LeastLoaded{D: 2}, JSQ{D: 2}} {
		resp := map[Discipline]Estimate{}
		for _, d := range []Discipline{FCFS, PS, SRPT} {
			cfg := Config{Servers: 4, Load: 0.8, Sizes: h2, Policy: p, Discipline: d, Jobs: 400_000, Reps: 4, Seed: 11}
			resp[d] = run(t, cfg).Response
		}
		t.Logf("%s, K=4, H2 SCV 10, load 0.8: mean response FCFS %v, PS %v, SRPT %v", p, resp[FCFS], resp[PS], resp[SRPT])
		if s := resp[SRPT].Mean; s >= resp[PS].Mean || s >= resp[FCFS].Mean {
			t.Errorf("%s: SRPT's mean response %v is not below PS's %v and FCFS's %v", p, resp[SRPT], resp[PS], resp[FCFS])
		}
	}
}

// With equal sizes SRPT is FCFS: the job in service has less left than any
// waiting job, and an arrival as long as what it has left does not preempt
// it (ties to the earlier). The same seed gives FCFS's numbers, under
// policies that read nothing, workloads or job counts, with several
// dispatchers and under the own view, the "wait" of SRPT (response less
// service) being FCFS's wait. (Not JSQ and SED over all K: their index of
// counts breaks ties by its order, which under FCFS follows the departures
// as the arrivals find them and under SRPT the departures as the servers
// are brought up to date, the same law on other random numbers.)
func TestSRPTDeterministicIsFCFS(t *testing.T) {
	for _, c := range []Config{
		{Servers: 4, Policy: Random{}},
		{Servers: 4, Policy: RoundRobin{}},
		{Servers: 4, Policy: LeastLoaded{}},
		{Servers: 10, Policy: LeastLoaded{D: 2}},
		{Servers: 10, Policy: JSQ{D: 2}},
		{Servers: 6, Speeds: []float64{2, 2, 1, 1, 1, 1}, Policy: SED{D: 2}},
		{Servers: 10, Policy: JSQ{D: 2}, Dispatchers: 3, View: OwnView},
		{Servers: 10, Policy: JSQ{D: 2}, Refresh: 2},
	} {
		c.Load, c.Sizes, c.Jobs, c.Reps, c.Seed = 0.9, Deterministic{X0: 1.5}, 100_000, 2, 5
		fcfs := run(t, c)
		c.Discipline = SRPT
		srpt := run(t, c)
		for _, m := range []struct {
			name string
			a, b float64
		}{{"mean wait", fcfs.Wait.Mean, srpt.Wait.Mean}, {"mean response", fcfs.Response.Mean, srpt.Response.Mean}} {
			if math.Abs(m.a-m.b) > 1e-12*m.a {
				t.Errorf("%s, deterministic sizes: SRPT's %s %.15g, FCFS's %.15g", c, m.name, m.b, m.a)
			}
		}
		if fcfs.Wait.Mean < 0.1 {
			t.Errorf("%s: FCFS's mean wait %.3g: too little queueing to tell the disciplines apart", c, fcfs.Wait.Mean)
		}
	}
}

// A trace worked by hand, one server: a long job preempted by shorter
// ones, a waiting job preempted in its turn, and a tie that does not
// preempt. Each job is a batch of its own, so the batches are the jobs'
// response times. Job (arrival, size): 0 (0, 10), 1 (1, 2), 2 (2, 4),
// 3 (4, 1), 4 (6, 3), 5 (9, 2).
//
//	t=0   job 0 starts
//	t=1   job 1 (2 < 9 left) preempts job 0
//	t=2   job 2 (4 > 1 left) waits
//	t=3   job 1 leaves (response 2); job 2 (4 < 9) starts
//	t=4   job 3 (1 < 3 left) preempts job 2
//	t=5   job 3 leaves (1); job 2 resumes with 3 left
//	t=6   job 4 (3 > 2 left) waits
//	t=8   job 2 leaves (6); job 4 (3 < 9) starts
//	t=9   job 5 (2, as much as job 4 has left) waits: the tie to the earlier
//	t=11  job 4 leaves (5); job 5 starts
//	t=13  job 5 leaves (4); job 0 resumes with 9 left
//	t=22  job 0 leaves (22)
//
// At speed 2 (the trace at the same load: its times halved) every response
// is half as long.
func TestSRPTTraceByHand(t *testing.T) {
	tr := &Trace{Times: []float64{0, 1, 2, 4, 6, 9}, Sizes: []float64{10, 2, 4, 1, 3, 2}}
	want := []float64{22, 2, 6, 1, 5, 4}
	for _, mu := range []float64{1, 2} {
		// The trace's load at speed 1 (over 1: its 22 units of work arrive
		// within 9): its times as they are at speed 1, halved at 2.
		cfg := Config{Servers: 1, Speeds: []float64{mu}, Load: tr.Load(1), AllowOverload: true, Policy: Random{}, Trace: tr,
			Discipline: SRPT, Batches: len(want)}
		r := run(t, cfg)
		resp, wait := r.Units["mean_response"], r.Units["mean_wait"]
		for i, w := range want {
			w /= mu
			if math.Abs(resp[i]-w) > 1e-12*w || math.Abs(wait[i]-(w-tr.Sizes[i]/mu)) > 1e-12*w {
				t.Errorf("speed %g: job %d: response %.15g, wait %.15g; by hand %g, %g", mu, i, resp[i], wait[i], w, w-tr.Sizes[i]/mu)
			}
		}
	}
}

// The same seed gives the same numbers with one worker and with two, and
// with one dispatcher or several under the own view.
func TestSRPTReproducible(t *testing.T) {
	h2, err := NewH2Balanced(1, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Config{
		{Servers: 8, Policy: Random{}},
		{Servers: 8, Policy: JSQ{}},
		{Servers: 8, Policy: LeastLoaded{D: 2}},
		{Servers: 8, Policy: JSQ{D: 2}, Dispatchers: 3, View: OwnView},
	} {
		c.Load, c.Sizes, c.Discipline, c.Jobs, c.Reps, c.Seed = 0.85, h2, SRPT, 50_000, 4, 8
		var out []string
		for _, w := range []int{1, 2} {
			c.Workers = w
			out = append(out, fmt.Sprintf("%#v", numbers(run(t, c))))
		}
		if out[0] != out[1] {
			t.Errorf("%s: one worker\n%s\ntwo\n%s", c, out[0], out[1])
		}
	}
}
