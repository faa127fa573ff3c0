package lbsim

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// With one dispatcher the own view is the servers' true counts, under FCFS,
// PS and SRPT: the run is live JSQ's, number for number (the sampled policies
// through their own counts, not the servers' departure queues), and only
// the messages differ (none: the dispatcher counts its own jobs).
func TestOwnViewOneDispatcherIsLive(t *testing.T) {
	for _, c := range []Config{
		{Servers: 5, Load: 0.85, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}, Jobs: 100_000, Reps: 2, Seed: 3},
		{Servers: 5, Load: 0.85, Sizes: Exponential{M: 1}, Policy: JSQ{}, Jobs: 100_000, Seed: 4},
		{Servers: 6, Speeds: []float64{2, 2, 1, 1, 1, 1}, Load: 0.8, Sizes: TwoPoint{Xm: 1, XM: 20, P: 0.1}, Policy: SED{}, Jobs: 100_000, Seed: 5},
		{Servers: 6, Speeds: []float64{2, 2, 1, 1, 1, 1}, Load: 0.8, Sizes: Exponential{M: 1}, Policy: SED{D: 3}, Jobs: 100_000, Warmup: 1000, Seed: 6},
		{Servers: 8, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{D: 3, Mem: 1}, Jobs: 100_000, Seed: 7},
		{Servers: 5, Load: 0.85, Sizes: NewTwoPointBeta(1, 100, 0.8), Policy: JSQ{}, Jobs: 100_000, Warmup: 1000, Seed: 4},
	} {
		for _, d := range []Discipline{FCFS, PS, SRPT} {
			c.Discipline, c.View = d, LiveView
			live, err := Run(c)
			if err != nil {
				t.Fatal(err)
			}
			c.View = OwnView
			own, err := Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if own.MessagesPerJob != 0 {
				t.Errorf("%s: %v messages a job, want 0", c, own.MessagesPerJob)
			}
			if !sameNumbers(live, own) {
				t.Errorf("%s: own view\n%v\nlive\n%v", c, numbers(own), numbers(live))
			}
		}
	}
}

// sameNumbers says whether two results measured the same numbers, bit for
// bit: %#v writes every float exactly, and NaN (a quantile without an
// interval) equal to itself, which reflect.DeepEqual does not.
func sameNumbers(a, b Result) bool {
	return fmt.Sprintf("%#v", numbers(a)) == fmt.Sprintf("%#v", numbers(b))
}

// numbers are a result's measured numbers.
func numbers(r Result) []any {
	return []any{r.Wait, r.Response, r.Units, r.WaitQuantiles, r.ResponseQuantiles, r.Handout,
		r.LoadOnCapacity, r.ServerUtilization, r.TotalJobs, r.Classes}
}

// ownViewSim is the test's own simulation of M dispatchers that count their
// own jobs: K FCFS servers of speeds mu, exponential sizes of mean 1,
// Poisson arrivals at the load, each routed to a dispatcher uniformly; the
// dispatcher sends the job to the server of least (own count + 1)/mu_k
// among d distinct servers sampled (d = 0: all K), ties to the faster, then
// uniformly. A job in the system is a record of its departure, dispatcher
// and server, dropped at the first arrival after it. It returns the mean
// wait and its 95% half-width from 20 batch means, after a warm-up of a
// tenth of the jobs.
func ownViewSim(k, m, d int, mu []float64, load float64, jobs int, seed uint64) (mean, ci float64) {
	r := rand.New(rand.NewPCG(seed, 99))
	sum := 0.0
	for _, x := range mu {
		sum += x
	}
	lambda := load * sum
	type job struct {
		dep       float64
		disp, srv int
	}
	var inSystem []job
	own := make([][]int, m)
	for i := range own {
		own[i] = make([]int, k)
	}
	free := make([]float64, k)
	perm := make([]int, k)
	for i := range perm {
		perm[i] = i
	}
	const batches = 20
	warm := jobs / 10
	per := (jobs - warm) / batches
	var means [batches]float64
	t := 0.0
	for n := range warm + per*batches {
		t += r.ExpFloat64() / lambda
		for j := 0; j < len(inSystem); {
			if inSystem[j].dep <= t {
				own[inSystem[j].disp][inSystem[j].srv]--
				inSystem[j] = inSystem[len(inSystem)-1]
				inSystem = inSystem[:len(inSystem)-1]
				continue
			}
			j++
		}
		i := r.IntN(m)
		cands := perm
		if d > 0 {
			for j := range d {
				l := j + r.IntN(k-j)
				perm[j], perm[l] = perm[l], perm[j]
			}
			cands = perm[:d]
		}
		best, ties := -1, 0
		for _, c := range cands {
			if best < 0 {
				best, ties = c, 1
				continue
			}
			x, y := float64(own[i][c]+1)/mu[c], float64(own[i][best]+1)/mu[best]
			switch {
			case x < y || x == y && mu[c] > mu[best]:
				best, ties = c, 1
			case x == y && mu[c] == mu[best]:
				if ties++; r.IntN(ties) == 0 {
					best = c
				}
			}
		}
		service := r.ExpFloat64() / mu[best]
		start := max(free[best], t)
		free[best] = start + service
		own[i][best]++
		inSystem = append(inSystem, job{free[best], i, best})
		if n >= warm {
			means[(n-warm)/per] += (start - t) / float64(per)
		}
	}
	var s, s2 float64
	for _, x := range means {
		s += x
		s2 += x * x
	}
	mean = s / batches
	sd := math.Sqrt((s2 - batches*mean*mean) / (batches - 1))
	return mean, 2.093 * sd / math.Sqrt(batches) // t_{19, 0.975}
}

// With several dispatchers each sees only its own jobs: lbsim's mean wait
// agrees with the test's own simulation (within the two intervals), and
// lies clearly above live JSQ's, which sees every job.
func TestOwnViewAgainstOwnSimulation(t *testing.T) {
	t.Parallel() // no process-wide state; one replication a run and its own simulation: one core each
	for _, tc := range []struct {
		k, m, d int
		mu      []float64
		load    float64
	}{
		{k: 3, m: 2, mu: []float64{1, 1, 1}, load: 0.8},
		{k: 4, m: 3, d: 2, mu: []float64{1, 1, 1, 1}, load: 0.85},
		{k: 3, m: 2, mu: []float64{2, 1, 1}, load: 0.8}, // SED
	} {
		var p Policy = JSQ{D: tc.d}
		if tc.mu[0] != 1 {
			p = SED{D: tc.d}
		}
		c := Config{Servers: tc.k, Speeds: tc.mu, Load: tc.load, Sizes: Exponential{M: 1}, Policy: p, Dispatchers: tc.m,
			View: OwnView, Jobs: 2_000_000, Warmup: 200_000, Seed: 11}
		own, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		ref, refCI := ownViewSim(tc.k, tc.m, tc.d, tc.mu, tc.load, 2_200_000, 12)
		c.View = LiveView
		live, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: own %v, test's simulation %.4f ± %.4f, live %v", c, own.Wait, ref, refCI, live.Wait)
		if math.Abs(own.Wait.Mean-ref) > own.Wait.CI95+refCI {
			t.Errorf("%s, own view: mean wait %v, the test's simulation %.4f ± %.4f", c, own.Wait, ref, refCI)
		}
		if live.Wait.Mean+live.Wait.CI95 >= own.Wait.Mean-own.Wait.CI95 {
			t.Errorf("%s: live %v and own view %v are not apart: the reference cannot tell them", c, live.Wait, own.Wait)
		}
	}
}

// As M grows each dispatcher sees a smaller share of the jobs: JSQ on its
// own counts lies between live JSQ and random routing, and gets worse
// with M (K = 20, load 0.9, exponential sizes; random is M/M/1 at 0.9, a
// mean wait of 9).
func TestOwnViewBetweenLiveAndRandom(t *testing.T) {
	base := Config{Servers: 20, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{}, Jobs: 1_000_000, Warmup: 100_000, Seed: 21}
	live, err := Run(base)
	if err != nil {
		t.Fatal(err)
	}
	rnd := base
	rnd.Policy = Random{}
	random, err := Run(rnd)
	if err != nil {
		t.Fatal(err)
	}
	prev := live.Wait
	t.Logf("live JSQ %v", live.Wait)
	for _, m := range []int{1, 4, 16, 64} {
		c := base
		c.Dispatchers, c.View = m, OwnView
		own, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("own view, M=%d: %v", m, own.Wait)
		if own.Wait.Mean+own.Wait.CI95 < prev.Mean-prev.CI95 {
			t.Errorf("M=%d: own view's mean wait %v below the last (live JSQ, or fewer dispatchers) %v", m, own.Wait, prev)
		}
		if own.Wait.Mean-own.Wait.CI95 > random.Wait.Mean+random.Wait.CI95 {
			t.Errorf("M=%d: own view's mean wait %v above random's %v", m, own.Wait, random.Wait)
		}
		prev = own.Wait
	}
	t.Logf("random %v", random.Wait)
	if math.Abs(random.Wait.Mean-9) > random.Wait.CI95 {
		t.Errorf("random: mean wait %v, M/M/1 at 0.9 has 9", random.Wait)
	}
}

// The own view is refused where it means nothing, naming the value, what
// is allowed and a fix.
func TestOwnViewRefused(t *testing.T) {
	base := Config{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Jobs: 100, View: OwnView, Dispatchers: 2}
	for _, tc := range []struct {
		edit func(c *Config)
		want []string
	}{
		{func(c *Config) { c.Policy = Random{} }, []string{"view own", "rnd", "reads no server state", "jsq:d=D", "-view live"}},
		{func(c *Config) { c.Policy = RoundRobin{} }, []string{"view own", "reads no server state", "sed:d=D"}},
		{func(c *Config) { c.Policy, c.Refresh = JSQ{D: 2}, 5 }, []string{"view own", "refresh T=5", "-refresh 0"}},
		{func(c *Config) { c.Policy = LeastLoaded{D: 2} }, []string{"view own", "ll:d=2", "workload", "jsq"}},
		{func(c *Config) { c.Policy = LSQ{} }, []string{"view own", "lsq", "-view live"}},
		{func(c *Config) { c.Policy, c.View = JSQ{}, 7 }, []string{"view 7", "OwnView"}},
	} {
		c := base
		tc.edit(&c)
		err := c.Validate()
		if err == nil {
			t.Errorf("%s: valid, want an error", c)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c, err, w)
			}
		}
	}
	if _, err := parseView("mine"); err == nil || !strings.Contains(err.Error(), `"mine"`) || !strings.Contains(err.Error(), "own") {
		t.Errorf("parseView(mine): %v", err)
	}
}

// The own view with several dispatchers is not one dispatcher's system:
// no exact value from JSQ's chain, and no messages.
func TestOwnViewNoTheory(t *testing.T) {
	c := Config{Servers: 3, Load: 0.7, Sizes: Exponential{M: 1}, Policy: JSQ{}, Jobs: 1000, Dispatchers: 2}
	if _, ok := Exact(c); !ok {
		t.Fatalf("%s: live JSQ at K=3 has no exact value; the test needs one", c)
	}
	c.View = OwnView
	if ref, ok := Theory(c); ok {
		t.Errorf("%s: theory %+v, want none", c, ref)
	}
	c.Dispatchers = 1
	if _, ok := Exact(c); !ok {
		t.Errorf("%s: one dispatcher's own view is live JSQ, whose chain is exact", c)
	}
}

// ownViewChain is the exact mean wait of two dispatchers that count their
// own jobs at two FCFS servers of speed 1 (JSQ on own counts, ties
// uniformly), with exponential sizes of mean 1 and Poisson arrivals of
// rate 2 rho split evenly, from the Markov chain on the two queues' orders
// of owners (FCFS serves the oldest, so the owner of the next departure is
// the order's, not a count's), each queue truncated at L jobs (an arrival
// to a full queue is lost). A queue is a code: a leading 1 at bit n above
// the owners of its n jobs, the oldest at bit n-1. The chain is solved by
// power iteration of its uniformization, until the mean wait, E[jobs
// waiting] over the accepted arrival rate (Little), moves by less than
// 1e-10 in a step (looked at every 20).
func ownViewChain(rho float64, l int) float64 {
	codes := 1 << (l + 1) // codes 1 .. 2^(L+1)-1
	lambda := 2 * rho
	unif := lambda + 2 // arrivals, and a departure at each server
	length, owned := make([]int, codes), make([][2]int, codes)
	for c := 1; c < codes; c++ {
		n := bits.Len(uint(c)) - 1
		ones := bits.OnesCount(uint(c &^ (1 << n)))
		length[c], owned[c] = n, [2]int{n - ones, ones}
	}
	pi, next := make([]float64, codes*codes), make([]float64, codes*codes)
	pi[1*codes+1] = 1 // both queues empty
	wait, last := 0.0, math.Inf(1)
	for step := 1; math.Abs(wait-last) > 1e-10 || step%20 != 1; step++ {
		clear(next)
		var accepted, waiting float64
		for s, p := range pi {
			if p == 0 {
				continue
			}
			c := [2]int{s / codes, s % codes}
			stay := p
			for k := range 2 {
				if n := length[c[k]]; n > 0 { // the oldest departs
					d := c
					d[k] = c[k]&(1<<(n-1)-1) | 1<<(n-1)
					next[d[0]*codes+d[1]] += p / unif
					stay -= p / unif
					waiting += p * float64(n-1)
				}
			}
			for i := range 2 { // an arrival at dispatcher i
				a, b := owned[c[0]][i], owned[c[1]][i]
				for k := range 2 {
					share := 0.5
					if a != b {
						share = 0
						if (a < b) == (k == 0) {
							share = 1
						}
					}
					if share == 0 || length[c[k]] == l {
						continue
					}
					d := c
					d[k] = c[k]<<1 | i
					q := p * lambda / 2 * share / unif
					next[d[0]*codes+d[1]] += q
					stay -= q
					accepted += q * unif
				}
			}
			next[s] += stay
		}
		pi, next = next, pi
		if step%20 == 0 {
			last = wait
		}
		wait = waiting / accepted
	}
	return wait
}

// Two dispatchers at two servers: lbsim's mean wait against the exact
// chain on the queues' orders of owners, which lies clearly above live
// JSQ's exact value.
func TestOwnViewExactChain(t *testing.T) {
	t.Parallel() // no process-wide state; one replication and its chain: one core
	const rho = 0.45
	exact, coarser := ownViewChain(rho, 8), ownViewChain(rho, 7)
	c := Config{Servers: 2, Load: rho, Sizes: Exponential{M: 1}, Policy: JSQ{}, Jobs: 4_000_000, Warmup: 10_000, Seed: 31}
	live, ok := Exact(c)
	if !ok {
		t.Fatalf("%s: no exact value of live JSQ", c)
	}
	c.Dispatchers, c.View = 2, OwnView
	own, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("K=2, M=2, load %v: own view %v, chain %.5f (truncated at 8 jobs a queue; at 7: %.5f), live JSQ exact %.5f", rho, own.Wait, exact, coarser, live.Wait)
	if d := math.Abs(exact - coarser); d > own.Wait.CI95/10 {
		t.Errorf("the chain's truncation moves its mean wait by %.2g, over a tenth of the interval %.2g", d, own.Wait.CI95)
	}
	if math.Abs(own.Wait.Mean-exact) > own.Wait.CI95 {
		t.Errorf("own view's mean wait %v, the exact chain's %.5f", own.Wait, exact)
	}
	if exact-live.Wait < 5*own.Wait.CI95 {
		t.Errorf("the own view's exact mean wait %.5f is not clearly above live JSQ's %.5f", exact, live.Wait)
	}
}
