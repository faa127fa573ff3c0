package lbsim_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// fewestFirst sends a job to the server with the fewest jobs the View
// shows, the lowest-numbered of the tied: deterministic, so a run on a
// trace can be checked choice by choice against a simulation by hand.
type fewestFirst struct{}

func (fewestFirst) String() string { return "fewest-first" }
func (fewestFirst) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Count}
}
func (fewestFirst) Pick(v *lbsim.View, _ float64) int {
	best := 0
	for k := 1; k < v.K(); k++ {
		if v.Count(k) < v.Count(best) {
			best = k
		}
	}
	return best
}

// delayTrace is n Poisson arrivals of rate lambda with Exp(1) sizes.
func delayTrace(n int, lambda float64, seed uint64) *lbsim.Trace {
	r := rand.New(rand.NewPCG(seed, 7))
	tr := &lbsim.Trace{Times: make([]float64, n), Sizes: make([]float64, n)}
	t := 0.0
	for i := range n {
		t += r.ExpFloat64() / lambda
		tr.Times[i], tr.Sizes[i] = t, r.ExpFloat64()
	}
	return tr
}

// byHand is the mean response of JSQ over all K on FCFS servers of speed
// 1 when a departure at d is seen once d <= t - D: every job sent before t
// counted at its server unless seen to have left; with own, only the jobs
// sent through the same dispatcher (tr.Dispatchers). Ties go to the lowest
// server (fewestFirst), or with oldest to the one whose count changed
// longest ago as seen (a send to it, or a departure seen at its time + D),
// lowest first: HAProxy's rule.
func byHand(tr *lbsim.Trace, k int, delay float64, own, oldest bool) float64 {
	free := make([]float64, k)
	deps := make([][]float64, k)  // the departures of each server's jobs
	via := make([][]int, k)       // and their dispatchers
	stamps := map[int][]float64{} // each dispatcher's (own) or the one's
	sum := 0.0
	for i, t := range tr.Times {
		who := 0
		if own {
			who = tr.Dispatchers[i]
		}
		if stamps[who] == nil {
			stamps[who] = make([]float64, k)
		}
		stamp := stamps[who]
		best, bestN := 0, math.MaxInt
		for s := range k {
			n := 0
			for j, d := range deps[s] {
				switch {
				case own && via[s][j] != tr.Dispatchers[i]:
				case d <= t-delay:
					stamp[s] = max(stamp[s], d+delay)
				default:
					n++
				}
			}
			if n < bestN || oldest && n == bestN && stamp[s] < stamp[best] {
				best, bestN = s, n
			}
		}
		stamp[best] = t
		start := max(free[best], t)
		free[best] = start + tr.Sizes[i]
		deps[best] = append(deps[best], free[best])
		if own {
			via[best] = append(via[best], tr.Dispatchers[i])
		}
		sum += free[best] - t
	}
	return sum / float64(len(tr.Times))
}

// A trace that names each job's dispatcher (a log of several proxies) is
// replayed through them: under the own view each counts its own jobs, as
// a simulation by hand does, and a dispatcher outside 0..M-1 is refused.
func TestTraceDispatchers(t *testing.T) {
	tr := delayTrace(3000, 2.4, 17)
	r := rand.New(rand.NewPCG(3, 3))
	tr.Dispatchers = make([]int, tr.Len())
	for i := range tr.Dispatchers {
		tr.Dispatchers[i] = r.IntN(3)
	}
	for _, delay := range []float64{0, 0.4} {
		for _, oldest := range []bool{false, true} {
			want := byHand(tr, 3, delay, true, oldest)
			cfg := lbsim.Config{Servers: 3, Trace: tr, Policy: fewestFirst{}, View: lbsim.OwnView, Dispatchers: 3, Delay: delay, Seed: 1}
			if oldest { // each dispatcher its own stamps, as each of 3 HAProxy processes
				cfg.Policy = lbsim.JSQ{Ties: lbsim.TiesOldest}
			}
			res, err := lbsim.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Response.Mean; math.Abs(got-want) > 1e-9*want {
				t.Errorf("D=%v, oldest %v: mean response %.12g, by hand %.12g", delay, oldest, got, want)
			}
		}
	}
	cfg := lbsim.Config{Servers: 3, Trace: tr, Policy: fewestFirst{}, View: lbsim.OwnView, Dispatchers: 2}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "need 0 <= d < M = 2") {
		t.Errorf("dispatcher 2 of M = 2: %v", err)
	}
}

// A dispatcher that sees departures D late picks as a simulation by hand
// does, under the live view (one dispatcher, or three sharing the one
// delayed view) and the own view of one dispatcher, for D from 0 to far
// beyond the run.
func TestDelayByHand(t *testing.T) {
	tr := delayTrace(3000, 2.4, 11)
	for _, delay := range []float64{0, 0.05, 0.7, 3} {
		want := byHand(tr, 3, delay, false, false)
		for _, c := range []struct {
			view lbsim.ViewKind
			m    int
		}{{lbsim.LiveView, 1}, {lbsim.LiveView, 3}, {lbsim.OwnView, 1}} {
			cfg := lbsim.Config{Servers: 3, Trace: tr, Policy: fewestFirst{}, View: c.view, Dispatchers: c.m, Delay: delay, Seed: 1}
			res, err := lbsim.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Response.Mean; math.Abs(got-want) > 1e-9*want {
				t.Errorf("D=%v, view %v, M=%d: mean response %.12g, by hand %.12g", delay, c.view, c.m, got, want)
			}
		}
	}
}

// With departures never seen, the fewest jobs sent, lowest first, is round
// robin: on servers alike the same response times as RR's, to the bit.
func TestDelayForeverIsRoundRobin(t *testing.T) {
	base := lbsim.Config{Servers: 4, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Jobs: 20000, Reps: 2, Seed: 5}
	rr, never := base, base
	rr.Policy = lbsim.RoundRobin{}
	never.Policy, never.Delay = fewestFirst{}, 1e300
	a, err := lbsim.Run(rr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := lbsim.Run(never)
	if err != nil {
		t.Fatal(err)
	}
	if a.Response != b.Response || a.Wait != b.Wait {
		t.Errorf("D = 1e300: response %v and wait %v, RR's %v and %v", b.Response, b.Wait, a.Response, a.Wait)
	}
}

// With exponential sizes a server's departures come at rate mu while it
// holds a job, under FCFS as under PS: JSQ's counts, seen D late, have one
// law under both, so one mean response, for the FCFS FIFOs and for PS's
// late departures (two separate paths). And the delay costs: the mean
// grows with D, from the exact chain's at D = 0.
func TestDelayFCFSisPS(t *testing.T) {
	base := lbsim.Config{Servers: 4, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Jobs: 100000, Reps: 10, Seed: 3}
	last := 0.0
	for _, delay := range []float64{0, 0.5, 2} {
		var got [2]lbsim.Estimate
		for i, disc := range []lbsim.Discipline{lbsim.FCFS, lbsim.PS} {
			for _, view := range []lbsim.ViewKind{lbsim.LiveView, lbsim.OwnView} {
				c := base
				c.Policy, c.Delay, c.Discipline, c.View = lbsim.JSQ{}, delay, disc, view
				res, err := lbsim.Run(c)
				if err != nil {
					t.Fatal(err)
				}
				if view == lbsim.LiveView {
					got[i] = res.Response
				} else if res.Response != got[i] { // one dispatcher: its own jobs are all
					t.Errorf("D=%v %v: own view %v, live %v", delay, disc, res.Response, got[i])
				}
			}
		}
		if d, tol := got[0].Mean-got[1].Mean, 3/1.96*math.Hypot(got[0].CI95, got[1].CI95); math.Abs(d) > tol {
			t.Errorf("D=%v: FCFS %v, PS %v: apart by %.4g, more than %.4g", delay, got[0], got[1], d, tol)
		}
		if delay == 0 {
			c := base
			c.Policy = lbsim.JSQ{}
			ref, _ := lbsim.Theory(c)
			if c.Delay = 0.5; func() bool { _, ok := lbsim.Theory(c); return ok }() {
				t.Errorf("D=0.5: Theory gives the chain of D=0")
			}
			if math.Abs(got[0].Mean-ref.Response) > 1.5*got[0].CI95 {
				t.Errorf("D=0: %v, exact %v", got[0], ref.Response)
			}
		} else if got[0].Mean-got[0].CI95 < last {
			t.Errorf("D=%v: mean response %v, not above D's before (%v)", delay, got[0], last)
		}
		last = got[0].Mean + got[0].CI95
	}
}

func TestDelayRefused(t *testing.T) {
	base := lbsim.Config{Servers: 4, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.JSQ{D: 2}, Jobs: 100}
	for _, c := range []struct {
		set  func(c *lbsim.Config)
		want string
	}{
		{func(c *lbsim.Config) { c.Delay = -1 }, "delay D=-1 is invalid: need a finite D >= 0"},
		{func(c *lbsim.Config) { c.Delay = math.NaN() }, "delay D=NaN is invalid"},
		{func(c *lbsim.Config) { c.Delay = math.Inf(1) }, "delay D=+Inf is invalid"},
		{func(c *lbsim.Config) { c.Delay, c.Refresh = 1, 2 }, "use -delay with -refresh 0"},
		{func(c *lbsim.Config) { c.Delay, c.Policy = 1, lbsim.LeastLoaded{D: 2} }, "has no effect on policy ll:d=2"},
		{func(c *lbsim.Config) { c.Delay, c.Policy = 1, lbsim.Random{} }, "has no effect on policy rnd"},
		{func(c *lbsim.Config) { c.Delay, c.Policy = 1, lbsim.LSQ{} }, "learns of departures by the servers' reports"},
	} {
		cfg := base
		c.set(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error with %q", err, c.want)
		}
	}
}

// ties=oldest sees each count change as the dispatcher sees it: live at
// once, live D late, and under the own view of one dispatcher (the live
// one, to the bit), against a simulation by hand.
func TestOldestTiesDelayed(t *testing.T) {
	tr := delayTrace(3000, 2.4, 13)
	for _, delay := range []float64{0, 0.05, 0.7} {
		want := byHand(tr, 3, delay, false, true)
		for _, view := range []lbsim.ViewKind{lbsim.LiveView, lbsim.OwnView} {
			cfg := lbsim.Config{Servers: 3, Trace: tr, Policy: lbsim.JSQ{Ties: lbsim.TiesOldest}, View: view, Delay: delay, Seed: 1}
			res, err := lbsim.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Response.Mean; math.Abs(got-want) > 1e-9*want {
				t.Errorf("D=%v, view %v: mean response %.12g, by hand %.12g", delay, view, got, want)
			}
		}
	}
}

// Under the own view one dispatcher's counts are the live ones: ties=oldest
// gives the live run's numbers to the bit, under FCFS, PS and SRPT (whose
// servers then keep each departure's time for it), for JSQ, JSQ-2 and SED.
func TestOldestTiesOwnIsLive(t *testing.T) {
	for _, disc := range []lbsim.Discipline{lbsim.FCFS, lbsim.PS, lbsim.SRPT} {
		for _, p := range []lbsim.Policy{lbsim.JSQ{Ties: lbsim.TiesOldest}, lbsim.JSQ{D: 2, Ties: lbsim.TiesOldest}, lbsim.SED{Ties: lbsim.TiesOldest}} {
			c := lbsim.Config{Servers: 4, Speeds: []float64{2, 1, 1, 1}, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Policy: p, Discipline: disc, Jobs: 20000, Reps: 2, Seed: 9}
			live, err := lbsim.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			c.View = lbsim.OwnView
			own, err := lbsim.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if live.Response != own.Response || live.Wait != own.Wait {
				t.Errorf("%v %s: own view %v, live %v", disc, p, own.Response, live.Response)
			}
		}
	}
}
