package lbsim

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Weighted random against Pollaczek-Khinchine per server, computed here:
// server k gets Poisson arrivals of rate lambda p_k, p_k = w_k/sum(w), so
// it is M/G/1 with rho_k = lambda p_k E[X]/mu_k and
// E[W_k] = lambda p_k E[X^2]/mu_k^2 / (2 (1 - rho_k)); the mean wait is
// sum_k p_k E[W_k], and each server's measured utilisation is rho_k.
func TestWeightedRandomPerServerPK(t *testing.T) {
	h2, _ := NewH2Balanced(1, 4)
	for _, c := range []struct {
		spec   string
		speeds []float64
		sizes  SizeLaw
		load   float64
		disc   Discipline
	}{
		{"rnd:weights=speed", []float64{2, 2, 1, 1, 1}, Exponential{M: 1}, 0.8, FCFS},
		{"rnd:weights=speed", []float64{4, 1, 1, 1}, h2, 0.7, FCFS},
		{"rnd:weights=3/1/1/1", []float64{2, 1, 1, 1}, Exponential{M: 2}, 0.6, FCFS},
		{"rnd:weights=1@3/3@1", []float64{2, 1, 1, 1}, h2, 0.6, PS},
	} {
		t.Run(fmt.Sprintf("%s/%v/%s", c.spec, c.speeds, c.disc), func(t *testing.T) {
			p, err := ParsePolicy(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			cfg := Config{Servers: len(c.speeds), Speeds: c.speeds, Load: c.load, Sizes: c.sizes, Policy: p,
				Discipline: c.disc, Jobs: 300_000, Warmup: 10_000, Reps: 6, Seed: 7}
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			w := p.(WeightedRandom).Weights.of(c.speeds)
			sum := 0.0
			for _, x := range w {
				sum += x
			}
			lambda, m1, m2 := cfg.ArrivalRate(), c.sizes.Mean(), c.sizes.SecondMoment()
			exact, exactResp := 0.0, 0.0
			for k, mu := range c.speeds {
				pk := w[k] / sum
				rho := lambda * pk * m1 / mu
				wk := lambda * pk * m2 / (mu * mu) / (2 * (1 - rho))
				rk := wk + m1/mu
				if c.disc == PS {
					rk = m1 / mu / (1 - rho)
				}
				exact += pk * wk
				exactResp += pk * rk
				if u := r.ServerUtilization[k]; math.Abs(u-rho) > 0.02 {
					t.Errorf("server %d: utilisation %.4f, want rho_k = %.4f", k+1, u, rho)
				}
			}
			got, want := r.Wait, exact
			if c.disc == PS {
				got, want = r.Response, exactResp
			}
			if d := math.Abs(got.Mean - want); d > 1.5*got.CI95 {
				t.Errorf("mean %.5f ± %.5f, exact %.5f", got.Mean, got.CI95, want)
			}
			ref, ok := Exact(cfg)
			if ok && c.disc == PS {
				ok = math.Abs(ref.Response-exactResp) < 1e-9*exactResp
			} else if ok {
				ok = math.Abs(ref.Wait-exact) < 1e-9*exact
			}
			if !ok {
				t.Errorf("Theory %+v, want wait %v response %v", ref, exact, exactResp)
			}
		})
	}
}

// RR with unequal speeds against E_K/M/1 per server, solved here: server k
// gets every K-th job, Erlang-K gaps of rate lambda/K each, whose transform
// is A*(s) = (lambda/(lambda+s))^K; sigma_k solves sigma = A*(mu_k(1-sigma))
// (fixed point from 0), and the wait is sigma_k / (mu_k (1 - sigma_k)),
// mean size 1.
func TestRoundRobinUnequalSpeedsEKM1(t *testing.T) {
	speeds := []float64{2, 2, 1, 1}
	cfg := Config{Servers: 4, Speeds: speeds, Load: 0.6, Sizes: Exponential{M: 1}, Policy: RoundRobin{},
		Jobs: 400_000, Warmup: 10_000, Reps: 6, Seed: 5}
	lambda, k := cfg.ArrivalRate(), float64(len(speeds))
	exact := 0.0
	for _, mu := range speeds {
		sigma := 0.0
		for range 10_000 {
			sigma = math.Pow(lambda/(lambda+mu*(1-sigma)), k)
		}
		exact += sigma / (mu * (1 - sigma)) / k
	}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(r.Wait.Mean - exact); d > 1.5*r.Wait.CI95 {
		t.Errorf("RR mean wait %.5f ± %.5f, E_K/M/1 per server %.5f", r.Wait.Mean, r.Wait.CI95, exact)
	}
	if ref, ok := Exact(cfg); !ok || math.Abs(ref.Wait-exact) > 1e-9 {
		t.Errorf("Theory %+v, want %v", ref, exact)
	}
	// Weighted RR with equal weights is RR: the same picks, the same numbers.
	for _, p := range []Policy{WeightedRoundRobin{Weights: Weights{Speed: true}}, WeightedRoundRobin{Weights: Weights{Values: []float64{3, 3, 3, 3}}}} {
		c := cfg
		c.Speeds, c.Policy, c.Jobs = []float64{1.5}, p, 50_000
		rr := c
		rr.Policy = RoundRobin{}
		a, _ := Run(c)
		b, _ := Run(rr)
		ea, oka := Exact(c)
		eb, _ := Exact(rr)
		if a.Wait != b.Wait || !oka || ea.Wait != eb.Wait {
			t.Errorf("%s with equal weights: %v (exact %v), RR %v (exact %v)", p, a.Wait, ea.Wait, b.Wait, eb.Wait)
		}
	}
}

// Smooth weighted round robin picks as nginx does: weights 5, 1, 1 give
// a a b a c a a, every cycle; each server gets w_k of every sum(w) jobs.
func TestSmoothWeightedRoundRobin(t *testing.T) {
	d := newSmoothRR(WeightedRoundRobin{Weights: Weights{Values: []float64{5, 1, 1}}}, nil)
	var got []int
	for range 14 {
		got = append(got, d.next())
	}
	if want := []int{0, 0, 1, 0, 2, 0, 0, 0, 0, 1, 0, 2, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("picks %v, want %v", got, want)
	}
	// Against nginx's algorithm as written, on random whole weights.
	r := NewStream(1, 2)
	for range 20 {
		w := make([]float64, 1+r.IntN(12))
		for i := range w {
			w[i] = float64(1 + r.IntN(4))
		}
		fast := newSmoothRR(WeightedRoundRobin{Weights: Weights{Values: w}}, nil)
		cur, total := make([]float64, len(w)), 0.0
		for _, x := range w {
			total += x
		}
		for n := range 500 {
			best := 0
			for k := range w {
				if cur[k] += w[k]; cur[k] > cur[best] {
					best = k
				}
			}
			cur[best] -= total
			if got := fast.next(); got != best {
				t.Fatalf("weights %v, job %d: server %d, nginx's algorithm %d", w, n, got, best)
			}
		}
	}
	speeds := []float64{3, 2, 2, 1, 1, 1}
	d = newSmoothRR(WeightedRoundRobin{Weights: Weights{Speed: true}}, speeds)
	n := make([]int, len(speeds))
	for range 10 * 10 {
		n[d.next()]++
	}
	if !slices.Equal(n, []int{30, 20, 20, 10, 10, 10}) {
		t.Errorf("jobs per server over 10 cycles: %v, want 10 mu_k", n)
	}
	// Through the View (Start), the same numbers as the run's dispatcher.
	cfg := Config{Servers: 6, Speeds: speeds, Load: 0.7, Sizes: Exponential{M: 1}, Policy: WeightedRoundRobin{Weights: Weights{Speed: true}},
		Jobs: 20_000, Reps: 2, Seed: 3}
	fast, slow := runBothWays(t, cfg)
	if fast.Wait != slow.Wait {
		t.Errorf("fast %v, via View %v", fast.Wait, slow.Wait)
	}
}

// SED with equal speeds is JSQ (the same draws: the same numbers), live and
// on a board, FCFS, PS and SRPT; SED and weighted random through the View
// agree with their fast paths.
func TestSEDEqualSpeedsIsJSQ(t *testing.T) {
	for _, disc := range []Discipline{FCFS, PS, SRPT} {
		for _, refresh := range []float64{0, 3} {
			for _, d := range []int{0, 2} {
				cfg := Config{Servers: 8, Speeds: []float64{1.5}, Load: 0.8, Sizes: Exponential{M: 1}, Policy: SED{D: d},
					Discipline: disc, Refresh: refresh, Tally: refresh > 0, Jobs: 30_000, Reps: 2, Seed: 9}
				sed, err := Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Policy = JSQ{D: d}
				jsq, _ := Run(cfg)
				if sed.Wait != jsq.Wait || sed.Response != jsq.Response {
					t.Errorf("%s T=%v d=%d: SED %v, JSQ %v", disc, refresh, d, sed.Wait, jsq.Wait)
				}
			}
		}
	}
	for _, p := range []Policy{SED{}, WeightedRandom{Weights: Weights{Speed: true}}} {
		cfg := Config{Servers: 6, Speeds: []float64{3, 2, 2, 1, 1, 1}, Load: 0.8, Sizes: Exponential{M: 1}, Policy: p,
			Jobs: 200_000, Reps: 4, Seed: 4}
		fast, slow := runBothWays(t, cfg)
		if d := math.Abs(fast.Wait.Mean - slow.Wait.Mean); d > 1.5*(fast.Wait.CI95+slow.Wait.CI95) {
			t.Errorf("%s: fast path %v, via the View %v", p, fast.Wait, slow.Wait)
		}
	}
}

// loopRR is smooth weighted round robin by a linear scan of the groups,
// O(G) a job: smoothRR before its tournament, kept as the oracle of its
// picks.
type loopRR struct {
	groups   []wrrGroup
	n, total float64
}

func newLoopRR(d *smoothRR) *loopRR {
	o := &loopRR{n: d.n, total: d.total}
	for _, g := range d.groups {
		g.servers = slices.Clone(g.servers)
		o.groups = append(o.groups, g)
	}
	return o
}

func (d *loopRR) next() int {
	d.n++
	best, bestK, bestV := 0, -1, 0.0
	for g := range d.groups {
		grp := &d.groups[g]
		k, v := grp.servers[grp.next], d.n*grp.w-d.total*grp.rounds
		if bestK < 0 || v > bestV || v == bestV && k < bestK {
			best, bestK, bestV = g, k, v
		}
	}
	grp := &d.groups[best]
	if grp.next++; grp.next == len(grp.servers) {
		grp.next, grp.rounds = 0, grp.rounds+1
	}
	return bestK
}

// The tournament picks what the linear scan picks, job by job: whole
// weights with many groups (ties everywhere), real weights, weights a
// rounding error apart, speeds 1..K, and a starting phase far into the
// run (advance, as with several dispatchers), where the values are large
// products and rounding decides ties.
func TestSmoothRRTournamentIsTheScan(t *testing.T) {
	r := NewStream(7, 1)
	cases := map[string][]float64{}
	for c := range 6 {
		w := make([]float64, 1+r.IntN(300))
		for i := range w {
			switch c % 3 {
			case 0:
				w[i] = float64(1 + r.IntN(20))
			case 1:
				w[i] = 0.1 + 5*r.Float64()
			case 2:
				w[i] = 1 + float64(r.IntN(4))*1e-12
			}
		}
		cases[fmt.Sprintf("case %d, %d servers", c, len(w))] = w
	}
	ramp := make([]float64, 2000)
	for i := range ramp {
		ramp[i] = float64(i + 1)
	}
	cases["speeds 1..2000"] = ramp
	for name, w := range cases {
		for _, phase := range []int{0, 12345, 1 << 40} {
			d := newSmoothRR(WeightedRoundRobin{Weights: Weights{Values: w}}, nil)
			if phase > 0 {
				d.advance(phase, func(n int) int { return phase % n })
			}
			o := newLoopRR(d)
			for j := range 100_000 {
				if got, want := d.next(), o.next(); got != want {
					t.Fatalf("%s, phase %d, job %d: the tournament picks server %d, the scan %d", name, phase, j, got, want)
				}
			}
		}
	}
}
