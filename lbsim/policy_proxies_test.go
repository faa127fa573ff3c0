package lbsim_test

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// drawnRoute is Envoy's unweightedHostPickNChoices: d hosts drawn
// independently (every ordered d-tuple of the K servers alike), the first
// drawn kept unless a later one has strictly fewer jobs.
func drawnRoute(d int) route {
	return func(q queues, mu []float64) [3]float64 {
		k := len(mu)
		var p [3]float64
		tuples := int(math.Pow(float64(k), float64(d)))
		for t := range tuples {
			best := t % k
			for i, rest := 1, t/k; i < d; i, rest = i+1, rest/k {
				if c := rest % k; q[c] < q[best] {
					best = c
				}
			}
			p[best] += 1 / float64(tuples)
		}
		return p
	}
}

func mustParse(t *testing.T, spec string) lbsim.Policy {
	t.Helper()
	p, err := lbsim.ParsePolicy(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRun(t *testing.T, c lbsim.Config) lbsim.Result {
	t.Helper()
	r, err := lbsim.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Envoy's least request with equal weights, K = 2 and 3, exponential sizes,
// FCFS, one dispatcher: the simulated mean wait, and lbsim's exact value
// (theory.DrawnExact), against the exact chain of d draws with replacement
// (K = 2, d = 2: both draws the same server with probability 1/2) routed by
// enumerating the draws, solved here.
func TestLeastRequestEqualWeightsExact(t *testing.T) {
	t.Parallel() // no process-wide state
	for _, c := range []struct {
		spec string
		d, k int
		load float64
		n    int
	}{
		{"lr", 2, 2, 0.7, 70},
		{"lr", 2, 3, 0.6, 50},
		{"lr:d=3", 3, 3, 0.6, 50},
	} {
		mu := slices.Repeat([]float64{1}, c.k)
		cfg := lbsim.Config{Servers: c.k, Load: c.load, Sizes: lbsim.Exponential{M: 1}, Policy: mustParse(t, c.spec),
			Jobs: 400_000, Warmup: 10_000, Reps: 8, Seed: 5}
		w, _, bound := exactChainDelay(t, drawnRoute(c.d), mu, c.load*float64(c.k), c.n)
		if bound > 1e-7 {
			t.Fatalf("truncation error bound %g too large", bound)
		}
		r := mustRun(t, cfg)
		t.Logf("%s K=%d load %v: simulated %.5f ± %.5f, exact %.5f", c.spec, c.k, c.load, r.Wait.Mean, r.Wait.CI95, w)
		if d := math.Abs(r.Wait.Mean - w); d > 1.5*r.Wait.CI95 {
			t.Errorf("%s K=%d: simulated mean wait %.5f ± %.5f, exact %.5f (off by %.2f half-widths)", c.spec, c.k, r.Wait.Mean, r.Wait.CI95, w, d/r.Wait.CI95)
		}
		if ref, ok := lbsim.Exact(cfg); !ok || math.Abs(ref.Wait-w) > 1e-6*w+bound {
			t.Errorf("%s K=%d: lbsim.Exact %v %v, the chain here %.8f", c.spec, c.k, ref.Wait, ok, w)
		}
		// Drawing with replacement is worse than JSQ-d without it, better than random.
		if jsq, _ := theory.DispatchExact(theory.DispatchRule{D: c.d}, c.load*float64(c.k), mu); !(w > jsq.Wait && w < c.load/(1-c.load)) {
			t.Errorf("%s K=%d: exact %v not between JSQ-%d's %v and M/M/1's %v", c.spec, c.k, w, c.d, jsq.Wait, c.load/(1-c.load))
		}
	}
}

// With equal weights (none, or weights=speed on equal speeds) lr is
// jsq:d=D,replace=1 to the bit: live and on own counts with several
// dispatchers, FCFS and PS.
func TestLeastRequestIsJSQWithReplacement(t *testing.T) {
	for _, c := range []struct{ lr, jsq string }{
		{"lr", "jsq:d=2,replace=1"}, {"lr:d=3", "jsq:d=3,replace=1"}, {"lr:weights=speed,bias=0.5", "jsq:d=2,replace=1"}, {"lr:d=5,weights=2/2/2/2/2/2", "jsq:d=5,replace=1"},
	} {
		for _, disc := range []lbsim.Discipline{lbsim.FCFS, lbsim.PS} {
			for _, m := range []int{1, 3} {
				cfg := lbsim.Config{Servers: 6, Speeds: []float64{1.5}, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: mustParse(t, c.lr),
					Discipline: disc, Dispatchers: m, Jobs: 30_000, Reps: 2, Seed: 9}
				if m > 1 {
					cfg.View = lbsim.OwnView
				}
				lr := mustRun(t, cfg)
				cfg.Policy = mustParse(t, c.jsq)
				jsq := mustRun(t, cfg)
				if lr.Wait != jsq.Wait || lr.Response != jsq.Response {
					t.Errorf("%s %s M=%d: %v, %s %v", c.lr, disc, m, lr.Wait, c.jsq, jsq.Wait)
				}
			}
		}
	}
}

// envoyEntry is EdfScheduler's EdfEntry: a deadline and the insertion
// order that breaks ties (FIFO).
type envoyEntry struct {
	deadline float64
	offset   uint64
	host     int
}

type envoyQueue []envoyEntry

func (q envoyQueue) Len() int { return len(q) }
func (q envoyQueue) Less(i, j int) bool {
	return q[i].deadline < q[j].deadline || q[i].deadline == q[j].deadline && q[i].offset < q[j].offset
}
func (q envoyQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *envoyQueue) Push(x any)   { *q = append(*q, x.(envoyEntry)) }
func (q *envoyQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// envoyScheduler transcribes EdfScheduler (add, pickAndAdd) and
// LeastRequestLoadBalancer::hostWeight.
type envoyScheduler struct {
	weights []float64
	bias    float64
	q       envoyQueue
	now     float64 // current_time_
	offset  uint64  // order_offset_
}

func (s *envoyScheduler) hostWeight(host, active int) float64 {
	w := s.weights[host]
	n := uint64(active) + 1
	if s.bias == 1 {
		return w / float64(n)
	} else if s.bias != 0 {
		return w / math.Pow(float64(n), s.bias)
	}
	return w
}

func (s *envoyScheduler) add(weight float64, host int) {
	heap.Push(&s.q, envoyEntry{deadline: s.now + 1.0/weight, offset: s.offset, host: host})
	s.offset++
}

func (s *envoyScheduler) pickAndAdd(active func(int) int) int {
	e := heap.Pop(&s.q).(envoyEntry)
	s.now = e.deadline
	s.add(s.hostWeight(e.host, active(e.host)), e.host)
	return e.host
}

// newEnvoyScheduler is EdfLoadBalancerBase::refresh before createWithPicks:
// every host added with no request active, then seed % K picks.
func newEnvoyScheduler(weights []float64, bias float64, seed int) *envoyScheduler {
	s := &envoyScheduler{weights: weights, bias: bias}
	for h := range weights {
		s.add(s.hostWeight(h, 0), h)
	}
	for range seed % len(weights) {
		s.pickAndAdd(func(int) int { return 0 })
	}
	return s
}

// envoyWeighted is the transcription as a policy of one's own: each
// dispatcher its schedule, the seed drawn from its stream with several.
type envoyWeighted struct {
	weights []float64
	bias    float64
}

func (p envoyWeighted) String() string { return fmt.Sprintf("envoy-edf:%v,%v", p.weights, p.bias) }
func (p envoyWeighted) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Count}
}
func (p envoyWeighted) Pick(*lbsim.View, float64) int { panic("start it") }
func (p envoyWeighted) Start(v *lbsim.View) lbsim.Policy {
	seed := 0
	if v.Dispatchers() > 1 {
		seed = v.Rand().IntN(v.K())
	}
	return &envoyRun{p, newEnvoyScheduler(p.weights, p.bias, seed)}
}

type envoyRun struct {
	envoyWeighted
	s *envoyScheduler
}

func (r *envoyRun) Pick(v *lbsim.View, _ float64) int { return r.s.pickAndAdd(v.Count) }

// Envoy's EDF schedule with unequal weights: the first picks of weights 2, 1
// with no request active (A B, then A A B for ever), and lbsim's runs equal
// to the bit the runs of the transcription above (so every choice is
// Envoy's), for several biases, live and on own counts.
func TestLeastRequestEDFIsEnvoys(t *testing.T) {
	s := newEnvoyScheduler([]float64{2, 1}, 0, 0)
	var got []int
	for range 11 {
		got = append(got, s.pickAndAdd(func(int) int { return 0 }))
	}
	if want := []int{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}; !slices.Equal(got, want) {
		t.Fatalf("transcription's picks %v, want %v", got, want)
	}
	speeds := []float64{3, 2, 1, 1}
	for _, bias := range []float64{1, 0, 0.5, 2} {
		for _, m := range []int{1, 3} {
			for _, disc := range []lbsim.Discipline{lbsim.FCFS, lbsim.PS} {
				cfg := lbsim.Config{Servers: 4, Speeds: speeds, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Discipline: disc,
					Policy: lbsim.LeastRequest{D: 2, Bias: bias, Weights: lbsim.Weights{Speed: true}}, Dispatchers: m, Jobs: 40_000, Reps: 2, Seed: 3}
				if m > 1 {
					cfg.View = lbsim.OwnView
				}
				got := mustRun(t, cfg)
				cfg.Policy = envoyWeighted{weights: speeds, bias: bias}
				want := mustRun(t, cfg)
				if got.Wait != want.Wait || got.Response != want.Response {
					t.Errorf("bias %v, M=%d, %s: lr %v, the transcription %v", bias, m, disc, got.Wait, want.Wait)
				}
			}
		}
	}
}

// nginxLeastConn transcribes ngx_http_upstream_get_least_conn_peer (no
// failures, no max_conns: effective_weight = weight) as a policy of one's own.
type nginxLeastConn struct{ weights []int }

func (p nginxLeastConn) String() string { return fmt.Sprintf("nginx-least-conn:%v", p.weights) }
func (p nginxLeastConn) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Count}
}
func (p nginxLeastConn) Pick(*lbsim.View, float64) int { panic("start it") }
func (p nginxLeastConn) Start(*lbsim.View) lbsim.Policy {
	return &nginxPeers{p, make([]int, len(p.weights))}
}

type nginxPeers struct {
	nginxLeastConn
	current []int // current_weight
}

func (r *nginxPeers) Pick(v *lbsim.View, _ float64) int {
	w := r.weights
	best, many, p := -1, false, 0
	for i := range w {
		if best < 0 || v.Count(i)*w[best] < v.Count(best)*w[i] {
			best, many, p = i, false, i
		} else if v.Count(i)*w[best] == v.Count(best)*w[i] {
			many = true
		}
	}
	total := 0
	if many {
		for i := p; i < len(w); i++ {
			if v.Count(i)*w[best] != v.Count(best)*w[i] {
				continue
			}
			r.current[i] += w[i]
			total += w[i]
			if r.current[i] > r.current[best] {
				best = i
			}
		}
	}
	r.current[best] -= total
	return best
}

// nginx's weighted least_conn: lbsim's runs equal to the bit the runs of the
// transcription above, for equal, given and speed weights, live and own.
func TestWeightedLeastConnIsNginxs(t *testing.T) {
	speeds := []float64{3, 2, 2, 1, 1}
	for _, c := range []struct {
		spec    string
		weights []int
	}{
		{"wlc", []int{1, 1, 1, 1, 1}}, {"wlc:weights=speed", []int{3, 2, 2, 1, 1}}, {"wlc:weights=1/2/1/1/4", []int{1, 2, 1, 1, 4}},
	} {
		for _, m := range []int{1, 3} {
			cfg := lbsim.Config{Servers: 5, Speeds: speeds, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: mustParse(t, c.spec),
				Dispatchers: m, Jobs: 40_000, Reps: 2, Seed: 4}
			if m > 1 {
				cfg.View = lbsim.OwnView
			}
			got := mustRun(t, cfg)
			cfg.Policy = nginxLeastConn{c.weights}
			want := mustRun(t, cfg)
			if got.Wait != want.Wait || got.Response != want.Response {
				t.Errorf("%s, M=%d: %v, the transcription %v", c.spec, m, got.Wait, want.Wait)
			}
		}
	}
}

// wlc with equal weights on equal speeds is JSQ in law (which tied server
// gets the job does not change the counts): lbsim's theory is JSQ's exact
// chain, and the simulation agrees with it.
func TestWeightedLeastConnEqualIsJSQ(t *testing.T) {
	t.Parallel()
	cfg := lbsim.Config{Servers: 3, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: mustParse(t, "wlc"), Jobs: 400_000, Warmup: 10_000, Reps: 8, Seed: 6}
	jsq, err := theory.DispatchExact(theory.DispatchRule{}, 2.4, []float64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := lbsim.Exact(cfg)
	if !ok || math.Abs(ref.Wait-jsq.Wait) > 1e-12 {
		t.Errorf("lbsim.Exact %v %v, JSQ's chain %v", ref, ok, jsq)
	}
	r := mustRun(t, cfg)
	t.Logf("wlc K=3 load 0.8: simulated %v, JSQ exact %.5f", r.Wait, jsq.Wait)
	if d := math.Abs(r.Wait.Mean - jsq.Wait); d > 1.5*r.Wait.CI95 {
		t.Errorf("simulated %v, JSQ's exact %.5f (off by %.2f half-widths)", r.Wait, jsq.Wait, d/r.Wait.CI95)
	}
	cfg.Speeds = []float64{2, 1, 1} // ties among unequal speeds: no chain of JSQ's
	if _, ok := lbsim.Exact(cfg); ok {
		t.Error("an exact value for wlc with equal weights on unequal speeds")
	}
}

// wlcState is K = 2 servers' jobs and nginx's current weights.
type wlcState struct{ n1, n2, c1, c2 int }

// wlc with weights 2, 1 on speeds 2, 1 (K = 2, exponential sizes, FCFS):
// the exact chain on (n1, n2, current weights), the nginx rule written
// here, against the simulation.
func TestWeightedLeastConnExactChain(t *testing.T) {
	t.Parallel()
	const load = 0.7
	mu := []float64{2, 1}
	lambda := load * 3
	// choose is nginx's pick on two servers of weights 2, 1: the state after it.
	choose := func(s wlcState) (int, wlcState) {
		a, b := s.n1*1, s.n2*2 // n1/2 against n2/1 by cross products
		switch {
		case a < b:
			return 0, s
		case b < a:
			return 1, s
		}
		s.c1, s.c2 = s.c1+2, s.c2+1
		if s.c2 > s.c1 {
			s.c2 -= 3
			return 1, s
		}
		s.c1 -= 3
		return 0, s
	}
	solve := func(n int) (float64, float64) {
		ch := theory.Chain[wlcState]{
			Next: func(s wlcState, emit func(wlcState, float64)) {
				k, to := choose(s)
				if k == 0 {
					to.n1++
				} else {
					to.n2++
				}
				emit(to, lambda)
				if s.n1 > 0 {
					d := s
					d.n1--
					emit(d, mu[0])
				}
				if s.n2 > 0 {
					d := s
					d.n2--
					emit(d, mu[1])
				}
			},
			Keep:  func(s wlcState) bool { return s.n1+s.n2 <= n },
			Level: func(s wlcState) int { return s.n1 + s.n2 },
		}
		st, err := ch.Solve()
		if err != nil {
			t.Fatal(err)
		}
		jobs := st.Mean(func(s wlcState) float64 { return float64(s.n1 + s.n2) })
		service := st.Mean(func(s wlcState) float64 { k, _ := choose(s); return 1 / mu[k] })
		return jobs/lambda - service, st.BoundaryMass
	}
	w, mass := solve(80)
	w2, _ := solve(120)
	if mass > 1e-9 || math.Abs(w2-w) > 1e-8 {
		t.Fatalf("truncation: boundary mass %g, change %g", mass, w2-w)
	}
	cfg := lbsim.Config{Servers: 2, Speeds: mu, Load: load, Sizes: lbsim.Exponential{M: 1}, Policy: mustParse(t, "wlc:weights=2/1"),
		Jobs: 400_000, Warmup: 10_000, Reps: 8, Seed: 8}
	r := mustRun(t, cfg)
	t.Logf("wlc:weights=2/1, speeds 2, 1, load %v: simulated %v, exact %.5f", load, r.Wait, w)
	if d := math.Abs(r.Wait.Mean - w); d > 1.5*r.Wait.CI95 {
		t.Errorf("simulated %v, exact %.5f (off by %.2f half-widths)", r.Wait, w, d/r.Wait.CI95)
	}
}

// lr with d large approaches JSQ: at d = 64 K draws miss a server with
// probability below K e^-64, so the choice is JSQ's in law (K = 3, equal
// speeds): the simulated mean wait falls with d onto JSQ's exact value.
func TestLeastRequestLargeDIsJSQ(t *testing.T) {
	t.Parallel()
	jsq, err := theory.DispatchExact(theory.DispatchRule{}, 2.4, []float64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	var waits []float64
	for _, d := range []int{2, 4, 192} {
		cfg := lbsim.Config{Servers: 3, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.LeastRequest{D: d, Bias: 1},
			Jobs: 300_000, Warmup: 10_000, Reps: 8, Seed: 7}
		r := mustRun(t, cfg)
		t.Logf("lr d=%d: %v (JSQ exact %.5f)", d, r.Wait, jsq.Wait)
		waits = append(waits, r.Wait.Mean)
		if d == 192 {
			if dd := math.Abs(r.Wait.Mean - jsq.Wait); dd > 1.5*r.Wait.CI95 {
				t.Errorf("lr d=192: %v, JSQ exact %.5f", r.Wait, jsq.Wait)
			}
		}
	}
	if !(waits[0] > waits[1] && waits[1] > waits[2]) {
		t.Errorf("mean waits %v do not fall with d", waits)
	}
}

// Bad parameters are refused with the value, the range and a fix; the
// Description says what each reads.
func TestProxyPoliciesChecksAndFacts(t *testing.T) {
	for _, c := range []struct {
		p    lbsim.Policy
		want string
	}{
		{lbsim.LeastRequest{D: 0, Bias: 1}, "d=0 is invalid: need d >= 1"},
		{lbsim.LeastRequest{D: 2, Bias: -1}, "bias=-1 is invalid"},
		{lbsim.LeastRequest{D: 2, Bias: math.NaN()}, "bias=NaN is invalid"},
		{lbsim.LeastRequest{D: 2, Bias: math.Inf(1)}, "bias=+Inf is invalid"},
		{lbsim.LeastRequest{D: 257, Bias: 1}, "need 1 <= d <= 256"},
		{lbsim.LeastRequest{D: 2, Bias: 1, Weights: lbsim.Weights{Values: []float64{1, 2}}}, "2 weights for K=4"},
		{lbsim.WeightedLeastConn{Weights: lbsim.Weights{Values: []float64{1, 0, 1, 1}}}, "weight 2 is 0"},
	} {
		cfg := lbsim.Config{Servers: 4, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: c.p, Jobs: 1000}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.p, err, c.want)
		}
	}
	for _, spec := range []string{"lr:d=0", "lr:weights=fast", "wlc:weights=x"} {
		if _, err := lbsim.ParsePolicy(spec); err == nil {
			t.Errorf("%s parsed", spec)
		}
	}
	for _, c := range []struct {
		spec, label string
		d, probes   int
	}{
		{"lr", "LR-2", 2, 2}, {"lr:d=3", "LR-3", 3, 3}, {"lr:weights=speed", "LR-speed", 0, 1},
		{"lr:weights=2/1/1/1,bias=0.5", "LR-w-b0.5", 0, 1}, {"wlc", "WLC", 4, 4}, {"wlc:weights=speed", "WLC-speed", 4, 4},
	} {
		p := mustParse(t, c.spec)
		if p.String() != c.spec && mustParse(t, p.String()).String() != p.String() {
			t.Errorf("%s reads back as %s", c.spec, p)
		}
		d := lbsim.Describe(p, lbsim.Config{Servers: 4, Speeds: []float64{2, 1, 1, 1}, Policy: p})
		if d.Label != c.label || d.D != c.d || d.Probes != c.probes || d.Reads != lbsim.Count {
			t.Errorf("%s: label %q d %d probes %d reads %v, want %q %d %d Count", c.spec, d.Label, d.D, d.Probes, d.Reads, c.label, c.d, c.probes)
		}
	}
}

// edfState is lr's state on two servers of weights 2 and 1 with bias 1:
// the jobs at each, server A's deadline minus B's in halves (the
// increments (n_A+1)/2 and (n_B+1)/1 are whole halves, so the simulator's
// deadlines are exact too) and, when they tie, whether A was inserted first.
type edfState struct {
	n1, n2, delta int
	aFirst        bool
}

// Envoy's EDF schedule has no finite chain in general (the deadlines'
// offsets are unbounded reals); on two servers of weights 2, 1 with bias 1
// every offset is a whole number of halves, bounded by the counts, and the
// chain on (n1, n2, offset, tie order), truncated by the total, is exact:
// the simulated mean wait against it (speeds 2, 1, exponential sizes, FCFS).
func TestLeastRequestEDFExactChain(t *testing.T) {
	t.Parallel()
	const load = 0.6
	mu := []float64{2, 1}
	lambda := load * 3
	pickA := func(s edfState) bool { return s.delta < 0 || s.delta == 0 && s.aFirst }
	solve := func(n int) (float64, float64) {
		ch := theory.Chain[edfState]{
			Start: edfState{delta: -1, aFirst: true}, // deadlines 1/2 and 1, A added first
			Next: func(s edfState, emit func(edfState, float64)) {
				to := s
				if pickA(s) { // A re-inserted last at now + (n1+1)/2
					to.n1, to.delta, to.aFirst = s.n1+1, s.delta+s.n1+1, false
				} else { // B at now + (n2+1)/1
					to.n2, to.delta, to.aFirst = s.n2+1, s.delta-2*(s.n2+1), true
				}
				to.aFirst = to.aFirst && to.delta == 0 // the order matters only in a tie
				emit(to, lambda)
				if s.n1 > 0 {
					d := s
					d.n1--
					emit(d, mu[0])
				}
				if s.n2 > 0 {
					d := s
					d.n2--
					emit(d, mu[1])
				}
			},
			Keep:  func(s edfState) bool { return s.n1+s.n2 <= n },
			Level: func(s edfState) int { return s.n1 + s.n2 },
		}
		st, err := ch.Solve()
		if err != nil {
			t.Fatal(err)
		}
		jobs := st.Mean(func(s edfState) float64 { return float64(s.n1 + s.n2) })
		service := st.Mean(func(s edfState) float64 {
			if pickA(s) {
				return 1 / mu[0]
			}
			return 1 / mu[1]
		})
		t.Logf("truncated at %d jobs: %d states, boundary mass %.2g", n, len(st.States), st.BoundaryMass)
		return jobs/lambda - service, st.BoundaryMass
	}
	w, mass := solve(46)
	w2, _ := solve(60)
	if mass > 1e-9 || math.Abs(w2-w) > 1e-8 {
		t.Fatalf("truncation: boundary mass %g, change %g", mass, w2-w)
	}
	cfg := lbsim.Config{Servers: 2, Speeds: mu, Load: load, Sizes: lbsim.Exponential{M: 1}, Policy: mustParse(t, "lr:weights=speed"),
		Jobs: 400_000, Warmup: 10_000, Reps: 8, Seed: 12}
	r := mustRun(t, cfg)
	t.Logf("lr:weights=speed, speeds 2, 1, load %v: simulated %v, exact %.5f", load, r.Wait, w)
	if d := math.Abs(r.Wait.Mean - w); d > 1.5*r.Wait.CI95 {
		t.Errorf("simulated %v, exact %.5f (off by %.2f half-widths)", r.Wait, w, d/r.Wait.CI95)
	}
}

// nginx's least_conn at equal weights is JSQ with nginx's tie rule: wlc
// and jsq:ties=rr, two policies on one swrrTied, give one run, own counts
// of 4 dispatchers under PS as one dispatcher under FCFS.
func TestWLCIsJSQTiesRR(t *testing.T) {
	h2, _ := lbsim.NewH2Balanced(1, 10)
	for _, c := range []lbsim.Config{
		{Servers: 8, Load: 0.7, Sizes: h2, View: lbsim.OwnView, Dispatchers: 4, Discipline: lbsim.PS, Jobs: 50000, Reps: 2, Seed: 4},
		{Servers: 5, Load: 0.8, Sizes: h2, Jobs: 50000, Reps: 4, Seed: 4},
	} {
		c.Policy = lbsim.WeightedLeastConn{}
		a, err := lbsim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		c.Policy = lbsim.JSQ{Ties: lbsim.TiesRR}
		b, err := lbsim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		if a.Response != b.Response || a.Wait != b.Wait {
			t.Errorf("%v: wlc %v, jsq:ties=rr %v", c.Discipline, a.Response, b.Response)
		}
	}
}
