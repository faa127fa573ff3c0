package lbsim

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"
)

// Validate refuses what it can prove unstable: the d-sampling bound for
// uniform samplers on unequal speeds, and SITA's groups with a size cut.
func TestStabilityBeforeRunning(t *testing.T) {
	speeds := []float64{0.1, 0.2, 0.5, 1, 2, 5, 10} // sum 18.8
	exp := Exponential{M: 1}
	cfg := func(load float64, p Policy, k int, sp []float64) Config {
		return Config{Servers: k, Speeds: sp, Load: load, Sizes: exp, Policy: p, Jobs: 1000}
	}
	// The bound by hand: the 3 slowest (capacity 0.8) get at least
	// C(3,2)/C(7,2) = 3/21 of the jobs: load < 0.8 / (18.8 * 3/21) = 0.29787.
	// With replacement the 2 slowest (capacity 0.3) get (2/7)^2: load <
	// 0.3 / (18.8 * 4/49) = 0.19548, below the 3 slowest's 0.8/(18.8*9/49).
	distinct := 0.8 / (18.8 * 3 / 21)
	withRepl := 0.3 / (18.8 * 4 / 49)
	sita := 1 / (4 * (1 - 2/math.E)) // the short server's load is 4 rho (1 - 2/e) for a cut at the mean
	cases := []struct {
		name  string
		cfg   Config
		limit float64 // the highest stable load; 0: no refusal expected at all
		names string  // in the message
	}{
		{"ll:d=2", cfg(0, LeastLoaded{D: 2}, 7, speeds), distinct, "servers 1 (speed 0.1), 2 (speed 0.2), 3 (speed 0.5)"},
		{"jsq:d=2", cfg(0, JSQ{D: 2}, 7, speeds), distinct, "C(3,2)/C(7,2)"},
		{"jsq:d=2,replace", cfg(0, JSQ{D: 2, Replace: true}, 7, speeds), withRepl, "(2/7)^2"},
		{"sita:cut=1,c=1", cfg(0, SITA{C: 1, Cut: 1}, 4, nil), sita, "server 1"},
	}
	for _, c := range cases {
		above, below := c.cfg, c.cfg
		above.Load, below.Load = c.limit*1.001, c.limit*0.999
		err := above.Validate()
		if err == nil || !strings.Contains(err.Error(), c.names) || !strings.Contains(err.Error(), fmtNum(math.Round(c.limit*1e4)/1e4)) {
			t.Errorf("%s at load %.6g: error %v; want a refusal naming %q and the highest stable load %.4g", c.name, above.Load, err, c.names, c.limit)
		}
		if err := below.Validate(); err != nil {
			t.Errorf("%s at load %.6g: %v; want it accepted", c.name, below.Load, err)
		}
	}
	// Equal speeds, all servers read, or memory: load < 1 is all it takes.
	for _, p := range []Policy{LeastLoaded{D: 2}, LeastLoaded{}, JSQ{D: 2, Mem: 1}, JIQ{}} {
		c := cfg(0.99, p, 7, nil)
		if err := c.Validate(); err != nil {
			t.Errorf("%s, equal speeds, load 0.99: %v", p, err)
		}
	}
	for _, p := range []Policy{LeastLoaded{}, JSQ{}, JSQ{D: 2, Mem: 1}} {
		c := cfg(0.99, p, 7, speeds)
		if err := c.Validate(); err != nil {
			t.Errorf("%s, unequal speeds, load 0.99: %v (no uniform-sampling bound applies)", p, err)
		}
	}
	allowed := cfg(0.7, LeastLoaded{D: 2}, 7, speeds)
	allowed.AllowOverload = true
	if err := allowed.Validate(); err != nil {
		t.Errorf("overload allowed: %v", err)
	}
}

// The stability limit of each kind of policy on one fast and two slow
// servers (speeds 10, 1, 1, capacity 12), by hand: uniform sampling of 2
// sends at least C(2,2)/C(3,2) = 1/3 of the jobs to the two slow servers,
// so lambda/3 < 2, load < 0.5; RND sends 1/3 to each slow server: lambda/3 < 1,
// load < 0.25; the speed-aware policies carry every load below 1. Then the
// runs: just above the bound the slow servers get more work than they can
// do (measured utilisation > 1), just below they keep up.
func TestStabilityLimitUnequalSpeeds(t *testing.T) {
	speeds := []float64{10, 1, 1}
	for _, c := range []struct {
		policy Policy
		limit  float64
	}{
		{LeastLoaded{D: 2}, 0.5}, {JSQ{D: 2}, 0.5}, {SED{D: 2}, 0.5},
		{Random{}, 0.25}, {RoundRobin{}, 0.25},
		{WeightedRandom{Weights: Weights{Speed: true}}, 1}, {WeightedRoundRobin{Weights: Weights{Speed: true}}, 1},
		{SED{}, 1}, {JSQ{}, 1}, {LeastLoaded{}, 1},
	} {
		cfg := Config{Servers: 3, Speeds: speeds, Sizes: Exponential{M: 1}, Policy: c.policy, Jobs: 400_000, Seed: 2}
		if got := cfg.StabilityLimit(); math.Abs(got-c.limit) > 1e-12 {
			t.Errorf("%s: StabilityLimit %v, want %v", c.policy, got, c.limit)
		}
		if c.limit == 1 {
			continue
		}
		slowest := func(load float64) float64 {
			run := cfg
			run.Load, run.AllowOverload = load, true
			r, err := Run(run)
			if err != nil {
				t.Fatal(err)
			}
			return max(r.ServerUtilization[1], r.ServerUtilization[2])
		}
		if u := slowest(1.1 * c.limit); u < 1.04 {
			t.Errorf("%s at 1.1 x its limit %v: slow servers' utilisation %.4f, want > 1 (unstable)", c.policy, c.limit, u)
		}
		if u := slowest(0.9 * c.limit); u >= 0.99 {
			t.Errorf("%s at 0.9 x its limit %v: slow servers' utilisation %.4f, want < 1 (stable)", c.policy, c.limit, u)
		}
	}
}

// The model of the servers' loads against loads by hand: lambda = rho
// sum(mu) / E[X], rho_k = lambda p_k E[X | k] / mu_k.
func TestServerLoads(t *testing.T) {
	exp := Exponential{M: 1}
	h2, _ := NewH2Balanced(1, 10)
	e := math.E
	// SITA cut=1, c=1 on K=4, exp(1) sizes, rho 0.5 (lambda = 2): the short
	// jobs, P(X <= 1) = 1 - 1/e, have E[X; X <= 1] = 1 - 2/e and
	// E[X^2; X <= 1] = 2 - 5/e; the long ones are 1 + Exp(1) (memoryless):
	// E[X | X > 1] = 2, E[X^2 | X > 1] = 5, a third of them to each of
	// servers 2..4.
	pShort := 1 - 1/e
	type run struct {
		from, to           int
		share, m1, m2, rho float64
	}
	for _, c := range []struct {
		name string
		cfg  Config
		want []run
	}{
		{"rnd:weights=2/1/1, equal speeds, rho 0.6 (lambda 1.8)",
			Config{Servers: 3, Load: 0.6, Sizes: exp, Policy: WeightedRandom{Weights: Weights{Values: []float64{2, 1, 1}}}},
			[]run{{0, 1, 0.5, 1, 2, 0.9}, {1, 3, 0.25, 1, 2, 0.45}}},
		{"sita:cut=1,c=1, exp sizes, rho 0.5",
			Config{Servers: 4, Load: 0.5, Sizes: exp, Policy: SITA{C: 1, Cut: 1}},
			[]run{{0, 1, pShort, (1 - 2/e) / pShort, (2 - 5/e) / pShort, 2 * (1 - 2/e)},
				{1, 4, 1 / (3 * e), 2, 5, 2 * 2 / (3 * e)}}},
		{"rnd:weights=speed, speeds 3,1, h2 scv 10, rho 0.9: every server at rho",
			Config{Servers: 2, Speeds: []float64{3, 1}, Load: 0.9, Sizes: h2, Policy: WeightedRandom{Weights: Weights{Speed: true}}},
			[]run{{0, 1, 0.75, 1, 11, 0.9}, {1, 2, 0.25, 1, 11, 0.9}}},
		{"rr:weights=speed, speeds 5@2,5@1, rho 0.5",
			Config{Servers: 10, Speeds: []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, Load: 0.5, Sizes: exp, Policy: WeightedRoundRobin{Weights: Weights{Speed: true}}},
			[]run{{0, 5, 2.0 / 15, 1, 2, 0.5}, {5, 10, 1.0 / 15, 1, 2, 0.5}}},
		{"rr on speeds 2,1 (the slow server at 0.6 rho 3/2)",
			Config{Servers: 2, Speeds: []float64{2, 1}, Load: 0.6, Sizes: exp, Policy: RoundRobin{}},
			[]run{{0, 1, 0.5, 1, 2, 0.45}, {1, 2, 0.5, 1, 2, 0.9}}},
		{"rr on speeds 2,2,1,2, rho 0.4 (lambda 2.8): a run ends where the speed changes",
			Config{Servers: 4, Speeds: []float64{2, 2, 1, 2}, Load: 0.4, Sizes: exp, Policy: RoundRobin{}},
			[]run{{0, 2, 0.25, 1, 2, 0.35}, {2, 3, 0.25, 1, 2, 0.7}, {3, 4, 0.25, 1, 2, 0.35}}},
		{"rnd:weights=1/2/2/1 on equal speeds, rho 0.5 (lambda 2): a run ends where the share changes",
			Config{Servers: 4, Load: 0.5, Sizes: exp, Policy: WeightedRandom{Weights: Weights{Values: []float64{1, 2, 2, 1}}}},
			[]run{{0, 1, 1.0 / 6, 1, 2, 2.0 / 6}, {1, 3, 2.0 / 6, 1, 2, 4.0 / 6}, {3, 4, 1.0 / 6, 1, 2, 2.0 / 6}}},
		{"jsq reads the servers: no model", Config{Servers: 4, Load: 0.5, Sizes: exp, Policy: JSQ{D: 2}}, nil},
	} {
		got := c.cfg.serverLoads()
		if len(got) != len(c.want) {
			t.Errorf("%s: %d runs of servers %+v, want %d", c.name, len(got), got, len(c.want))
			continue
		}
		for i, w := range c.want {
			g := got[i]
			close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
			if g.from != w.from || g.to != w.to || !close(g.share, w.share) || !close(g.m1, w.m1) || !close(g.m2, w.m2) || !close(g.rho, w.rho) {
				t.Errorf("%s: servers %d..%d share %v, E[X|k] %v, E[X^2|k] %v, load %v; want servers %d..%d %v, %v, %v, %v",
					c.name, g.from+1, g.to, g.share, g.m1, g.m2, g.rho, w.from+1, w.to, w.share, w.m1, w.m2, w.rho)
			}
		}
		if row := NewRow(Result{Config: c.cfg}); c.want != nil && row.MaxServerLoad != slices.MaxFunc(got, func(a, b serverLoad) int { return cmp.Compare(a.rho, b.rho) }).rho ||
			c.want == nil && !math.IsNaN(row.MaxServerLoad) {
			t.Errorf("%s: max_server_load %v", c.name, row.MaxServerLoad)
		}
	}
}

// The gaps between a server's jobs under round robin, by hand from its
// turns n (SCV (E[n] c0 + Var n) / E[n]^2, Poisson arrivals: c0 = 1):
// weights 3,1 give A A B A, A's n 1, 2, 1 (E[n] = 4/3, Var n = 2/9: SCV
// 7/8) and B's 4 (1/4); weights 2,2,2,2,2,1,1,1,1,1 give a fast server n =
// 5 and 10 in turn (E[n] = 7.5, Var n = 6.25) and a slow one 15 (1/15);
// plain RR on K = 4 gives 1/4 (Erlang-4 gaps); a random split p + 1 - p = 1.
func TestGapSCV(t *testing.T) {
	wrr := func(w ...float64) Policy { return WeightedRoundRobin{Weights: Weights{Values: w}} }
	for _, c := range []struct {
		p    Policy
		want []float64
	}{
		{wrr(3, 1), []float64{7.0 / 8, 1.0 / 4}},
		{wrr(2, 2, 2, 2, 2, 1, 1, 1, 1, 1), []float64{(7.5 + 6.25) / 56.25, (7.5 + 6.25) / 56.25, (7.5 + 6.25) / 56.25, (7.5 + 6.25) / 56.25, (7.5 + 6.25) / 56.25, 1.0 / 15, 1.0 / 15, 1.0 / 15, 1.0 / 15, 1.0 / 15}},
		{RoundRobin{}, []float64{0.25, 0.25, 0.25, 0.25}},
		{Random{}, []float64{1, 1, 1, 1}},
	} {
		cfg := Config{Servers: len(c.want), Load: 0.5, Sizes: Exponential{M: 1}, Policy: c.p}
		desc := Describe(c.p, cfg)
		for _, q := range cfg.serverLoads() {
			if got := gapSCV(&desc, 1, q); math.Abs(got-c.want[q.from]) > 1e-3 {
				t.Errorf("%s, servers %d..%d: gap SCV %v, want %v", c.p, q.from+1, q.to, got, c.want[q.from])
			}
		}
	}
}

// The d-sampling bound evaluates only the ends of each run of equal speeds
// (samplingBound): against every m of the sorted servers, by a stable
// sort, on random speeds from a few values.
func TestSamplingBoundAtRunEnds(t *testing.T) {
	r := NewStream(7, 8)
	for trial := range 300 {
		k := 2 + r.IntN(60)
		speeds := make([]float64, k)
		for i := range speeds {
			speeds[i] = []float64{0.5, 1, 1, 2, 3, 10}[r.IntN(6)]
		}
		d, replace := 1+r.IntN(min(k, 5)), trial%2 == 0
		cfg := Config{Servers: k, Speeds: speeds}
		got := cfg.samplingBound(d, replace)
		order := make([]int, k)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(speeds[a], speeds[b]) })
		want, capM := 1.0, 0.0
		for m := 1; m <= k; m++ {
			capM += speeds[order[m-1]]
			q := math.Pow(float64(m)/float64(k), float64(d))
			if !replace {
				q = 1.0
				for i := range min(d, m+1) {
					q *= float64(m-i) / float64(k-i)
				}
			}
			if q > 0 {
				want = min(want, capM/(q*cfg.Capacity()))
			}
		}
		if math.Abs(got.maxLoad-want) > 1e-12*want || !slices.Equal(got.order, order) {
			t.Errorf("speeds %v, d=%d, replace %v: bound %.15g, order %v; every m gives %.15g, order %v", speeds, d, replace, got.maxLoad, got.order, want, order)
		}
	}
}
