package lbsim_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// The tie rules print back as their specs (random as the plain spec), and a
// bad word is refused with the word, the allowed words and an example.
func TestTiesSpecs(t *testing.T) {
	for spec, want := range map[string]string{
		"jsq:ties=random": "jsq", "jsq:ties=first": "jsq:ties=first", "jsq:d=2,ties=oldest": "jsq:d=2,ties=oldest",
		"sed:ties=rr": "sed:ties=rr", "sed:d=2,ties=first": "sed:d=2,ties=first", "lwl:ties=oldest": "lwl:ties=oldest",
		"ll:d=2,ties=rr": "ll:d=2,ties=rr", "ll:d=2,ties=random": "ll:d=2",
	} {
		p, err := lbsim.ParsePolicy(spec)
		if err != nil || p.String() != want {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %s", spec, p, err, want)
			continue
		}
		if q, err := lbsim.ParsePolicy(p.String()); err != nil || q != p {
			t.Errorf("%s does not read back: %v, %v", p, q, err)
		}
	}
	if p, err := lbsim.ParsePolicy("jsq:d=2,ties=random"); err != nil || p != (lbsim.JSQ{D: 2}) {
		t.Errorf("jsq:d=2,ties=random is %#v, %v: want the value of jsq:d=2 (its runs, to the bit)", p, err)
	}
	if got := lbsim.Label(lbsim.JSQ{Ties: lbsim.TiesFirst}); got != "JSQ (ties first)" {
		t.Errorf("label %q", got)
	}
	_, err := lbsim.ParsePolicy("jsq:ties=lowest")
	for _, w := range []string{"ties=lowest", "random, first, oldest, rr", "jsq:ties=first"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("jsq:ties=lowest: error %v, want it to say %q", err, w)
		}
	}
	base := lbsim.Config{Servers: 3, Load: 0.5, Sizes: exp1, Jobs: 1000}
	for _, c := range []struct {
		p      lbsim.Policy
		refr   float64
		m      int
		reason string
	}{
		{lbsim.JSQ{D: 2, Mem: 1, Ties: lbsim.TiesFirst}, 0, 1, "mem or replace"},
		{lbsim.JSQ{D: 2, Replace: true, Ties: lbsim.TiesRR}, 0, 1, "mem or replace"},
		{lbsim.JSQ{Ties: lbsim.TiesOldest}, 1, 1, "refresh=1"},
		{lbsim.SED{Ties: lbsim.TiesOldest}, 0, 2, "2 dispatchers"},
	} {
		cfg := base
		cfg.Policy, cfg.Refresh, cfg.Dispatchers = c.p, c.refr, c.m
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: error %v, want one naming %q", c.p, err, c.reason)
		}
	}
}

// Exponential sizes, equal speeds, FCFS, JSQ over K = 3: a tie rule leaves
// the law of the sorted counts, so the mean response is the exact chain's
// (the run's own reference); but first sends server 0 more jobs, the share
// the chain written here gives (an arrival joins server 0 whenever it has
// the fewest jobs, ties included).
func TestTiesJSQEqualSpeeds(t *testing.T) {
	const rho, k = 0.7, 3
	lambda := rho * k
	st, err := theory.Chain[[3]int]{
		Next: func(s [3]int, emit func([3]int, float64)) {
			best := 0
			for j := 1; j < k; j++ {
				if s[j] < s[best] {
					best = j
				}
			}
			to := s
			to[best]++
			emit(to, lambda)
			for j := range k {
				if s[j] > 0 {
					to := s
					to[j]--
					emit(to, 1)
				}
			}
		},
		Keep:  func(s [3]int) bool { return s[0] <= 30 && s[1] <= 30 && s[2] <= 30 },
		Level: func(s [3]int) int { return s[0] + s[1] + s[2] },
	}.Solve()
	if err != nil {
		t.Fatal(err)
	}
	share0 := st.Mean(func(s [3]int) float64 {
		if s[0] <= s[1] && s[0] <= s[2] {
			return 1
		}
		return 0
	})
	for _, rule := range []lbsim.Ties{lbsim.TiesFirst, lbsim.TiesOldest, lbsim.TiesRR} {
		cfg := lbsim.Config{Servers: k, Load: rho, Sizes: exp1, Policy: lbsim.JSQ{Ties: rule}, Jobs: 200_000, Reps: 8}
		r := run(t, cfg)
		if !r.HasExact {
			t.Fatalf("%s: no exact reference (%s)", cfg.Policy, r.Exact.Method)
		}
		within(t, cfg.Policy.String()+" response", r.Response, r.Exact.Response, 0)
		if rule != lbsim.TiesFirst {
			continue
		}
		// The share of jobs, from the work (sizes do not depend on the choice),
		// over 6 seeds: its mean within 4 standard errors of the chain's.
		var shares []float64
		for seed := range 6 {
			cfg.Seed, cfg.Reps = uint64(seed+1), 1
			u := run(t, cfg).ServerUtilization
			shares = append(shares, u[0]/(u[0]+u[1]+u[2]))
		}
		m, se := meanSE(shares)
		if math.Abs(m-share0) > 4*se || share0 < 0.36 { // well above 1/3
			t.Errorf("JSQ first: server 0's share %.4f ± %.4f (s.e.), chain %.4f", m, se, share0)
		} else {
			t.Logf("JSQ first: server 0's share %.4f ± %.4f (s.e.), chain %.4f", m, se, share0)
		}
	}
}

func meanSE(x []float64) (m, se float64) {
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		se += (v - m) * (v - m)
	}
	return m, math.Sqrt(se / float64(len(x)-1) / float64(len(x)))
}

// Speeds 2, 1, 1: ties to the lowest-numbered server (the fast one) and
// uniform ties have different exact chains (theory.DispatchRule.First),
// and each run matches its own.
func TestTiesFirstUnequalSpeeds(t *testing.T) {
	speeds := []float64{2, 1, 1}
	const rho = 0.7
	var exact [2]float64
	for i, first := range []bool{false, true} {
		d, err := theory.DispatchExact(theory.DispatchRule{First: first}, rho*4, speeds)
		if err != nil {
			t.Fatal(err)
		}
		exact[i] = d.Response
		p := lbsim.JSQ{}
		if first {
			p.Ties = lbsim.TiesFirst
		}
		r := run(t, lbsim.Config{Servers: 3, Speeds: speeds, Load: rho, Sizes: exp1, Policy: p, Jobs: 300_000, Reps: 8})
		if r.Exact.Response != d.Response {
			t.Errorf("%s: the run's exact %v (%s), the chain's %v", p, r.Exact.Response, r.Exact.Method, d.Response)
		}
		within(t, p.String()+" speeds 2,1,1", r.Response, d.Response, 0)
	}
	if math.Abs(exact[0]-exact[1]) < 0.01 {
		t.Errorf("exact JSQ random %v and first %v do not differ", exact[0], exact[1])
	}
}

// Under SRPT with H2 sizes (SCV 10) first costs about 1% of the mean over
// random ties, far beyond the paired interval; with exponential sizes at
// equal speeds under FCFS the paired difference is nil within its interval
// (see Ties for why).
func TestTiesFirstSRPT(t *testing.T) {
	h2, err := lbsim.NewH2Balanced(1, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sizes  lbsim.SizeLaw
		disc   lbsim.Discipline
		differ bool
	}{{h2, lbsim.SRPT, true}, {exp1, lbsim.FCFS, false}} {
		var units [2][]float64
		for i, p := range []lbsim.Policy{lbsim.JSQ{}, lbsim.JSQ{Ties: lbsim.TiesFirst}} {
			r := run(t, lbsim.Config{Servers: 4, Load: 0.8, Sizes: c.sizes, Policy: p, Discipline: c.disc, Jobs: 200_000, Reps: 10, Seed: 3})
			units[i] = r.Units["mean_response"]
		}
		var d []float64
		for i := range units[0] {
			d = append(d, units[1][i]-units[0][i])
		}
		m, se := meanSE(d)
		ci := 2.262 * se // t_{0.975, 9}
		if differ := math.Abs(m) > 1.5*ci; differ != c.differ {
			t.Errorf("%s %s: first - random = %.4f ± %.4f (paired), want a difference: %v", c.sizes, c.disc, m, ci, c.differ)
		} else {
			t.Logf("%s %s: first - random = %.4f ± %.4f (paired)", c.sizes, c.disc, m, ci)
		}
	}
}

// recorder logs the servers its policy picks in recorded (the value itself
// must not change in a run).
type recorder struct{ lbsim.Policy }

var recorded []int

func (r recorder) Start(v *lbsim.View) lbsim.Policy { return recorder{lbsim.Start(r.Policy, v)} }
func (r recorder) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Count}
}
func (r recorder) Pick(v *lbsim.View, x float64) int {
	k := r.Policy.Pick(v, x)
	recorded = append(recorded, k)
	return k
}

// On a trace (K = 3, FCFS, speed 1), JSQ with ties=oldest and ties=rr
// choose, job by job, the servers that transcriptions of HAProxy 2.6's
// leastconn and nginx's least_conn written here choose.
func TestTiesOldestRRTranscribed(t *testing.T) {
	const k, n = 3, 400
	r := lbsim.NewStream(11, 1)
	tr := lbsim.Trace{Times: make([]float64, n), Sizes: make([]float64, n)}
	clock := 0.0
	for i := range n {
		clock += r.ExpFloat64() / 2.4
		tr.Times[i], tr.Sizes[i] = clock, r.ExpFloat64()
	}
	for _, rule := range []lbsim.Ties{lbsim.TiesOldest, lbsim.TiesRR} {
		recorded = nil
		run(t, lbsim.Config{Servers: k, Trace: &tr, Policy: recorder{lbsim.JSQ{Ties: rule}}, Workers: 1, Batches: 2})
		got := recorded
		want, ties := transcribed(tr, k, rule)
		if len(got) < n || !slices.Equal(got[len(got)-n:], want) || ties < 50 {
			t.Errorf("%s: %d ties; lbsim chose %v\nthe transcription %v", rule, ties, got, want)
		}
		recorded = nil // the other rule differs: the trace tells them apart
		other := map[lbsim.Ties]lbsim.Ties{lbsim.TiesOldest: lbsim.TiesRR, lbsim.TiesRR: lbsim.TiesOldest}[rule]
		run(t, lbsim.Config{Servers: k, Trace: &tr, Policy: recorder{lbsim.JSQ{Ties: other}}, Workers: 1, Batches: 2})
		if slices.Equal(recorded[len(recorded)-n:], want) {
			t.Errorf("%s: the other rule chose the same servers", rule)
		}
		t.Logf("%s: %d of %d jobs found a tie; %d picks recorded", rule, ties, n, len(got))
	}
}

// transcribed replays tr on k FCFS servers of speed 1 with least
// connections and HAProxy's or nginx's tie rule; it returns the servers
// chosen and the number of jobs that found a tie.
func transcribed(tr lbsim.Trace, k int, rule lbsim.Ties) (chosen []int, ties int) {
	conns := make([]int, k)
	deps := make([][]float64, k) // each server's departure times, FCFS
	free := make([]float64, k)
	tree := []int{} // HAProxy: servers by key, equal keys in insertion order
	reposition := func(s int) {
		tree = slices.DeleteFunc(tree, func(x int) bool { return x == s })
		p := 0
		for p < len(tree) && conns[tree[p]] <= conns[s] { // eb32_insert: after its duplicates
			p++
		}
		tree = slices.Insert(tree, p, s)
	}
	for s := range k {
		reposition(s)
	}
	cw := make([]int, k) // nginx: current_weight, weights 1
	for i, a := range tr.Times {
		for { // departures due by a, in time order
			s := -1
			for j := range k {
				if len(deps[j]) > 0 && deps[j][0] <= a && (s < 0 || deps[j][0] < deps[s][0]) {
					s = j
				}
			}
			if s < 0 {
				break
			}
			deps[s], conns[s] = deps[s][1:], conns[s]-1
			reposition(s)
		}
		best, many := -1, false
		for j := range k { // ngx_http_upstream_get_least_conn_peer's first scan
			if best < 0 || conns[j] < conns[best] {
				best, many = j, false
			} else if conns[j] == conns[best] {
				many = true
			}
		}
		if many {
			ties++
		}
		if rule == lbsim.TiesOldest {
			best = tree[0] // fwlc_get_next_server: the tree's first
		} else if many {
			total := 0
			for j := best; j < k; j++ {
				if conns[j] != conns[best] {
					continue
				}
				cw[j]++
				total++
				if cw[j] > cw[best] {
					best = j
				}
			}
			cw[best] -= total
		}
		chosen = append(chosen, best)
		conns[best]++
		reposition(best)
		free[best] = math.Max(free[best], a) + tr.Sizes[i]
		deps[best] = append(deps[best], free[best])
	}
	return chosen, ties
}

// The other policies and disciplines under a tie rule, each against its
// exact reference: JSQ-2 and JSQ under PS at equal speeds (the chain of
// random ties, the same law), SED with ties first at speeds 2, 1, 1 (the
// chain with ties to the lowest-numbered of the fastest tied), LWL (the
// central M/M/3 queue: which idle server a job takes does not matter).
func TestTiesOtherPolicies(t *testing.T) {
	for _, c := range []struct {
		p      lbsim.Policy
		speeds []float64
		disc   lbsim.Discipline
	}{
		{lbsim.JSQ{D: 2, Ties: lbsim.TiesOldest}, nil, lbsim.FCFS},
		{lbsim.JSQ{D: 2, Ties: lbsim.TiesRR}, nil, lbsim.FCFS},
		{lbsim.JSQ{Ties: lbsim.TiesOldest}, nil, lbsim.PS},
		{lbsim.SED{Ties: lbsim.TiesFirst}, []float64{2, 1, 1}, lbsim.FCFS},
		{lbsim.SED{D: 2, Ties: lbsim.TiesRR}, nil, lbsim.FCFS},
		{lbsim.LeastLoaded{Ties: lbsim.TiesOldest}, nil, lbsim.FCFS},
		{lbsim.LeastLoaded{Ties: lbsim.TiesFirst}, nil, lbsim.FCFS},
	} {
		r := run(t, lbsim.Config{Servers: 3, Speeds: c.speeds, Load: 0.7, Sizes: exp1, Policy: c.p, Discipline: c.disc, Jobs: 200_000, Reps: 8})
		if !r.HasExact {
			t.Errorf("%s %s: no exact reference (%s)", c.p, c.disc, r.Exact.Method)
			continue
		}
		within(t, c.p.String()+" "+c.disc.String()+" ("+r.Exact.Method+")", r.Response, r.Exact.Response, 0)
	}
}
