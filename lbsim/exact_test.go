package lbsim

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// Theory gives the closed forms the core's theory tests check against, and
// nothing where theory has no answer; Exact keeps only the exact ones, Limit
// only the K -> infinity limits (the cases named "limit").
func TestExact(t *testing.T) {
	hand := NewTwoPointBeta(1, 1000, 0.8)
	par15, _ := NewPareto(1.5, 1, 0)
	cases := []struct {
		name   string
		cfg    Config
		wait   float64 // NaN: no reference
		method string
	}{
		// P-K: E[W] = E[X^2]/(2E[X]) rho/(1-rho) = 1 * 0.5/0.5 for exp(1).
		{"rnd exp", Config{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}}, 1, "Pollaczek"},
		{"rnd handout 0.95", Config{Servers: 50, Load: 0.95, Sizes: hand, Policy: Random{}}, 7601.2, "Pollaczek"},
		{"rnd pareto 1.5", Config{Servers: 10, Load: 0.8, Sizes: par15, Policy: Random{}}, math.Inf(1), "inf"},
		// PS: E[R] = 1/(1-rho) = 2, wait = R - 1.
		{"rnd ps", Config{Servers: 10, Load: 0.5, Sizes: par15, Policy: Random{}, Discipline: PS}, 1, "PS"},
		{"rr exp K=2 0.9", Config{Servers: 2, Load: 0.9, Sizes: Exponential{M: 1}, Policy: RoundRobin{}}, 6.588, "E_2/M/1"},
		{"sita handout", Config{Servers: 100, Load: 0.9, Sizes: hand, Policy: SITA{C: 20}}, 22.40, "M/D/1"},
		// Erlang C: M/M/2 at rho 0.5: C = 1/3, W = C/(K mu - lambda) = (1/3)/1.
		{"lwl mm2", Config{Servers: 2, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LeastLoaded{}}, 1.0 / 3, "Erlang"},
		{"jsq-2 limit", Config{Servers: 100, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}}, 2.6141 - 1, "limit"},
		{"ll-2 limit", Config{Servers: 100, Load: 0.9, Sizes: Exponential{M: 1}, Policy: LeastLoaded{D: 2}}, 2.0503 - 1, "limit"},
		{"jsq(2,1) limit", Config{Servers: 100, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2, Mem: 1}}, 2.1687 - 1, "JSQ(2,1) mean-field"},
		{"jiq limit", Config{Servers: 100, Load: 0.9, Sizes: hand, Policy: JIQ{}}, 0, "JIQ limit"},
		{"ll(2,1): none", Config{Servers: 100, Load: 0.9, Sizes: Exponential{M: 1}, Policy: LeastLoaded{D: 2, Mem: 1}}, math.NaN(), ""},
		{"jsq(2,2): none", Config{Servers: 100, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2, Mem: 2}}, math.NaN(), ""},
		{"one server, any policy", Config{Servers: 1, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JSQ{}}, 1, "Pollaczek"},
		{"rr pareto: none", Config{Servers: 10, Load: 0.5, Sizes: par15, Policy: RoundRobin{}}, math.NaN(), ""},
		{"jsq-2 at K=2: the chain", Config{Servers: 2, Load: 0.7, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}}, 1.1082, "Markov chain"},
		{"jiq at K=2: the chain", Config{Servers: 2, Load: 0.7, Sizes: Exponential{M: 1}, Policy: JIQ{}}, 1.3611, "Markov chain"},
		{"stale ll-2: none", Config{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: LeastLoaded{D: 2}, Refresh: 1}, math.NaN(), ""},
		{"trace: none", Config{Servers: 10, Trace: &Trace{Times: []float64{1}, Sizes: []float64{1}}, Policy: Random{}}, math.NaN(), ""},
	}
	for _, c := range cases {
		c.cfg.Jobs = 1
		ref, ok := Theory(c.cfg)
		_, exact := Exact(c.cfg)
		_, limit := Limit(c.cfg)
		wantLimit := strings.HasSuffix(c.name, "limit")
		if exact != (ok && !wantLimit) || limit != (ok && wantLimit) || ok && wantLimit != (ref.Kind == LimitValue) {
			t.Errorf("%s: kind %q, Exact %v, Limit %v; want a limit: %v", c.name, ref.Kind, exact, limit, wantLimit)
		}
		if math.IsNaN(c.wait) {
			if ok {
				t.Errorf("%s: got %+v, want no reference", c.name, ref)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: no reference", c.name)
			continue
		}
		if !(math.IsInf(c.wait, 1) && math.IsInf(ref.Wait, 1)) && math.Abs(ref.Wait-c.wait) > 1e-3*math.Max(1, c.wait) {
			t.Errorf("%s: wait %v, want %v", c.name, ref.Wait, c.wait)
		}
		if !strings.Contains(ref.Method, c.method) {
			t.Errorf("%s: method %q, want it to name %q", c.name, ref.Method, c.method)
		}
	}
}

// The exact chains the README promises for count-based policies with
// exponential sizes at K <= theory.DispatchMaxServers and any speeds,
// which the old budget of 100,000 states refused without a word. The
// waits are the independent reference of theory's
// TestDispatchExactLargeChains (the full chain with enumerated routing,
// solved by Chain), for mean size 1; mean size 2 doubles them.
func TestExactChainsAtUnequalSpeeds(t *testing.T) {
	cases := []struct {
		policy Policy
		speeds []float64
		load   float64
		wait   float64
	}{
		{SED{}, []float64{3, 2, 1}, 0.8, 0.738940549159},
		{SED{D: 2}, []float64{3, 2, 1}, 0.7, 0.515422367613},
		{JIQ{}, []float64{3, 2, 1}, 0.6, 0.439057155309},
		{JIQ{}, []float64{3, 1}, 0.7, 3.480025439344},
	}
	for _, c := range cases {
		for _, mean := range []float64{1, 2} {
			cfg := Config{Servers: len(c.speeds), Speeds: c.speeds, Load: c.load, Sizes: Exponential{M: mean}, Policy: c.policy, Jobs: 1}
			ref, ok := Exact(cfg)
			if !ok {
				t.Errorf("%v speeds %v load %g: no exact value (%s)", c.policy, c.speeds, c.load, ref.NoExact)
				continue
			}
			if want := c.wait * mean; math.Abs(ref.Wait-want) > 1e-9*want || !strings.Contains(ref.Method, "Markov chain") {
				t.Errorf("%v speeds %v load %g mean %g: wait %.12f (%s), want %.12f", c.policy, c.speeds, c.load, mean, ref.Wait, ref.Method, want)
			}
		}
	}
}

// A promised chain beyond the budget gives no exact value, and says why:
// exact_method "none: ..." in the row, the reason in the text; HasExact
// stays false and the exact columns NaN. JSQ keeps its mean-field limit
// beside the reason. A policy without a chain says nothing.
func TestExactChainOutOfReach(t *testing.T) {
	speeds := []float64{8, 7, 6, 5, 4, 3, 2, 1}
	for _, cfg := range []Config{
		{Servers: 8, Speeds: speeds, Load: 0.9, Sizes: Exponential{M: 1}, Policy: SED{}},
		{Servers: 8, Load: 0.9, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}},
	} {
		cfg.Jobs, cfg.Seed = 2000, 1
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		row := NewRow(r)
		if r.HasExact || !math.IsNaN(row.ExactWait) || !strings.HasPrefix(row.ExactMethod, "none: ") ||
			!strings.Contains(row.ExactMethod, "DispatchMaxStates") || !strings.Contains(r.String(), "exact: none: ") {
			t.Errorf("%v: HasExact %v, exact_wait %v, exact_method %q; text:\n%s", cfg.Policy, r.HasExact, row.ExactWait, row.ExactMethod, r)
		}
		if _, jsq := cfg.Policy.(JSQ); jsq != r.HasLimit {
			t.Errorf("%v: HasLimit %v", cfg.Policy, r.HasLimit)
		}
	}
	cfg := Config{Servers: 8, Speeds: speeds, Load: 0.9, Sizes: Erlang{K: 4, M: 1}, Policy: SED{}, Jobs: 2000, Seed: 1}
	if r, err := Run(cfg); err != nil || NewRow(r).ExactMethod != "" {
		t.Errorf("SED with Erlang sizes: exact_method %q (%v), want nothing: no chain is promised", NewRow(r).ExactMethod, err)
	}
}

// Theory at unequal speeds is computed once for each class of alike
// servers and weighed by its count (perServer, rrQuantiles,
// randomSplitQuantiles): here against the average over the servers, one
// by one, straight from the theory package, on speeds whose classes are
// split into runs (2,1,2,1,1) and are not (2,2,1,1,1).
func TestTheoryPerClassIsPerServer(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	type perServer func(lambda float64, k int, mu float64) (theory.Delay, theory.Tail, theory.Tail)
	rrExp := func(lambda float64, k int, mu float64) (theory.Delay, theory.Tail, theory.Tail) {
		d, _ := theory.RoundRobinExp(lambda, k, 1/mu)
		g, _ := theory.ErlangGaps(k, float64(k)/lambda)
		w, r, _ := theory.GIM1Tails(g, mu)
		return d, w, r
	}
	rrH2 := func(lambda float64, k int, mu float64) (theory.Delay, theory.Tail, theory.Tail) {
		d, _ := theory.RoundRobinH2(lambda, k, theory.HyperExp{P1: h2.P1, Rate1: h2.Rate1, Rate2: h2.Rate2}, mu)
		return d, nil, nil
	}
	rrDet := func(lambda float64, k int, mu float64) (theory.Delay, theory.Tail, theory.Tail) {
		g, _ := theory.DetGaps(float64(k) / lambda)
		d, _ := theory.GIM1(g, mu)
		return d, nil, nil
	}
	rndDet := func(lambda float64, k int, mu float64) (theory.Delay, theory.Tail, theory.Tail) {
		g, _ := theory.ThinnedDetGaps(1/lambda, 1/float64(k))
		d, _ := theory.GIM1(g, mu)
		return d, nil, nil
	}
	// a random split: server k an M/G/1 queue of rate lambda p_k
	split := func(size SizeLaw, p func(mu float64) float64) perServer {
		return func(lambda float64, k int, mu float64) (theory.Delay, theory.Tail, theory.Tail) {
			r, _ := theory.WeightedRandomDispatch(lambda*p(mu), size, []float64{mu}, []float64{1})
			if _, ok := size.(Exponential); ok {
				w, resp, _ := theory.MMKTails(lambda*p(mu), 1, 1/mu)
				return r.Delay, w, resp
			}
			w, resp, _ := theory.MG1HyperExpTails(lambda*p(mu), []float64{h2.P1, 1 - h2.P1}, []float64{h2.Rate1 * mu, h2.Rate2 * mu})
			return r.Delay, w, resp
		}
	}
	for _, speeds := range [][]float64{{2, 1, 2, 1, 1}, {2, 2, 1, 1, 1}} {
		even := func(float64) float64 { return 1 / float64(len(speeds)) }
		bySpeed := func(mu float64) float64 { return mu / 7 } // sum of the speeds
		for _, c := range []struct {
			name     string
			policy   Policy
			sizes    SizeLaw
			arrivals ArrivalProcess
			server   perServer
			weight   func(mu float64) float64 // the share of the jobs a server gets
		}{
			{"rr, exp", RoundRobin{}, Exponential{M: 1}, nil, rrExp, even},
			{"rr:weights=1/1/1/1/1, exp", WeightedRoundRobin{Weights: Weights{Values: []float64{1, 1, 1, 1, 1}}}, Exponential{M: 1}, nil, rrExp, even},
			{"rr, h2", RoundRobin{}, h2, nil, rrH2, even},
			{"rr, exp, det arrivals", RoundRobin{}, Exponential{M: 1}, DeterministicArrivals{}, rrDet, even},
			{"rnd, exp", Random{}, Exponential{M: 1}, nil, split(Exponential{M: 1}, even), even},
			{"rnd, h2", Random{}, h2, nil, split(h2, even), even},
			{"rnd, exp, det arrivals", Random{}, Exponential{M: 1}, DeterministicArrivals{}, rndDet, even},
			{"rnd:weights=speed, h2", WeightedRandom{Weights: Weights{Speed: true}}, h2, nil, split(h2, bySpeed), bySpeed},
		} {
			name := fmt.Sprintf("%s on speeds %v", c.name, speeds)
			cfg := Config{Servers: len(speeds), Speeds: speeds, Load: 0.5, Sizes: c.sizes, Arrivals: c.arrivals, Policy: c.policy, Jobs: 1000}
			ref, ok := Exact(cfg)
			if !ok {
				t.Errorf("%s: no exact value", name)
				continue
			}
			var want theory.Delay
			var w []float64
			var waits, resps []theory.Tail
			for _, mu := range speeds {
				d, wait, resp := c.server(cfg.ArrivalRate(), len(speeds), mu)
				want.Wait, want.Response = want.Wait+c.weight(mu)*d.Wait, want.Response+c.weight(mu)*d.Response
				w, waits, resps = append(w, c.weight(mu)), append(waits, wait), append(resps, resp)
			}
			close := func(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-12*math.Abs(b) }
			if !close(ref.Wait, want.Wait) || !close(ref.Response, want.Response) {
				t.Errorf("%s: wait %.15g, response %.15g; per server %.15g, %.15g", name, ref.Wait, ref.Response, want.Wait, want.Response)
			}
			if waits[0] == nil {
				continue
			}
			if ref.Quantiles == nil {
				t.Errorf("%s: no exact quantiles", name)
				continue
			}
			wait, resp := theory.Mixture(w, waits), theory.Mixture(w, resps)
			for i, p := range Percentiles() {
				if qw, qr := theory.Quantile(wait, p.P), theory.Quantile(resp, p.P); !close(ref.Quantiles.Wait[i], qw) || !close(ref.Quantiles.Response[i], qr) {
					t.Errorf("%s: %s wait %.15g, response %.15g; per server %.15g, %.15g", name, p.Name, ref.Quantiles.Wait[i], ref.Quantiles.Response[i], qw, qr)
				}
			}
		}
	}
}
