package lbsim

import (
	"math"
	"strings"
	"testing"
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
