package lbsim_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/internal/testpolicy"

	"github.com/perfeval/lbsim/lbsim"
)

// Tagged has an exported field that String() does not print and Pick does not read.
type Tagged struct{ Note string }

func (Tagged) String() string { return "tagged" }
func (Tagged) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.NoState}
}
func (Tagged) Pick(v *lbsim.View, _ float64) int { return int(v.Job() % 2) }

// keyBase is a configuration every field of which keyPerturb changes.
func keyBase() lbsim.Config {
	return lbsim.Config{Servers: 4, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.JSQ{D: 2},
		Jobs: 1000, Reps: 2, Seed: 1}
}

// keyPerturb changes one field of a configuration to another meaning.
var keyPerturb = map[string]func(c *lbsim.Config){
	"Servers":           func(c *lbsim.Config) { c.Servers = 5 },
	"Speeds":            func(c *lbsim.Config) { c.Speeds = []float64{2, 1, 1, 1} },
	"Load":              func(c *lbsim.Config) { c.Load = math.Nextafter(0.5, 1) },
	"Sizes":             func(c *lbsim.Config) { c.Sizes = lbsim.Exponential{M: 2} },
	"Arrivals":          func(c *lbsim.Config) { c.Arrivals = lbsim.DeterministicArrivals{} },
	"Trace":             func(c *lbsim.Config) { c.Trace = &lbsim.Trace{Times: []float64{0, 1}, Sizes: []float64{1, 1}} },
	"Policy":            func(c *lbsim.Config) { c.Policy = lbsim.JSQ{D: 3} },
	"Refresh":           func(c *lbsim.Config) { c.Refresh = 5 },
	"Tally":             func(c *lbsim.Config) { c.Tally = true },
	"Dispatchers":       func(c *lbsim.Config) { c.Dispatchers = 4 },
	"DispatcherWeights": func(c *lbsim.Config) { c.DispatcherWeights = []float64{2, 1} },
	"Stagger":           func(c *lbsim.Config) { c.Stagger = true },
	"View":              func(c *lbsim.Config) { c.View = lbsim.OwnView },
	"Delay":             func(c *lbsim.Config) { c.Delay = 0.001 },
	"Discipline":        func(c *lbsim.Config) { c.Discipline = lbsim.PS },
	"Jobs":              func(c *lbsim.Config) { c.Jobs++ },
	"Warmup":            func(c *lbsim.Config) { c.Warmup = 10 },
	"Reps":              func(c *lbsim.Config) { c.Reps++ },
	"Seed":              func(c *lbsim.Config) { c.Seed++ },
	"AllowOverload":     func(c *lbsim.Config) { c.AllowOverload = true },
	"SampleEvery":       func(c *lbsim.Config) { c.SampleEvery = 1 },
	"Batches":           func(c *lbsim.Config) { c.Batches = 10 },
	"WarmupAuto":        func(c *lbsim.Config) { c.WarmupAuto = true },
	"ControlVariates":   func(c *lbsim.Config) { c.ControlVariates = true },
	"Precision":         func(c *lbsim.Config) { c.Precision = 0.05 },
	"MaxJobs":           func(c *lbsim.Config) { c.MaxJobs = 1e6 },
	"MaxSeconds":        func(c *lbsim.Config) { c.MaxSeconds = 60 },
}

// keyIgnores are the fields that do not change a run's numbers, with why.
var keyIgnores = map[string]string{
	"Workers": "replications run in parallel give the same numbers on any number of cores",
}

// Two configurations that differ in any field never share a key. A field
// added to Config fails this test until keyPerturb or keyIgnores has it.
func TestKeyDiffersInEveryField(t *testing.T) {
	base := keyBase()
	seen := map[string]string{base.Key(): "the base"}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[lbsim.Config]()) {
		perturb, ok := keyPerturb[f.Name]
		if _, ignored := keyIgnores[f.Name]; ignored {
			c := base
			reflect.ValueOf(&c).Elem().FieldByIndex(f.Index).SetInt(3)
			if c.Key() != base.Key() {
				t.Errorf("%s changes the key, but keyIgnores says it does not change the numbers", f.Name)
			}
			continue
		}
		if !ok {
			t.Errorf("Config.%s is neither in keyPerturb nor keyIgnores: put it in Config.Key and here", f.Name)
			continue
		}
		c := base
		perturb(&c)
		if reflect.DeepEqual(c, base) {
			t.Errorf("keyPerturb[%s] changes nothing", f.Name)
		}
		if other, dup := seen[c.Key()]; dup {
			t.Errorf("changing %s gives the key of %s: %q", f.Name, other, c.Key())
		}
		seen[c.Key()] = f.Name
	}
}

// An edited policy of one's own gets a new key: a changed Pick (same type,
// same String()) and a changed field that String() does not print.
func TestKeyEditedPolicy(t *testing.T) {
	c := keyBase()
	key := func(p lbsim.Policy) string { c.Policy = p; return c.Key() }
	if a, b := key(testpolicy.New(1)), key(testpolicy.New(2)); a == b {
		t.Errorf("Pick weighting by mu and by mu^2 share the key %q", a)
	}
	if a, b := key(Tagged{"a"}), key(Tagged{"b"}); a == b {
		t.Errorf("Tagged{a} and Tagged{b} share the key %q", a)
	}
	if a, b := key(testpolicy.New(2)), key(ptr(testpolicy.New(2))); a != key(testpolicy.New(2)) || b != key(ptr(testpolicy.New(2))) || a == b {
		t.Errorf("keys not stable, or a value and a pointer alike: %q, %q", a, b)
	}
	if k := key(lbsim.JSQ{D: 2}); !strings.HasPrefix(k, "policy=jsq:d=2 ") {
		t.Errorf("a built-in policy keeps its spec as its key: %q", k)
	}
}

// Speeds are runs of equal values, or a hash when there are many distinct ones.
func TestKeySpeedsCompact(t *testing.T) {
	c := keyBase()
	c.Servers, c.Speeds = 10, []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}
	if k := c.Key(); !strings.Contains(k, " speeds=5@2,5@1 ") {
		t.Errorf("key %q does not give the speeds as runs 5@2,5@1", k)
	}
	c.Servers, c.Speeds = 100_000, make([]float64, 100_000)
	for i := range c.Speeds {
		c.Speeds[i] = 1 + float64(i)/1e5
	}
	a := c.Key()
	c.Speeds[99_999] = math.Nextafter(c.Speeds[99_999], 3)
	if b := c.Key(); len(a) > 400 || a == b {
		t.Errorf("100000 distinct speeds: key of %d bytes, and one speed's last bit changed it: %v", len(a), a != b)
	}
}

// ptr is a pointer to a copy of p: the same policy as a pointer type.
func ptr(p testpolicy.SpeedPow) *testpolicy.SpeedPow { return &p }

// An edit of Pick that matters only with several dispatchers changes the
// key of a configuration with several: on its own servers (K <= 1000) and,
// at K = 5000, on the probe systems run with its dispatchers.
func TestKeySeesDispatchers(t *testing.T) {
	for _, c := range []lbsim.Config{
		{Servers: 10, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Dispatchers: 2, Jobs: 1000, Seed: 1},
		{Servers: 5000, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Dispatchers: 20, Jobs: 1000, Seed: 1},
		{Servers: 10, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Refresh: 1, Dispatchers: 3, DispatcherWeights: []float64{1, 2, 3}, Stagger: true, Jobs: 1000, Seed: 1},
	} {
		old, edited := c, c
		old.Policy, edited.Policy = testpolicy.NewFronts(false), testpolicy.NewFronts(true)
		if old.Key() == edited.Key() {
			t.Errorf("K=%d M=%d: Pick branching on Dispatchers() > 1 edited, and the key stays %q", c.Servers, c.Dispatchers, old.Key())
		}
		single := old
		single.Dispatchers, single.DispatcherWeights, single.Stagger = 1, nil, false
		edited1 := single
		edited1.Policy = testpolicy.NewFronts(true)
		if edited1.Key() != single.Key() {
			t.Errorf("K=%d with one dispatcher the two versions choose alike, yet their keys differ", c.Servers)
		}
	}
}

// Issue 34 item 12: one system, one key. JIQ's I-queue options with one
// dispatcher would run plain JIQ to the bit: they are refused (issue 50),
// not a second name of it; with I-queues they are other systems. lsq:p=-0
// is lsq:p=0, and -refresh -0 is 0.
func TestKeyOneSystemOneKey(t *testing.T) {
	base := lbsim.Config{Servers: 6, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Jobs: 5000, Seed: 3}
	run := func(spec string, m int) (string, float64) {
		t.Helper()
		c := base
		c.Policy, c.Dispatchers = mustPolicy(t, spec), m
		r, err := lbsim.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		return c.Key(), r.Wait.Mean
	}
	for _, spec := range []string{"jiq:d=2", "jiq:withdraw=1", "jiq:d=2,withdraw=1"} {
		c := base
		c.Policy = mustPolicy(t, spec)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "no effect with one dispatcher") {
			t.Errorf("%s, one dispatcher: %v, want it refused as having no effect", spec, err)
		}
	}
	iq, _ := run("jiq", 3)
	for _, spec := range []string{"jiq:d=2", "jiq:withdraw=1"} {
		if key, _ := run(spec, 3); key == iq {
			t.Errorf("%s with I-queues shares plain jiq's key %q", spec, key)
		}
	}
	zero, _ := run("lsq:p=0", 1)
	if minus, _ := run("lsq:p=-0", 1); minus != zero {
		t.Errorf("lsq:p=-0 keyed %q, lsq:p=0 %q", minus, zero)
	}
	var g, h lbsim.Grid
	g.Base, h.Base = base, base
	g.Base.Policy, h.Base.Policy = lbsim.JSQ{D: 2}, lbsim.JSQ{D: 2}
	if err := g.Set("refresh", "-0"); err != nil {
		t.Fatal(err)
	}
	h.Set("refresh", "0")
	if g.Configs()[0].Key() != h.Configs()[0].Key() || g.Canonical() != h.Canonical() {
		t.Errorf("-refresh -0: key %q, sweep\n%s\n-refresh 0: %q\n%s", g.Configs()[0].Key(), g.Canonical(), h.Configs()[0].Key(), h.Canonical())
	}
}

func mustPolicy(t *testing.T, spec string) lbsim.Policy {
	t.Helper()
	p, err := lbsim.ParsePolicy(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
