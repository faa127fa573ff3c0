package lbsim

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// run is Run that fails the test on an error.
func run(t *testing.T, c Config) Result {
	t.Helper()
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// agree reports whether two estimates agree: their difference within 1.5
// times the half-width of its 95% interval (about 3 standard errors).
func agree(a, b Estimate) bool { return math.Abs(a.Mean-b.Mean) <= 1.5*math.Hypot(a.CI95, b.CI95) }

// above reports whether a exceeds b beyond their intervals.
func above(a, b Estimate) bool { return a.Mean-b.Mean > math.Hypot(a.CI95, b.CI95) }

// TestLiveStateIndependentOfDispatchers: with live state a policy without
// history sees the same servers whichever dispatcher decides, so M changes
// only the random streams: the mean waits of M = 1, 4, 16 agree (and
// differ, being other streams), and LL-2 with replacement meets the
// finite-K value of Hellemans' simulations at every M.
func TestLiveStateIndependentOfDispatchers(t *testing.T) {
	for _, p := range []Policy{JSQ{D: 2}, LeastLoaded{D: 2}, LeastLoaded{D: 2, Replace: true}} {
		var one Result
		for _, m := range []int{1, 4, 16} {
			r := run(t, Config{Servers: 20, Load: 0.9, Sizes: Exponential{M: 1}, Policy: p, Dispatchers: m,
				Jobs: 300_000, Warmup: 20_000, Reps: 8, Seed: 7})
			t.Logf("%s M=%d: wait %v", Label(p), m, r.Wait)
			if m == 1 {
				one = r
				continue
			}
			if !agree(r.Wait, one.Wait) {
				t.Errorf("%s: M=%d mean wait %v, M=1 %v: more than 1.5 CIs apart", Label(p), m, r.Wait, one.Wait)
			}
			if r.Wait.Mean == one.Wait.Mean {
				t.Errorf("%s: M=%d gives M=1's mean wait %v to the bit: the dispatchers do not draw from their own streams", Label(p), m, r.Wait.Mean)
			}
			// Hellemans' finite-K simulations of LL-2 with replacement (behind Hellemans and Van Houdt,
			// SIGMETRICS 2018; see TestLL2FiniteKHellemans): K=20, rho=0.9, mean response 2.3042.
			if p == (LeastLoaded{D: 2, Replace: true}) && math.Abs(r.Response.Mean-2.3042) > 1.5*r.Response.CI95 {
				t.Errorf("LL-2r M=%d: mean response %v, Hellemans' K=20 value 2.3042", m, r.Response)
			}
		}
	}
}

// TestRoundRobinPointerPerDispatcher: each dispatcher keeps its own
// round-robin pointer, so with M dispatchers a server's arrivals are M
// interleaved Erlang-K streams: less regular than one (E_K/M/1, exact), more
// than Poisson (M/M/1, what RND gives each server).
func TestRoundRobinPointerPerDispatcher(t *testing.T) {
	const k, rho = 20, 0.9
	one, err := theory.RoundRobinExp(rho*k, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	mm1 := rho / (1 - rho)
	c := Config{Servers: k, Load: rho, Sizes: Exponential{M: 1}, Policy: RoundRobin{}, Jobs: 1_000_000, Warmup: 50_000, Reps: 8, Seed: 3}
	r1 := run(t, c)
	c.Dispatchers = 16
	r16 := run(t, c)
	t.Logf("RR K=%d: M=1 %v (E_K/M/1 %.4g), M=16 %v (M/M/1 %.4g)", k, r1.Wait, one.Wait, r16.Wait, mm1)
	if math.Abs(r1.Wait.Mean-one.Wait) > 1.5*r1.Wait.CI95 {
		t.Errorf("RR M=1: mean wait %v, E_K/M/1 %.5g", r1.Wait, one.Wait)
	}
	if !above(r16.Wait, r1.Wait) || r16.Wait.Mean+r16.Wait.CI95 > mm1 {
		t.Errorf("RR M=16: mean wait %v, need above M=1's %v and below M/M/1's %.4g", r16.Wait, r1.Wait, mm1)
	}
	if r16.HasExact || r16.HasLimit {
		t.Errorf("RR M=16: theory %+v given, which is one dispatcher's", r16.Exact)
	}
}

// TestHerdingReturnsWithPrivateTallies: on a stale board (K=100, load 0.9,
// T=10) JSQ without tally herds onto the servers emptiest at the refresh;
// one dispatcher's tally of its own sends removes the herding; with M
// dispatchers each tallies only its own sends, so herding returns as M
// grows: the mean wait rises with M beyond the CIs, toward the untallied
// board's, and M = 1 is the tallied run of old (commit e73d20f gave its
// mean wait 0x400081822d1ef080, 2.06324).
func TestHerdingReturnsWithPrivateTallies(t *testing.T) {
	c := Config{Servers: 100, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{}, Refresh: 10, Tally: true,
		Jobs: 200_000, Warmup: 20_000, Reps: 4, Seed: 24}
	var prev Result
	for _, m := range []int{1, 4, 16} {
		c.Dispatchers = m
		r := run(t, c)
		t.Logf("JSQ tally M=%d: wait %v", m, r.Wait)
		if m == 1 {
			if got := math.Float64bits(r.Wait.Mean); got != 0x400081822d1ef080 {
				t.Errorf("M=1 with tally: mean wait %v (%#x), commit e73d20f gave 2.06324 (0x400081822d1ef080)", r.Wait.Mean, got)
			}
		} else if !above(r.Wait, prev.Wait) {
			t.Errorf("M=%d: mean wait %v, not above the %v of fewer dispatchers: private tallies should herd more", m, r.Wait, prev.Wait)
		}
		prev = r
	}
	// Without tallies every dispatcher reads the same board: as much
	// herding with one as with many, more than with 16 private tallies.
	c.Tally = false
	var none Result
	for _, m := range []int{1, 16} {
		c.Dispatchers = m
		r := run(t, c)
		t.Logf("JSQ no tally M=%d: wait %v", m, r.Wait)
		if !above(r.Wait, prev.Wait) {
			t.Errorf("no tally, M=%d: mean wait %v, not above the %v of 16 private tallies", m, r.Wait, prev.Wait)
		}
		if m > 1 && !agree(r.Wait, none.Wait) {
			t.Errorf("no tally: M=%d mean wait %v, M=1 %v: more than 1.5 CIs apart", m, r.Wait, none.Wait)
		}
		none = r
	}
}

// TestMessagesPerJob: RND and RR send none; JSQ-d and LL-d with live state
// exactly 2d (d probes, d replies) and JSQ(d,m) 2(d+m), at any M; JIQ with
// one dispatcher one idle token per job that finds its server idle, 1 - rho
// for one server (PASTA: an arrival finds the M/M/1 server idle with
// probability 1 - rho). JIQ's I-queues: TestIQueuesOneServer.
func TestMessagesPerJob(t *testing.T) {
	for _, tc := range []struct {
		p    Policy
		want float64
	}{{Random{}, 0}, {RoundRobin{}, 0}, {JSQ{D: 2}, 4}, {JSQ{D: 3}, 6}, {LeastLoaded{D: 2}, 4}, {JSQ{D: 2, Mem: 1}, 6}, {LeastLoaded{}, 20}} {
		for _, m := range []int{1, 4} {
			r := run(t, Config{Servers: 10, Load: 0.7, Sizes: Exponential{M: 1}, Policy: tc.p, Dispatchers: m, Jobs: 20_000, Reps: 2, Seed: 1})
			if r.MessagesPerJob != tc.want || NewRow(r).MessagesPerJob != tc.want {
				t.Errorf("%s, M=%d: %v messages per job (row %v), want %v", Label(tc.p), m, r.MessagesPerJob, NewRow(r).MessagesPerJob, tc.want)
			}
		}
	}
	r := run(t, Config{Servers: 1, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JIQ{}, Jobs: 1_000_000, Warmup: 1000, Seed: 2})
	if math.Abs(r.MessagesPerJob-0.5) > 0.005 {
		t.Errorf("JIQ, K=1, load 0.5: %v idle tokens per job, want 1 - rho = 0.5 within 0.005", r.MessagesPerJob)
	}
}

// TestBoardMessages: on a board every server tells every dispatcher its
// state at each refresh, K M messages per refresh instant, K M / (lambda T)
// a job; the run's refreshes are the refresh instants its measured jobs
// spanned (the first measured job may or may not meet one).
func TestBoardMessages(t *testing.T) {
	for _, stagger := range []bool{false, true} {
		for _, m := range []int{1, 3, 8} {
			if stagger && m == 1 {
				continue
			}
			const k, T, jobs = 50, 4.0, 100_000
			c := Config{Servers: k, Load: 0.8, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}, Refresh: T, Tally: true,
				Dispatchers: m, Stagger: stagger, Jobs: jobs, Warmup: 5000, Seed: 5}
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
			rep, err := runReplication(&c, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Instants T (n + i/M) of each board i in (tStart, tEnd], and one
			// more per board if the first measured job met one.
			lo, hi := 0.0, 0.0
			for i := range m {
				off := 0.0
				if stagger {
					off = T * float64(i) / float64(m)
				}
				n := math.Floor((rep.tEnd-off)/T) - math.Floor((rep.tStart-off)/T)
				lo, hi = lo+n, hi+n+1
			}
			got := rep.messages / k
			if got < lo || got > hi {
				t.Errorf("M=%d stagger=%v: %v refreshes counted, the measured span holds %v to %v", m, stagger, got, lo, hi)
			}
			r := run(t, c)
			want := float64(k*m) / (c.ArrivalRate() * T)
			if math.Abs(r.MessagesPerJob-want) > 0.02*want {
				t.Errorf("M=%d stagger=%v: %v messages per job, want K M / (lambda T) = %.4g within 2%%", m, stagger, r.MessagesPerJob, want)
			}
		}
	}
}

// TestDispatcherWeights: dispatcher i gets a share w_i / sum(w) of the
// arrivals.
func TestDispatcherWeights(t *testing.T) {
	c := Config{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}, Dispatchers: 3, DispatcherWeights: []float64{2, 1, 1}, Jobs: 1000, Seed: 1}
	s := newSim(&c, 0)
	defer s.srv.held.done()
	const n = 400_000
	got := make([]float64, 3)
	for range n {
		s.many.arrive(s, 0, 0)
		for i := range s.many.fronts {
			if s.many.fronts[i].disp == s.disp {
				got[i]++
			}
		}
	}
	for i, want := range []float64{0.5, 0.25, 0.25} {
		// binomial: the standard error is at most 0.5/sqrt(n) < 0.001
		if share := got[i] / n; math.Abs(share-want) > 0.004 {
			t.Errorf("dispatcher %d got %.4f of the arrivals, want %v", i, share, want)
		}
	}
}

// TestDispatchersErrors: every invalid M, weight or stagger is a one-line
// error naming it.
func TestDispatchersErrors(t *testing.T) {
	base := Config{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}, Jobs: 1000}
	for _, tc := range []struct {
		edit func(c *Config)
		want string
	}{
		{func(c *Config) { c.Dispatchers = -1 }, "dispatchers M=-1 is invalid"},
		{func(c *Config) { c.Dispatchers = maxDispatchers + 1 }, "dispatchers M=10001 is invalid"},
		{func(c *Config) { c.Dispatchers, c.DispatcherWeights = 3, []float64{1, 2} }, "2 values given for M=3"},
		{func(c *Config) { c.DispatcherWeights = []float64{1, 2} }, "2 values given for M=1"},
		{func(c *Config) { c.Dispatchers, c.DispatcherWeights = 2, []float64{1, math.NaN()} }, "dispatcher weight w_2=NaN is invalid"},
		{func(c *Config) { c.Dispatchers, c.DispatcherWeights = 2, []float64{-1, 1} }, "dispatcher weight w_1=-1 is invalid"},
		{func(c *Config) { c.Dispatchers, c.DispatcherWeights = 2, []float64{0, 1} }, "dispatcher weight w_1=0 is invalid"},
		{func(c *Config) { c.Dispatchers, c.Stagger = 2, true }, "stagger needs a board"},
		{func(c *Config) { c.Refresh, c.Stagger = 5, true }, "stagger needs a board and several dispatchers"},
		{func(c *Config) { c.Servers, c.Dispatchers, c.Policy = 1_000_000, 100, JSQ{} }, "M=100 dispatchers with 45.8 MiB of their own each (JSQ's state of the servers)"},
	} {
		c := base
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("got %v, want one line with %q", err, tc.want)
		}
	}
	c := base
	c.Dispatchers, c.Policy = 8, Random{} // RND with M dispatchers is still RND
	if err := c.Validate(); err != nil {
		t.Errorf("RND with 8 dispatchers: %v", err)
	}
	c.Servers, c.Dispatchers, c.Policy = 1_000_000, 100, JSQ{D: 2} // samples two: no state of its own
	if err := c.Validate(); err != nil {
		t.Errorf("JSQ-2 with 100 dispatchers: %v", err)
	}
}

// byDispatcher sends dispatcher i's jobs to server i (a policy of one's
// own reading View.Dispatcher).
type byDispatcher struct{}

func (byDispatcher) String() string              { return "by-dispatcher" }
func (byDispatcher) Pick(v *View, _ float64) int { return v.Dispatcher() % v.K() }
func (byDispatcher) Describe(c Config) Description {
	return Description{Reads: NoState, WorkShares: c.dispatcherShares()}
}

// TestViewDispatcher: a policy sees which dispatcher decides, and each
// dispatcher gets its weight's share of the arrivals: dispatcher 0, weight
// 3 of 4, sends 3/4 of the work to server 0.
func TestViewDispatcher(t *testing.T) {
	r := run(t, Config{Servers: 2, Load: 0.4, Sizes: Exponential{M: 1}, Policy: byDispatcher{}, Dispatchers: 2,
		DispatcherWeights: []float64{3, 1}, Jobs: 200_000, Seed: 4})
	u := r.ServerUtilization
	if share := u[0] / (u[0] + u[1]); math.Abs(share-0.75) > 0.01 {
		t.Errorf("server 0 got %.4f of the work (utilisations %v), want dispatcher 0's share 0.75", share, u)
	}
}

// rrFleetWait is the exact mean wait of round robin with M dispatchers on K
// servers of speed 1, exponential sizes of mean 1, load rho: each
// dispatcher gets Poisson arrivals of rate lambda/M and sends every K-th of
// its jobs to a server, so a server's arrivals are M independent Erlang-K
// streams (of uniform phase: the pointers start apart), and its queue is a
// MAP/M/1 queue. The chain: n jobs at the server, and how many dispatchers
// are c = 0..K-1 jobs away from their next job to it (a dispatcher at c = 0
// sends its next job here and goes to K-1; at c > 0 it goes to c-1). Under
// FCFS with exponential sizes a job waits the n jobs it finds (W = E[n at
// an arrival]/1), and an arrival comes at rate m_0 lambda/M.
func rrFleetWait(t testing.TB, k, m int, rho float64) float64 {
	t.Helper()
	type state struct {
		n  int
		at [8]uint8 // dispatchers c jobs away
	}
	if k > 8 {
		t.Fatalf("rrFleetWait: K=%d > 8", k)
	}
	rate := rho * float64(k) / float64(m) // lambda/M
	var start state
	// Any start of the (irreducible) chain: all dispatchers at c = 0.
	start.at[0] = uint8(m)
	arrivals := func(s state) float64 { return float64(s.at[0]) * rate }
	st, err := theory.Chain[state]{
		Start: start,
		Next: func(s state, emit func(state, float64)) {
			if s.n > 0 {
				to := s
				to.n--
				emit(to, 1)
			}
			for c := range k {
				if s.at[c] == 0 {
					continue
				}
				to := s
				to.at[c]--
				if c == 0 {
					to.n++
					to.at[k-1]++
				} else {
					to.at[c-1]++
				}
				emit(to, float64(s.at[c])*rate)
			}
		},
		Keep:  func(s state) bool { return s.n <= 600 },
		Level: func(s state) int { return s.n },
		Tol:   1e-14,
	}.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if st.BoundaryMass > 1e-12 {
		t.Fatalf("rrFleetWait K=%d M=%d rho=%g: truncation mass %g", k, m, rho, st.BoundaryMass)
	}
	at := st.Mean(arrivals)
	return st.Mean(func(s state) float64 { return float64(s.n) * arrivals(s) }) / at
}

// TestRoundRobinFleet: with M dispatchers each with its own pointer, a
// server's queue is the MAP/M/1 queue of rrFleetWait, which the runs meet;
// and the pointers start apart, so a short run of K = M = 100 is not the
// burst of M dispatchers started in step (whose mean wait, 12.6 at 2e5
// jobs, was above even M/M/1's: every server got its M jobs at once).
func TestRoundRobinFleet(t *testing.T) {
	for _, tc := range []struct {
		k, m int
		rho  float64
	}{{3, 8, 0.9}, {2, 5, 0.8}, {4, 3, 0.9}} {
		exact := rrFleetWait(t, tc.k, tc.m, tc.rho)
		r := run(t, Config{Servers: tc.k, Dispatchers: tc.m, Load: tc.rho, Sizes: Exponential{M: 1}, Policy: RoundRobin{},
			Jobs: 1_000_000, Warmup: 20_000, Reps: 8, Seed: 5})
		t.Logf("RR K=%d M=%d rho=%g: wait %v, MAP/M/1 chain %.6g", tc.k, tc.m, tc.rho, r.Wait, exact)
		if math.Abs(r.Wait.Mean-exact) > 1.5*r.Wait.CI95 {
			t.Errorf("RR K=%d M=%d rho=%g: mean wait %v, exact (MAP/M/1 chain) %.6g", tc.k, tc.m, tc.rho, r.Wait, exact)
		}
	}
	const rho = 0.9
	mm1 := rho / (1 - rho)
	for _, p := range []Policy{RoundRobin{}, WeightedRoundRobin{Weights: Weights{Speed: true}}} {
		r := run(t, Config{Servers: 100, Dispatchers: 100, Load: rho, Sizes: Exponential{M: 1}, Policy: p, Jobs: 200_000, Reps: 2, Seed: 8})
		t.Logf("%s K=M=100 short run: wait %v (M/M/1 %.4g)", p, r.Wait, mm1)
		if r.Wait.Mean-r.Wait.CI95 > mm1 {
			t.Errorf("%s K=M=100, 2e5 jobs: mean wait %v, above M/M/1's %.4g: the dispatchers started in step", p, r.Wait, mm1)
		}
	}
}

// An option that acts between dispatchers is refused with one, where it
// would change nothing (severalOnly), saying why and the fix: jiq:d=3 ran
// plain JIQ labelled JIQ-SQ(3). With several dispatchers it stands.
func TestOptionsWithoutEffectRefused(t *testing.T) {
	base := Config{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JIQ{}, Jobs: 1000}
	for _, tc := range []struct {
		edit func(c *Config)
		want []string
	}{
		{func(c *Config) { c.Policy = JIQ{D: 3} }, []string{"jiq:d=3 has no effect with one dispatcher (M=1)", "I-queues", "plain jiq", "-dispatchers 3"}},
		{func(c *Config) { c.Policy = JIQ{Withdraw: true} }, []string{"jiq:withdraw=1 has no effect with one dispatcher", "-dispatchers 2"}},
		{func(c *Config) { c.Policy, c.Dispatchers = JIQ{D: 2, Withdraw: true}, 1 }, []string{"jiq:d=2,withdraw=1 has no effect"}},
		{func(c *Config) { c.DispatcherWeights = []float64{3} }, []string{"dispatcher weight 3 has no effect with one dispatcher", "leave -dispatcher-weights out"}},
	} {
		c := base
		tc.edit(&c)
		err := c.Validate()
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want %q", c, err, w)
			}
		}
		c.Dispatchers = 3
		if len(c.DispatcherWeights) > 0 {
			c.DispatcherWeights = []float64{3, 1, 1}
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s with M=3: %v", c, err)
		}
	}
}
