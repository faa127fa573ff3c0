package lbsim

import (
	"math"
	"testing"
)

// ownViewPSChain is the exact mean response time of M dispatchers that
// count their own jobs at K processor-sharing servers of speeds mu, with
// exponential sizes of mean 1 and Poisson arrivals at the load (rate load
// times the sum of the speeds) split evenly among the dispatchers. Under PS
// with exponential sizes the counts n_ik of dispatcher i's jobs at server k
// are a Markov chain: each of the n_k jobs at server k leaves at rate
// mu_k/n_k, so n_ik drops at rate mu_k n_ik/n_k. An arrival at dispatcher i
// goes to the server of least (n_ik + 1)/mu_k among d distinct servers
// drawn uniformly (d = 0: all K; each d-subset alike), ties to the faster,
// then uniformly: JSQ on own counts with equal speeds, SED otherwise. With
// M = 1 it is live JSQ (SED). Each server is truncated at L jobs (an
// arrival to a full server is lost). The chain is solved by Gauss-Seidel
// until the mean response, E[jobs] over the accepted arrival rate
// (Little), moves by less than 1e-11 in a sweep.
func ownViewPSChain(k, m, d int, mu []float64, load float64, l int) float64 {
	mk := m * k
	// A state is the counts n[i*k+c], a digit of base L+1 each.
	size := 1
	for range mk {
		size *= l + 1
	}
	index := make([]int32, size)
	var codes []int
	n := make([]int, mk)
	decode := func(code int) {
		for j := range n {
			n[j] = code % (l + 1)
			code /= l + 1
		}
	}
	weight := make([]int, mk) // the code's step for one more of n[j]
	for j := range weight {
		weight[j] = 1
		if j > 0 {
			weight[j] = weight[j-1] * (l + 1)
		}
	}
	at := func(c int) int { // jobs at server c
		s := 0
		for i := range m {
			s += n[i*k+c]
		}
		return s
	}
	for code := range size {
		decode(code)
		index[code] = -1
		ok := true
		for c := range k {
			ok = ok && at(c) <= l
		}
		if ok {
			index[code] = int32(len(codes))
			codes = append(codes, code)
		}
	}
	// The subsets a dispatcher samples, each alike.
	var subsets [][]int
	if d == 0 || d >= k {
		subsets = [][]int{make([]int, k)}
		for c := range k {
			subsets[0][c] = c
		}
	} else {
		for bitsOf := range 1 << k {
			var s []int
			for c := range k {
				if bitsOf>>c&1 == 1 {
					s = append(s, c)
				}
			}
			if len(s) == d {
				subsets = append(subsets, s)
			}
		}
	}
	total := 0.0
	for _, x := range mu {
		total += x
	}
	lambda := load * total
	type edge struct {
		from int32
		rate float64
	}
	in := make([][]edge, len(codes))
	out := make([]float64, len(codes))
	accepted := make([]float64, len(codes)) // accepted arrival rate in a state
	jobs := make([]float64, len(codes))
	for s, code := range codes {
		decode(code)
		for c := range k {
			nc := at(c)
			jobs[s] += float64(nc)
			for i := range m {
				if x := n[i*k+c]; x > 0 {
					r := mu[c] * float64(x) / float64(nc)
					to := index[code-weight[i*k+c]]
					in[to] = append(in[to], edge{int32(s), r})
					out[s] += r
				}
			}
		}
		for i := range m {
			for _, sub := range subsets {
				var best []int
				for _, c := range sub {
					if best == nil {
						best = []int{c}
						continue
					}
					x := float64(n[i*k+c]+1) / mu[c]
					y := float64(n[i*k+best[0]]+1) / mu[best[0]]
					switch {
					case x < y || x == y && mu[c] > mu[best[0]]:
						best = []int{c}
					case x == y && mu[c] == mu[best[0]]:
						best = append(best, c)
					}
				}
				for _, c := range best {
					if at(c) == l {
						continue // lost
					}
					r := lambda / float64(m) / float64(len(subsets)) / float64(len(best))
					to := index[code+weight[i*k+c]]
					in[to] = append(in[to], edge{int32(s), r})
					out[s] += r
					accepted[s] += r
				}
			}
		}
	}
	// The sweeps read the in-edges in one array, in the same order
	// (compressed rows): a slice a state, scattered over the heap, made
	// the sweeps wait on memory.
	first := make([]int32, len(codes)+1)
	var edges []edge
	for s, e := range in {
		edges = append(edges, e...)
		first[s+1] = int32(len(edges))
	}
	in = nil
	pi := make([]float64, len(codes))
	pi[0] = 1 // empty
	resp, last := 0.0, math.Inf(1)
	for math.Abs(resp-last) > 1e-11 {
		sum := 0.0
		for s := range pi {
			x := 0.0
			for _, e := range edges[first[s]:first[s+1]] {
				x += pi[e.from] * e.rate
			}
			if x > 0 || s != 0 {
				pi[s] = x / out[s]
			}
			sum += pi[s]
		}
		var n, a float64
		for s := range pi {
			pi[s] /= sum
			n += pi[s] * jobs[s]
			a += pi[s] * accepted[s]
		}
		last, resp = resp, n/a
	}
	return resp
}

// Several dispatchers under PS: lbsim's mean response against the exact
// chain of the per-dispatcher counts at each server, which lies clearly
// above the same chain with one dispatcher (live JSQ or SED): a view that
// sees every job, or never forgets a departed one, fails.
func TestOwnViewPSExactChain(t *testing.T) {
	t.Parallel() // no process-wide state; one replication a run and its chains: one core
	for _, tc := range []struct {
		k, m, d int
		mu      []float64
		load    float64
		l       int
	}{
		{k: 2, m: 2, mu: []float64{1, 1}, load: 0.6, l: 16},
		{k: 2, m: 3, mu: []float64{1, 1}, load: 0.5, l: 12},
		{k: 2, m: 2, mu: []float64{2, 1}, load: 0.6, l: 18}, // SED
		{k: 3, m: 2, d: 2, mu: []float64{1, 1, 1}, load: 0.5, l: 9},
	} {
		exact := ownViewPSChain(tc.k, tc.m, tc.d, tc.mu, tc.load, tc.l)
		coarser := ownViewPSChain(tc.k, tc.m, tc.d, tc.mu, tc.load, tc.l-2)
		live := ownViewPSChain(tc.k, 1, tc.d, tc.mu, tc.load, tc.l)
		var p Policy = JSQ{D: tc.d}
		if tc.mu[0] != tc.mu[1] {
			p = SED{D: tc.d}
		}
		c := Config{Servers: tc.k, Speeds: tc.mu, Load: tc.load, Sizes: Exponential{M: 1}, Policy: p, Discipline: PS,
			Dispatchers: tc.m, View: OwnView, Jobs: 4_000_000, Warmup: 10_000, Seed: 41}
		own, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: own view %v, chain %.5f (truncated at %d jobs a server; at %d: %.5f), one dispatcher's chain %.5f",
			c, own.Response, exact, tc.l, tc.l-2, coarser, live)
		one := c
		one.Dispatchers, one.View = 1, LiveView
		if ref, ok := Exact(one); !ok || math.Abs(ref.Response-live) > 1e-4 {
			t.Errorf("%s: the chain with one dispatcher gives %.5f, lbsim's exact value %+v", one, live, ref)
		}
		if d := math.Abs(exact - coarser); d > own.Response.CI95/10 {
			t.Errorf("%s: the chain's truncation moves its mean response by %.2g, over a tenth of the interval %.2g", c, d, own.Response.CI95)
		}
		if math.Abs(own.Response.Mean-exact) > own.Response.CI95 {
			t.Errorf("%s, own view: mean response %v, the exact chain's %.5f", c, own.Response, exact)
		}
		if exact-live < 5*own.Response.CI95 {
			t.Errorf("%s: the own view's exact mean response %.5f is not clearly above one dispatcher's %.5f", c, exact, live)
		}
	}
}
