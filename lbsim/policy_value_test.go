package lbsim

import (
	"reflect"
	"strings"
	"testing"
)

// Cyc keeps a counter in its own value: Pick changes the policy.
type Cyc struct{ n int }

func (*Cyc) String() string              { return "cyc" }
func (*Cyc) Describe(Config) Description { return Description{Reads: NoState} }
func (p *Cyc) Pick(v *View, _ float64) int {
	p.n++
	return p.n % v.K()
}

// Seen keeps the servers it chose in a map of its own value.
type Seen struct{ picks map[int]int }

func (Seen) String() string              { return "seen" }
func (Seen) Describe(Config) Description { return Description{Reads: NoState} }
func (p Seen) Pick(v *View, _ float64) int {
	k := v.Rand().IntN(v.K())
	p.picks[k]++
	return k
}

// A policy whose Pick changes its own value is refused with a message that
// says where per-run state goes, on any number of workers (and without a
// data race: run with -race); Config.Key probes a copy.
func TestSelfChangingPolicyRefused(t *testing.T) {
	for _, p := range []Policy{&Cyc{}, Seen{picks: map[int]int{}}} {
		for _, workers := range []int{1, 4} {
			c := Config{Servers: 5, Load: 0.7, Sizes: Exponential{M: 1}, Policy: p,
				Jobs: 2000, Reps: 4, Seed: 1, Workers: workers, Dispatchers: 2}
			_, err := Run(c)
			if err == nil || !strings.Contains(err.Error(), "changed its own value") || !strings.Contains(err.Error(), "Start(v *lbsim.View) lbsim.Policy") {
				t.Errorf("%s, %d workers: err = %v, want the refusal naming Start", p, workers, err)
			}
		}
	}
	cyc, seen := &Cyc{}, Seen{picks: map[int]int{}}
	for _, p := range []Policy{cyc, seen} {
		c := Config{Servers: 5, Load: 0.7, Sizes: Exponential{M: 1}, Policy: p, Jobs: 2000, Seed: 1}
		if a, b := c.Key(), c.Key(); a != b {
			t.Errorf("%s: two keys of one value differ: %q, %q", p, a, b)
		}
	}
	if cyc.n != 0 || len(seen.picks) != 0 {
		t.Errorf("Config.Key changed the user's values: Cyc.n = %d, Seen.picks = %v, want 0 and none", cyc.n, seen.picks)
	}
}

// A policy whose Start gives each replication and dispatcher its own
// counter is the way to keep per-run state: it runs, on any number of
// workers to the same numbers.
type CycStart struct{}

func (CycStart) String() string              { return "cyc-start" }
func (CycStart) Describe(Config) Description { return Description{Reads: NoState} }
func (CycStart) Start(*View) Policy          { return &Cyc{} }
func (CycStart) Pick(v *View, _ float64) int { panic("Start's value picks") }

func TestStartKeepsPerRunState(t *testing.T) {
	var waits []float64
	for _, workers := range []int{1, 4} {
		r, err := Run(Config{Servers: 5, Load: 0.7, Sizes: Exponential{M: 1}, Policy: CycStart{},
			Jobs: 2000, Reps: 4, Seed: 1, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, r.Wait.Mean)
	}
	if waits[0] != waits[1] {
		t.Errorf("mean wait %v on 1 worker, %v on 4", waits[0], waits[1])
	}
}

// graph is a value with all that policyCopy must copy: unexported
// pointers, a cycle, two pointers to one node, a map with struct values,
// a slice of interfaces.
type graph struct {
	root, also *node
	byName     map[string]node
	items      []any
	f          func() int
}

type node struct {
	n    int
	next *node
	xs   []float64
}

func (*graph) String() string              { return "graph" }
func (*graph) Pick(v *View, _ float64) int { return 0 }

// policyCopy copies all data, shares none of it, and keeps the shape
// (a cycle, two pointers to one node); dataHash sees every change.
func TestPolicyCopy(t *testing.T) {
	n := &node{n: 1, xs: []float64{1, 2}}
	n.next = n
	g := &graph{root: n, also: n, byName: map[string]node{"a": {n: 2, xs: []float64{3}}}, items: []any{&node{n: 3}, 4.5}, f: func() int { return 7 }}
	before := dataHash(g, false)
	c := policyCopy(g).(*graph)
	if c == g || c.root == g.root || c.root.next != c.root || c.also != c.root || &c.root.xs[0] == &g.root.xs[0] ||
		c.items[0].(*node) == g.items[0].(*node) || c.f() != 7 {
		t.Fatalf("the copy shares memory with the original, or lost its shape: %+v", c)
	}
	if !reflect.DeepEqual(c.byName, g.byName) || dataHash(c, false) != before {
		t.Errorf("the copy's data differ: %v, %v", c.byName, g.byName)
	}
	edits := []func(c *graph){
		func(c *graph) { c.root.n++ },
		func(c *graph) { c.root.xs[1] = 2.5 },
		func(c *graph) { c.byName["b"] = node{} },
		func(c *graph) { c.items[0].(*node).n = 0 },
		func(c *graph) { c.also = &node{n: 1} },
	}
	for i, edit := range edits {
		c := policyCopy(g).(*graph)
		edit(c)
		if dataHash(c, false) == before {
			t.Errorf("edit %d of the copy not seen by dataHash", i)
		}
		if dataHash(g, false) != before {
			t.Errorf("edit %d of the copy changed the original", i)
		}
	}
	if dataHash(c, true) != dataHash(&graph{}, true) {
		t.Errorf("graph has no exported field, yet dataHash(exported) sees its data")
	}
}
