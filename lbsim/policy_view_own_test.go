package lbsim

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// With one dispatcher the own view is the servers' true counts: the run is
// live JSQ's, number for number (the sampled policies through their own
// counts and radix heap, not the servers' departure queues), and only the
// messages differ (none: the dispatcher counts its own jobs).
func TestOwnViewOneDispatcherIsLive(t *testing.T) {
	for _, c := range []Config{
		{Servers: 5, Load: 0.85, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}, Jobs: 100_000, Reps: 2, Seed: 3},
		{Servers: 5, Load: 0.85, Sizes: Exponential{M: 1}, Policy: JSQ{}, Jobs: 100_000, Seed: 4},
		{Servers: 6, Speeds: []float64{2, 2, 1, 1, 1, 1}, Load: 0.8, Sizes: TwoPoint{Xm: 1, XM: 20, P: 0.1}, Policy: SED{}, Jobs: 100_000, Seed: 5},
		{Servers: 6, Speeds: []float64{2, 2, 1, 1, 1, 1}, Load: 0.8, Sizes: Exponential{M: 1}, Policy: SED{D: 3}, Jobs: 100_000, Warmup: 1000, Seed: 6},
		{Servers: 8, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{D: 3, Mem: 1}, Jobs: 100_000, Seed: 7},
	} {
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
		if !reflect.DeepEqual(numbers(live), numbers(own)) {
			t.Errorf("%s: own view\n%v\nlive\n%v", c, numbers(own), numbers(live))
		}
	}
}

// numbers are a result's measured numbers.
func numbers(r Result) []any {
	return []any{r.Wait, r.Response, r.RepWait, r.RepResponse, r.P50Wait, r.P95Wait, r.P99Wait, r.Handout,
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
		{func(c *Config) { c.Policy, c.Discipline = JSQ{}, PS }, []string{"view own", "ps", "-discipline fcfs"}},
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
