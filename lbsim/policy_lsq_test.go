package lbsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// lsqProbe wraps one dispatcher's LSQ: before each pick it delivers the
// messages due (as the pick would) and shows look the dispatcher's
// estimates at t; after the pick, at shows those the pick chose by (after
// its probes, before its send's +1).
type lsqProbe struct {
	d    *lsqDispatcher
	i    int // the dispatcher's index
	look func(i int, est, at []int32, t float64, k int)
}

func (p *lsqProbe) pick(t, x float64) int {
	p.d.sh.deliver(t)
	est := estimates(p.d.est)
	k := p.d.pick(t, x)
	at := estimates(p.d.est)
	at[k]--
	p.look(p.i, est, at, t, k)
	return k
}

// estimates are a dispatcher's estimates, rebased back.
func estimates(e *lsqEstimates) []int32 {
	out := e.counts(nil)
	for i := range out {
		out[i] += int32(e.base)
	}
	return out
}

// runProbed runs replication 0 of cfg (an LSQ) with every dispatcher
// probed by look.
func runProbed(t *testing.T, cfg Config, look func(s *sim, i int, est, at []int32, t float64, k int)) {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	s := newSim(&cfg, 0)
	defer s.srv.held.done()
	probe := func(d dispatcher, i int) dispatcher {
		return &lsqProbe{d: d.(*lsqDispatcher), i: i, look: func(i int, est, at []int32, t float64, k int) { look(s, i, est, at, t, k) }}
	}
	if s.many == nil {
		s.disp = probe(s.disp, 0)
	} else {
		for i := range s.many.fronts {
			s.many.fronts[i].disp = probe(s.many.fronts[i].disp, i)
		}
		s.many.enter(s, 0)
	}
	s.run()
}

// TestLSQEstimatesExactWithEveryReport: with one dispatcher and p = 1
// every departure reports to it, so at every pick its estimates are the
// servers' true counts, read here from the servers' own queues (the
// departure FIFOs kept for sampling under FCFS, the PS and SRPT queues).
func TestLSQEstimatesExactWithEveryReport(t *testing.T) {
	for _, disc := range []Discipline{FCFS, PS, SRPT} {
		cfg := Config{Servers: 5, Load: 0.9, Sizes: Exponential{M: 1}, Policy: LSQ{P: 1}, Discipline: disc,
			Jobs: 50_000, Seed: 3, SampleEvery: 1e12} // sampled at 0 only: the servers keep their counts
		picks, wrong := 0, 0
		runProbed(t, cfg, func(s *sim, _ int, est, _ []int32, at float64, _ int) {
			picks++
			for k, e := range est {
				if n := s.srv.count(k, at, s.m); n != e && wrong < 5 {
					wrong++
					t.Errorf("%s: at t=%.6g server %d has %d jobs, the estimate says %d", disc, at, k, n, e)
				}
			}
		})
		if picks < 50_000 || disc == FCFS && picks != 50_000 { // PS and SRPT: the tail's too (sim.hasTail)
			t.Errorf("%s: %d picks probed, want 50000 and a preemptive run's tail", disc, picks)
		}
	}
}

// TestLSQWithoutReportsDealsRounds: with p = 0 no server ever reports, so
// a dispatcher's estimates are its own sends: at every pick they differ by
// at most 1 and each dispatcher deals rounds of K, one job to every
// server. The order within a round is random (not round robin): the gap
// between two sends to a server varies, within 1..2K-1 of the
// dispatcher's sends; they stay bounded (lsqRebase). (No exact mean wait
// is known: M interleaved random-order rounds.)
func TestLSQWithoutReportsDealsRounds(t *testing.T) {
	const k = 6
	for _, m := range []int{1, 3} {
		cfg := Config{Servers: k, Load: 0.8, Sizes: Exponential{M: 1}, Policy: LSQ{P: 0}, Dispatchers: m, Jobs: 30_000, Seed: 4}
		sends := make([]int, m)    // per dispatcher
		last := make([]int, m)     // its send number of its last job to server 0
		gaps := map[int]int{}      // gap (in the dispatcher's sends) between two of its jobs to server 0
		var spread, outOfRange int // violations
		var highest int32
		runProbed(t, cfg, func(s *sim, i int, est, _ []int32, _ float64, to int) {
			if slices.Max(est)-slices.Min(est) > 1 {
				spread++
			}
			highest = max(highest, slices.Max(s.shared.(*lsqShared).est[i].counts(nil))) // the buckets' counts, rebased
			sends[i]++
			if to == 0 {
				if last[i] > 0 {
					g := sends[i] - last[i]
					gaps[g]++
					if g < 1 || g > 2*k-1 {
						outOfRange++
					}
				}
				last[i] = sends[i]
			}
		})
		if spread > 0 || outOfRange > 0 {
			t.Errorf("M=%d: estimates more than 1 apart at %d picks; %d gaps outside 1..%d", m, spread, outOfRange, 2*k-1)
		}
		// 30000/(M K) > lsqRebase rounds: the estimates were lowered on the way.
		if highest > lsqRebase {
			t.Errorf("M=%d: an estimate reached %d: the estimates of p = 0 grow with the run (lsqRebase %d)", m, highest, lsqRebase)
		}
		if len(gaps) < k { // random order in each round: gaps 1..2K-1 all occur
			t.Errorf("M=%d: gaps between sends to server 0 %v: want several values (random order within rounds)", m, gaps)
		}
		t.Logf("M=%d: gaps between a dispatcher's sends to server 0: %v", m, gaps)
	}
}

// TestLSQOneDispatcherIsJSQ: with one dispatcher and p = 1 the estimates
// are exact (above), so LSQ is JSQ: its mean response meets the exact
// Markov chain of JSQ (theory.DispatchExact) at small K, FCFS and PS, and
// the run reports that value as its exact reference.
func TestLSQOneDispatcherIsJSQ(t *testing.T) {
	for _, c := range []struct {
		k    int
		rho  float64
		disc Discipline
	}{{3, 0.5, FCFS}, {3, 0.9, FCFS}, {3, 0.9, PS}, {4, 0.8, PS}, {5, 0.5, FCFS}} {
		cfg := Config{Servers: c.k, Load: c.rho, Sizes: Exponential{M: 1}, Policy: LSQ{P: 1}, Discipline: c.disc,
			Jobs: 500_000, Warmup: 10_000, Reps: 8, Seed: 11}
		isJSQ(t, cfg, fmt.Sprintf("LSQ p=1 K=%d rho=%v %s", c.k, c.rho, c.disc))
	}
	// No theory otherwise: p < 1, or several dispatchers.
	for _, c := range []Config{
		{Servers: 3, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LSQ{P: 0.5}},
		{Servers: 3, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LSQ{P: 1}, Dispatchers: 2},
	} {
		if ref, ok := Theory(c); ok {
			t.Errorf("%s, M=%d: theory %+v, want none", c.Policy, c.dispatchers(), ref)
		}
	}
}

// TestLSQMessagesPerJob: every job departs once and reports with
// probability p, so messages per job is p, within its binomial interval
// (3 standard errors of N measured jobs) and the few jobs still in the
// system at the end (slack 100/N).
func TestLSQMessagesPerJob(t *testing.T) {
	const n = 200_000
	for _, p := range []float64{0, 0.1, 0.5, 1} {
		for _, m := range []int{1, 4} {
			r := run(t, Config{Servers: 10, Load: 0.7, Sizes: Exponential{M: 1}, Policy: LSQ{P: p}, Dispatchers: m,
				Jobs: n, Warmup: 10_000, Seed: 6})
			tol := 3*math.Sqrt(p*(1-p)/n) + 100.0/n
			if math.Abs(r.MessagesPerJob-p) > tol || NewRow(r).MessagesPerJob != r.MessagesPerJob {
				t.Errorf("p=%v M=%d: %v messages per job (row %v), want p within %.3g", p, m, r.MessagesPerJob, NewRow(r).MessagesPerJob, tol)
			}
		}
	}
}

// TestLSQWaitGrowsWithDispatchers: with p = 1 and M dispatchers each
// hears 1/M of the departures and its estimates are off by the others'
// sends: at load 0.9 the mean wait rises with M beyond the CIs.
func TestLSQWaitGrowsWithDispatchers(t *testing.T) {
	var prev Result
	for _, m := range []int{1, 2, 4, 16} {
		r := run(t, Config{Servers: 20, Load: 0.9, Sizes: Exponential{M: 1}, Policy: LSQ{P: 1}, Dispatchers: m,
			Jobs: 200_000, Warmup: 20_000, Reps: 4, Seed: 5})
		t.Logf("LSQ p=1 K=20 M=%d: wait %v", m, r.Wait)
		if m > 1 && !above(r.Wait, prev.Wait) {
			t.Errorf("M=%d: mean wait %v, not above the %v of fewer dispatchers", m, r.Wait, prev.Wait)
		}
		prev = r
	}
}

// TestLSQSpecsAndErrors: specs, labels, bad p, a board, and Pick through
// a View each say what is wrong; the same seed gives the same numbers.
func TestLSQSpecsAndErrors(t *testing.T) {
	for _, c := range []struct {
		spec, back, label string
		want              LSQ
	}{{"lsq", "lsq", "LSQ p=1", LSQ{P: 1}}, {"lsq:p=0.1", "lsq:p=0.1", "LSQ p=0.1", LSQ{P: 0.1}}, {"LSQ:p=0", "lsq:p=0", "LSQ p=0", LSQ{}},
		{"lsq:d=1", "lsq:d=1", "LSQ d=1", LSQ{D: 1}}, {"lsq:d=1,p=0", "lsq:d=1", "LSQ d=1", LSQ{D: 1}},
		{"lsq:d=2,p=0.1", "lsq:d=2,p=0.1", "LSQ d=2 p=0.1", LSQ{D: 2, P: 0.1}}, {"lsq:p=1,d=3", "lsq:d=3,p=1", "LSQ d=3 p=1", LSQ{D: 3, P: 1}}} {
		p, err := ParsePolicy(c.spec)
		if err != nil || p != c.want || p.String() != c.back || Label(p) != c.label {
			t.Errorf("%q: %#v (%v), prints %q, label %q; want %#v, %q, %q", c.spec, p, err, p, Label(p), c.want, c.back, c.label)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"lsq:p=1.5", "need 0 <= p <= 1"}, {"lsq:p=-0.1", "need 0 <= p <= 1"},
		{"lsq:d=0", "lsq: d=0 is invalid: need a whole number >= 1"}, {"lsq:d=1.5", "d=1.5 is invalid: need a whole number"},
	} {
		if _, err := ParsePolicy(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.spec, err, c.want)
		}
	}
	base := Config{Servers: 10, Load: 0.8, Sizes: Exponential{M: 1}, Jobs: 1000}
	for _, c := range []struct {
		p       LSQ
		refresh float64
		want    string
	}{
		{LSQ{P: math.NaN()}, 0, "p=NaN is invalid: need 0 <= p <= 1"},
		{LSQ{P: 2}, 0, "p=2 is invalid"},
		{LSQ{P: 0.1}, 10, "refresh T=10 is invalid for lsq:p=0.1"},
		{LSQ{P: 1}, 5, "for updates every T use jsq with -refresh T -tally"},
		{LSQ{D: 11}, 0, "lsq d=11 is invalid: need 1 <= d <= K = 10 (distinct servers probed per job), or 0 for none; lower d"},
		{LSQ{D: -1}, 0, "lsq d=-1 is invalid: need 1 <= d <= K = 10"},
	} {
		cfg := base
		cfg.Policy, cfg.Refresh = c.p, c.refresh
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, T=%v: error %v, want one saying %q", c.p, c.refresh, err, c.want)
		}
	}
	// p = 0 deals K jobs a round whatever the speeds: slow servers overload.
	slow := Config{Servers: 10, Speeds: []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, Load: 0.8, Sizes: Exponential{M: 1}, Policy: LSQ{}, Jobs: 1000}
	if err := slow.Validate(); err == nil || !strings.Contains(err.Error(), "have load 1.2 under lsq:p=0") {
		t.Errorf("lsq:p=0 on unequal speeds at load 0.8: error %v, want the slow servers' load 1.2", err)
	}
	cfg := base
	cfg.Policy = viaView{LSQ{P: 1}}
	if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "a View does not hold") {
		t.Errorf("LSQ through a View: error %v, want one saying its estimates are not in a View", err)
	}
	for _, m := range []int{1, 4} {
		cfg := Config{Servers: 10, Load: 0.8, Sizes: Exponential{M: 1}, Policy: LSQ{P: 0.3}, Dispatchers: m, Jobs: 20_000, Reps: 2, Seed: 9}
		a, b := run(t, cfg), run(t, cfg)
		if a.Wait != b.Wait || a.MessagesPerJob != b.MessagesPerJob {
			t.Errorf("M=%d: same seed, waits %v and %v, messages %v and %v", m, a.Wait, b.Wait, a.MessagesPerJob, b.MessagesPerJob)
		}
	}
}

// lsqMarkov is an independent model of LSQ with exponential sizes of mean
// 1 and speed 1: a continuous-time Markov chain simulated jump by jump
// (no servers, heaps or buckets of the package), whose state is the true
// counts and every dispatcher's estimates; at an arrival its dispatcher
// first sets its estimates of d servers (a uniform sample, r.Perm) to
// their counts. It returns the mean response
// (Little: mean jobs / lambda) over 20 batches of equal time and the 95%
// half-width of their mean.
func lsqMarkov(k, m, d int, rho, p float64, jumps int, seed uint64) Estimate {
	r := rand.New(rand.NewPCG(seed, 1))
	lambda := rho * float64(k)
	n := make([]int, k)
	est := make([][]int, m)
	for i := range est {
		est[i] = make([]int, k)
	}
	const batches = 20
	var area, clock [batches]float64
	jobs, busy := 0, 0
	perm := make([]int, k) // r.Perm(k) without a new slice an arrival: the same draws
	for j := range jumps {
		rate := lambda + float64(busy)
		dt := r.ExpFloat64() / rate
		b := j * batches / jumps
		area[b] += float64(jobs) * dt
		clock[b] += dt
		if u := r.Float64() * rate; u < lambda { // an arrival, to a dispatcher drawn uniformly
			e := est[r.IntN(m)]
			for s := range perm {
				perm[s] = s
			}
			r.Shuffle(k, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			for _, s := range perm[:d] {
				e[s] = n[s]
			}
			to, ties := 0, 0
			for s, v := range e {
				switch {
				case v < e[to]:
					to, ties = s, 1
				case v == e[to]:
					if ties++; r.IntN(ties) == 0 {
						to = s
					}
				}
			}
			e[to]++
			if n[to] == 0 {
				busy++
			}
			n[to]++
			jobs++
		} else { // a departure from a busy server drawn uniformly
			c := r.IntN(busy)
			s := 0
			for ; ; s++ {
				if n[s] > 0 {
					if c == 0 {
						break
					}
					c--
				}
			}
			n[s]--
			jobs--
			if n[s] == 0 {
				busy--
			}
			if r.Float64() < p {
				est[r.IntN(m)][s] = n[s]
			}
		}
	}
	var means [batches]float64
	sum := 0.0
	for b := range means {
		means[b] = area[b] / clock[b] / lambda
		sum += means[b]
	}
	mean := sum / batches
	ss := 0.0
	for _, x := range means {
		ss += (x - mean) * (x - mean)
	}
	return Estimate{Mean: mean, CI95: 2.093 * math.Sqrt(ss/(batches-1)/batches)} // t(19, 0.975)
}

// TestLSQMatchesMarkovModel: where no theory is known (0 < p < 1, several
// dispatchers, sampling d < K), the run meets the independent Markov
// model above, FCFS and PS (with exponential sizes both give the same counts; the
// first batch, a warm-up from empty, is kept in both: 20 batches of 10^6
// jumps make its bias small against the CIs).
func TestLSQMatchesMarkovModel(t *testing.T) {
	t.Parallel() // no process-wide state; its Markov model runs on one core
	type model struct {
		k, m, d int
		rho, p  float64
	}
	models := map[model]Estimate{} // FCFS and PS share the model: one run each
	for _, c := range []struct {
		k, m, d int
		rho, p  float64
		disc    Discipline
	}{{4, 1, 0, 0.8, 0.3, FCFS}, {4, 2, 0, 0.8, 0.5, FCFS}, {4, 2, 0, 0.8, 0.5, PS}, {6, 3, 0, 0.7, 1, FCFS}, {5, 2, 0, 0.9, 0.2, FCFS},
		{5, 3, 1, 0.9, 0, FCFS}, {5, 3, 1, 0.9, 0, PS}, {6, 4, 2, 0.8, 0.1, FCFS}} {
		key := model{c.k, c.m, c.d, c.rho, c.p}
		want, ok := models[key]
		if !ok {
			want = lsqMarkov(c.k, c.m, c.d, c.rho, c.p, 4_000_000, 17)
			models[key] = want
		}
		r := run(t, Config{Servers: c.k, Load: c.rho, Sizes: Exponential{M: 1}, Policy: LSQ{D: c.d, P: c.p}, Dispatchers: c.m,
			Discipline: c.disc, Jobs: 1_000_000, Warmup: 20_000, Reps: 4, Seed: 8})
		t.Logf("LSQ d=%d p=%v K=%d M=%d rho=%v %s: response %v, Markov model %v", c.d, c.p, c.k, c.m, c.rho, c.disc, r.Response, want)
		if !agree(r.Response, want) {
			t.Errorf("LSQ d=%d p=%v K=%d M=%d rho=%v %s: mean response %v, the Markov model's %v: more than 1.5 CIs apart", c.d, c.p, c.k, c.m, c.rho, c.disc, r.Response, want)
		}
	}
}

// TestLSQSampledAllIsJSQ: probing d = K servers a job sets every estimate
// to the truth before each pick, at any M and p: at every pick of every
// dispatcher the estimates are the servers' true counts and the job goes
// to a server with the fewest jobs; so the mean response meets JSQ's
// exact Markov chain (theory.DispatchExact), which the run reports as its
// exact reference (and only for d = K).
func TestLSQSampledAllIsJSQ(t *testing.T) {
	for _, c := range []struct {
		k    int
		rho  float64
		disc Discipline
	}{{3, 0.9, FCFS}, {4, 0.8, PS}} {
		cfg := Config{Servers: c.k, Load: c.rho, Sizes: Exponential{M: 1}, Policy: LSQ{D: c.k}, Dispatchers: 4, Discipline: c.disc,
			Jobs: 50_000, Seed: 3, SampleEvery: 1e12} // sampled at 0 only: the servers keep their counts
		picks, wrong := 0, 0
		runProbed(t, cfg, func(s *sim, i int, _, at []int32, now float64, to int) {
			picks++
			low := slices.Min(at)
			for k, e := range at {
				if n := s.srv.count(k, now, s.m); (n != e || at[to] != low) && wrong < 5 {
					wrong++
					t.Errorf("%s: dispatcher %d at t=%.6g: server %d has %d jobs, the estimate says %d; sent to %d (estimate %d, least %d)", c.disc, i, now, k, n, e, to, at[to], low)
				}
			}
		})
		if picks < 50_000 || c.disc == FCFS && picks != 50_000 { // PS and SRPT: the tail's too (sim.hasTail)
			t.Errorf("%s: %d picks probed, want 50000 and a preemptive run's tail", c.disc, picks)
		}
		cfg.Jobs, cfg.Warmup, cfg.Reps, cfg.Seed, cfg.SampleEvery = 500_000, 10_000, 8, 11, 0
		isJSQ(t, cfg, fmt.Sprintf("LSQ d=K=%d M=4 rho=%v %s", c.k, c.rho, c.disc))
	}
	for _, c := range []Config{ // d < K: stale estimates, no theory (one dispatcher or several)
		{Servers: 3, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LSQ{D: 2}},
		{Servers: 3, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LSQ{D: 2, P: 1}, Dispatchers: 2},
	} {
		if ref, ok := Theory(c); ok {
			t.Errorf("%s, M=%d: theory %+v, want none", c.Policy, c.dispatchers(), ref)
		}
	}
}

// TestLSQSampledMessagesPerJob: d probes and d replies a job, plus the
// departures reported (each with probability p): exactly 2d with p = 0,
// and 2d + p within its binomial interval otherwise.
func TestLSQSampledMessagesPerJob(t *testing.T) {
	const n = 200_000
	for _, c := range []struct {
		d int
		p float64
	}{{1, 0}, {2, 0}, {10, 0}, {2, 0.3}} {
		for _, m := range []int{1, 4} {
			r := run(t, Config{Servers: 10, Load: 0.7, Sizes: Exponential{M: 1}, Policy: LSQ{D: c.d, P: c.p}, Dispatchers: m,
				Jobs: n, Warmup: 10_000, Seed: 6})
			want := 2*float64(c.d) + c.p
			tol := 3*math.Sqrt(c.p*(1-c.p)/n) + 100.0/n
			if c.p == 0 {
				tol = 0
			}
			if math.Abs(r.MessagesPerJob-want) > tol || NewRow(r).MessagesPerJob != r.MessagesPerJob || NewRow(r).D != c.d {
				t.Errorf("d=%d p=%v M=%d: %v messages per job (row %v, d %d), want %v within %.3g", c.d, c.p, m, r.MessagesPerJob, NewRow(r).MessagesPerJob, NewRow(r).D, want, tol)
			}
		}
	}
}

// isJSQ checks that cfg's LSQ run holds the exact JSQ chain's mean
// response (one dispatcher's: with fresh estimates M changes nothing) within
// its CI, and reports that value as its exact reference.
func isJSQ(t *testing.T, cfg Config, what string) {
	t.Helper()
	jsq := cfg
	jsq.Policy, jsq.Dispatchers = JSQ{}, 0
	want, ok := Theory(jsq)
	if !ok {
		t.Fatalf("%s: no exact JSQ value", what)
	}
	r := run(t, cfg)
	t.Logf("%s: response %v, JSQ chain %.5g", what, r.Response, want.Response)
	if math.Abs(r.Response.Mean-want.Response) > 1.5*r.Response.CI95 {
		t.Errorf("%s: mean response %v, JSQ's exact %.5g", what, r.Response, want.Response)
	}
	if !r.HasExact || r.Exact.Response != want.Response {
		t.Errorf("%s: exact reference %+v (has %v), want JSQ's %.5g", what, r.Exact, r.HasExact, want.Response)
	}
}

// LSQ's estimates are rebased for every p: with reports so rare that none
// comes (p = 10^-12) they grew with the run, a bucket a round of K (13 MB
// at 10^6 jobs on K = 2, 2.03 GiB at 3 10^8), where p = 0 stayed flat. The
// heap allocated by a run of 10^7 jobs is now that of p = 0, within 4 MB
// (it was 40 MB more), and the estimates' buckets span a few values.
func TestLSQRareReportsBounded(t *testing.T) {
	alloc := func(p float64) (uint64, int) {
		cfg := Config{Servers: 2, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LSQ{P: p}, Jobs: 10_000_000, Seed: 1, Workers: 1}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s := newSim(&cfg, 0)
		defer s.srv.held.done()
		s.run()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, len(s.disp.(*lsqDispatcher).est.first)
	}
	silent, _ := alloc(0)
	rare, buckets := alloc(1e-12)
	if rare > silent+4<<20 || buckets > 2*lsqRebase {
		t.Errorf("lsq:p=1e-12, K=2, 10^7 jobs: %.1f MB allocated, p=0 %.1f MB; %d buckets (want within 4 MB, at most %d)", float64(rare)/(1<<20), float64(silent)/(1<<20), buckets, 2*lsqRebase)
	} else {
		t.Logf("lsq:p=1e-12: %.1f MB allocated, p=0 %.1f MB; %d buckets", float64(rare)/(1<<20), float64(silent)/(1<<20), buckets)
	}
}
