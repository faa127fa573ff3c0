package lbsim

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// viaView runs a built-in policy through its Pick method and the View (the
// path of a user's policy) instead of its fast dispatcher. It is a policy
// of one's own whose optional methods, all exported, answer what lbsim says
// of the built-in policy p; Start wraps p's started value.
type viaView struct{ p Policy }

func (w viaView) String() string              { return w.p.String() }
func (w viaView) Pick(v *View, x float64) int { return w.p.Pick(v, x) }
func (w viaView) Start(v *View) Policy        { return viaView{Start(w.p, v)} }
func (w viaView) Theory(c Config) (Reference, bool) {
	c.Policy = w.p
	return policyTheory(c)
}
func (w viaView) Validate(k int, s SizeLaw) error {
	return impl(w.p).validate(&Config{Servers: k, Sizes: s, Policy: w.p})
}

// Describe is p's, in the exported form: its split as WorkShares where it
// has one class of jobs.
func (w viaView) Describe(c Config) Description {
	d := Describe(w.p, c)
	if split := d.jobSplit(); len(split) == 1 && split[0].shares != nil {
		d.WorkShares = split[0].shares
	}
	d.builtinFacts = builtinFacts{}
	return d
}

// runBothWays runs cfg with its policy's fast path, then through the View.
func runBothWays(t *testing.T, cfg Config) (fast, slow Result) {
	t.Helper()
	fast, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policy = viaView{cfg.Policy}
	if slow, err = Run(cfg); err != nil {
		t.Fatal(err)
	}
	return fast, slow
}

// The View gives a policy the same live state, stale board and tally as the
// built-in dispatchers: every built-in policy run through its Pick gives the
// fast path's numbers exactly (same random draws, same decisions), except
// LWL, JSQ over all K and JIQ, whose fast paths draw among idle servers
// in another order (compared statistically below).
func TestViewMatchesFastPaths(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	policies := []Policy{Random{}, RoundRobin{}, LeastLoaded{D: 2}, LeastLoaded{D: 3}, LeastLoaded{D: 2, Replace: true},
		JSQ{D: 2}, JSQ{D: 5}, JSQ{D: 3, Replace: true}, SITA{C: 5, Cut: 3}, SITA{Cuts: []float64{0.5, 2}, Servers: []int{2, 3, 5}}, SITA{Groups: 10},
		JSQ{D: 2, Mem: 1}, JSQ{D: 1, Mem: 2}, LeastLoaded{D: 2, Mem: 1}, LeastLoaded{D: 3, Replace: true, Mem: 2},
		LeastRequest{D: 3, Bias: 1}, LeastRequest{D: 2, Bias: 0.5, Weights: Weights{Values: []float64{3, 2, 2, 1, 1, 1, 1, 1, 1, 1}}},
		WeightedLeastConn{Weights: Weights{Values: []float64{3, 2, 2, 1, 1, 1, 1, 1, 1, 1}}}}
	boards := []struct {
		refresh float64
		tally   bool
	}{{0, false}, {5, false}, {5, true}}
	for _, disc := range []Discipline{FCFS, PS, SRPT} {
		for _, p := range policies {
			for _, b := range boards {
				if b.refresh > 0 && Describe(p, Config{}).Reads == NoState {
					continue
				}
				name := fmt.Sprintf("%s/%s/T=%v,tally=%v", disc, p, b.refresh, b.tally)
				t.Run(name, func(t *testing.T) {
					cfg := Config{Servers: 10, Load: 0.8, Sizes: h2, Policy: p, Refresh: b.refresh, Tally: b.tally,
						Discipline: disc, Jobs: 20000, Seed: 3, Reps: 2}
					fast, slow := runBothWays(t, cfg)
					// Equal up to the order of floating-point sums (SITA's
					// classes are summed per class on the fast path).
					same := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(a) }
					if !same(fast.Wait.Mean, slow.Wait.Mean) || !same(fast.Response.Mean, slow.Response.Mean) ||
						!same(fast.Wait.CI95, slow.Wait.CI95) || fast.WaitQuantiles[2].Mean != slow.WaitQuantiles[2].Mean {
						t.Errorf("fast path %v, through the View %v", fast.Wait, slow.Wait)
					}
				})
			}
		}
	}
	// LWL, JSQ and JIQ through the View scan all K servers in O(K); their
	// means agree with the indexed fast paths within the runs' noise, live
	// and on a board (with and without tally) for JIQ.
	for _, c := range []struct {
		p       Policy
		refresh float64
		tally   bool
	}{{LeastLoaded{}, 0, false}, {JSQ{}, 0, false}, {JIQ{}, 0, false}, {JIQ{}, 2, false}, {JIQ{}, 2, true}} {
		cfg := Config{Servers: 8, Load: 0.9, Sizes: Exponential{M: 1}, Policy: c.p, Refresh: c.refresh, Tally: c.tally,
			Jobs: 400000, Seed: 5, Reps: 4}
		fast, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Policy, cfg.Seed = viaView{c.p}, 6
		slow, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tol := 2 * math.Hypot(fast.Response.CI95, slow.Response.CI95)
		if math.Abs(fast.Response.Mean-slow.Response.Mean) > tol {
			t.Errorf("%s T=%v tally=%v: fast %v, through the View %v (tolerance %.3g)", c.p, c.refresh, c.tally, fast.Response, slow.Response, tol)
		}
	}
}

// badPolicy picks a server out of range, or panics.
type badPolicy struct{ panics bool }

func (b badPolicy) String() string { return "bad" }
func (b badPolicy) Pick(v *View, _ float64) int {
	if b.panics {
		var s []int
		return s[v.K()] // index out of range
	}
	return v.K()
}

// A policy's mistake stops the run with an error naming it, never the program.
func TestPolicyMistakesAreErrors(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want []string
	}{
		{badPolicy{}, []string{"policy bad picked server 10", "0 <= k < K = 10"}},
		{badPolicy{panics: true}, []string{"policy bad", "panic", "index out of range"}},
		{countless{}, []string{"reads job counts", "Count"}},
		{forgetful{JSQ{D: 2, Mem: 1}}, []string{"jsq:d=2,mem=1", "without Start", "forward Start"}},
	} {
		_, err := Run(Config{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Policy: c.p, Jobs: 1000, Reps: 3})
		if err == nil {
			t.Fatalf("%s: no error", c.p)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not say %q", err, w)
			}
		}
	}
}

// forgetful wraps a policy without forwarding its Start.
type forgetful struct{ p Policy }

func (f forgetful) String() string              { return f.p.String() }
func (f forgetful) Pick(v *View, x float64) int { return f.p.Pick(v, x) }

// countless reads counts without saying so.
type countless struct{}

func (countless) String() string              { return "countless" }
func (countless) Describe(Config) Description { return Description{Reads: Workload} }
func (countless) Pick(v *View, _ float64) int { return v.Count(0) * 0 }

// sameReference is reflect.DeepEqual with a NaN slowdown (unknown) equal to another.
func sameReference(a, b Reference) bool {
	if math.IsNaN(a.Slowdown) && math.IsNaN(b.Slowdown) {
		a.Slowdown, b.Slowdown = 0, 0
	}
	return reflect.DeepEqual(a, b)
}

// A policy of one's own that forwards its Description, Theory, Validate and
// Start to a built-in one gets the same answers from lbsim (and the same
// model of the servers' loads, where WorkShares can say the split: one
// class of jobs).
func TestOwnPolicyForwardingAnswersAlike(t *testing.T) {
	sizes := Exponential{M: 1}
	for _, p := range []Policy{SITA{C: 2, Cut: 3}, JSQ{D: 2, Mem: 1}, LSQ{D: 2, P: 0.1}, WeightedRandom{Weights: Weights{Values: []float64{2, 1, 1}}}} {
		m := viaView{p}
		cfg := Config{Servers: 3, Load: 0.5, Sizes: sizes, Policy: p, Jobs: 1000}
		ref, ok := Theory(cfg)
		dp := Describe(p, cfg)
		cfg.Policy = m
		mref, mok := Theory(cfg)
		dm := Describe(m, cfg)
		if dm.Label != dp.Label || dm.Reads != dp.Reads || dm.D != dp.D || dm.C != dp.C || dm.Probes != dp.Probes ||
			!reflect.DeepEqual(dm.Classes, dp.Classes) || !sameReference(mref, ref) || mok != ok ||
			len(dp.jobSplit()) == 1 && !reflect.DeepEqual(serverLoadsOf(p, cfg), cfg.serverLoads()) {
			t.Errorf("%s: a policy of one's own forwarding its Description answers differently:\n%+v\n%+v", p, dp, dm)
		}
		if a, b := impl(m).validate(&Config{Servers: 1, Sizes: sizes}), impl(p).validate(&Config{Servers: 1, Sizes: sizes}); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: Validate %v, forwarded %v", p, b, a)
		}
		if started := Start(m, nil).(viaView).p; reflect.TypeOf(started) != reflect.TypeOf(Start(p, nil)) {
			t.Errorf("%s: Start gives a %T, forwarded a %T", p, Start(p, nil), started)
		}
	}
}

// serverLoadsOf is the model of the servers' loads of cfg run with p.
func serverLoadsOf(p Policy, cfg Config) []serverLoad {
	cfg.Policy = p
	return cfg.serverLoads()
}

// The registry is the one place specs come from: every registered example
// parses, prints back to itself, and has a label.
func TestRegistry(t *testing.T) {
	for _, typ := range policyRegistry.families() {
		p, err := ParsePolicy(typ.Example)
		if err != nil {
			t.Fatalf("%s: example %q: %v", typ.Name, typ.Example, err)
		}
		if p.String() != typ.Example {
			t.Errorf("%s: example %q prints as %q", typ.Name, typ.Example, p)
		}
		if Label(p) == "" || typ.Summary == "" {
			t.Errorf("%s: empty label or summary", typ.Name)
		}
	}
	if err := RegisterPolicy(PolicyType{Name: "rnd", New: func(Params) (Policy, error) { return Random{}, nil }}); err == nil {
		t.Error("registering rnd twice succeeded")
	}
	_, err := ParsePolicy("nope:d=2")
	if err == nil || !strings.Contains(err.Error(), "ll:d=2") || !strings.Contains(err.Error(), "jiq") {
		t.Errorf("unknown policy error %v does not list the registered examples", err)
	}
	// Memory: mem=0 is the policy without memory; specs and labels.
	for _, c := range []struct {
		spec, back, label string
		want              Policy
	}{
		{"jsq:d=2,mem=0", "jsq:d=2", "JSQ-2", JSQ{D: 2}},
		{"jsq:d=2,mem=1", "jsq:d=2,mem=1", "JSQ(2,1)", JSQ{D: 2, Mem: 1}},
		{"ll:mem=2,d=1", "ll:d=1,mem=2", "LL(1,2)", LeastLoaded{D: 1, Mem: 2}},
		{"ll:d=2,replace=1,mem=1", "ll:d=2,replace=1,mem=1", "LL(2r,1)", LeastLoaded{D: 2, Replace: true, Mem: 1}},
		{"JIQ", "jiq", "JIQ", JIQ{}},
	} {
		p, err := ParsePolicy(c.spec)
		if err != nil || p != c.want || p.String() != c.back || Label(p) != c.label {
			t.Errorf("%q: %#v (%v), prints %q, label %q; want %#v, %q, %q", c.spec, p, err, p, Label(p), c.want, c.back, c.label)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"jsq:mem=1", "mem=1 needs a sample size d"},
		{"ll:d=2,mem=-1", "mem=-1 is invalid"},
		{"jsq:d=2,mem=0.5", "mem=0.5 is invalid"},
		{"jiq:d=2,mem=1", `unknown parameter "mem"`}, {"lwl:d=2", `unknown parameter "d"; allowed: ties`},
	} {
		if _, err := ParsePolicy(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.spec, err, c.want)
		}
	}
	if err := impl(JSQ{D: 2, Mem: 11}).validate(&Config{Servers: 10}); err == nil || !strings.Contains(err.Error(), "need 0 <= mem <= K = 10") {
		t.Errorf("mem=11 on 10 servers: %v", err)
	}
}

// Replaying a trace, the fast paths draw the dispatch stream job by job (no
// blocks): they still give the numbers of the policies' Pick methods.
func TestFastPathsOnTracesMatchView(t *testing.T) {
	r := NewStream(7, 8)
	tr := Trace{Times: make([]float64, 20000), Sizes: make([]float64, 20000)}
	clock := 0.0
	for i := range tr.Times {
		clock += r.ExpFloat64() / 8 // K = 10 at load 0.8, mean size 1
		tr.Times[i], tr.Sizes[i] = clock, r.ExpFloat64()
	}
	for _, p := range []Policy{Random{}, RoundRobin{}, LeastLoaded{D: 2}, JSQ{D: 2}} {
		cfg := Config{Servers: 10, Trace: &tr, Policy: p, Seed: 3, Workers: 1}
		fast, slow := runBothWays(t, cfg)
		if fast.Wait != slow.Wait || fast.WaitQuantiles[2].Mean != slow.WaitQuantiles[2].Mean {
			t.Errorf("%s on a trace: fast path %v, through the View %v", p, fast.Wait, slow.Wait)
		}
	}
}

// A type of one's own that embeds a built-in policy is a policy of one's
// own: its Description is its own, and it runs its own Pick, not the
// built-in's fast dispatcher.
func TestEmbeddedBuiltinIsOwn(t *testing.T) {
	p := ownLabelRND{}
	if d := Describe(p, Config{}); d.Label != "mine" || d.Reads != Count || d.builtin {
		t.Errorf("a type embedding RND with its own Describe: %+v, want its own label mine and Count", d)
	}
	if got := Label(Random{}); got != "RND" {
		t.Errorf("Label(Random{}) = %q", got)
	}
	r, err := Run(Config{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Policy: firstOfJSQ{JSQ{D: 2}}, Jobs: 20000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if u := r.ServerUtilization; u[0] < 1.9 || u[1] != 0 || u[2] != 0 || u[3] != 0 {
		t.Errorf("a type embedding JSQ-2 whose Pick sends every job to server 1: utilisations %v, want all the work (load 0.5 x 4) at server 1", u)
	}
}

type ownLabelRND struct{ Random }

func (ownLabelRND) Describe(Config) Description { return Description{Label: "mine", Reads: Count} }

// firstOfJSQ embeds JSQ-2 and sends every job to server 0.
type firstOfJSQ struct{ JSQ }

func (firstOfJSQ) Pick(*View, float64) int { return 0 }

// A policy of one's own with an optional method lbsim asked before the
// Description is refused, with where to say it now: run without it, it
// would read as a policy that says nothing.
func TestRetiredMethodsRefused(t *testing.T) {
	_, err := Run(Config{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Policy: oldStyle{}, Jobs: 1000})
	if err == nil || !strings.Contains(err.Error(), "has a method Reads, which lbsim no longer asks") || !strings.Contains(err.Error(), "lbsim.Description{Reads: ...}") {
		t.Errorf("a policy with Reads: %v, want the refusal naming Description's Reads", err)
	}
}

type oldStyle struct{ Random }

func (oldStyle) Reads() State { return NoState }

// WorkShares that do not fit K are refused by Validate, naming the fix, and
// give no model of the servers' loads (Config.Key probes other K: no panic).
func TestWorkSharesChecked(t *testing.T) {
	for _, c := range []struct {
		k    int
		want string
	}{{3, "4 WorkShares for K=3 servers"}, {4, ""}} {
		cfg := Config{Servers: c.k, Load: 0.5, Sizes: Exponential{M: 1}, Policy: evenClaim{favourite{0.6}}, Jobs: 1000}
		err := cfg.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("K=%d: %v, want %q", c.k, err, c.want)
		}
		if got := cfg.serverLoads() != nil; got != (c.want == "") {
			t.Errorf("K=%d: a model of the loads %v", c.k, got)
		}
		_ = cfg.Key()
	}
}
