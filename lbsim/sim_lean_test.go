package lbsim

import (
	"fmt"
	"reflect"
	"testing"
)

// The lean blocks (leanBlock) compute what the general loop computes, to
// the last bit: every measurement of a replication (batch sums, handout
// quantities, histogram, work per server, sizes drawn) is the same when
// the policy runs inline and when it runs in the general loop: through its
// Pick and the View, or for SITA (whose classes are its own), through its
// dispatcher with the servers' state sampled (SampleEvery), which forces
// the general loop and under FCFS changes nothing measured. The cases
// cover Poisson arrivals (drawn inline) and others (drawn with the block),
// beyond farServers (servers drawn with the block), unequal speeds, a
// warm-up that ends inside a block, a long warm-up, a last block cut
// short, and boards with and without the dispatcher's tally.
func TestLeanBlocks(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	ramp := Ramp{From: 0.3, To: 0.9, Over: 2000}
	speeds := []float64{1, 2, 0.75, 1, 1.5, 1, 1, 2, 1, 0.75}
	all := []Policy{Random{}, RoundRobin{}, LeastLoaded{D: 2}, JSQ{D: 2}, SED{D: 2}, SITA{C: 3, Cut: 2}}
	board := []Policy{LeastLoaded{D: 2}, JSQ{D: 2}, SED{D: 2}}
	// SITA's several groups: binary search of the cutoffs and of the classes (SITA-E's 9 cuts)
	groups := append(all[:len(all):len(all)], SITA{Cuts: []float64{0.5, 2}, Servers: []int{3, 3, 4}}, SITA{Groups: 10})
	cases := []struct {
		name     string
		cfg      Config
		policies []Policy
	}{
		{"handout", Config{Servers: 10, Load: 0.7, Sizes: NewTwoPointBeta(1, 1000, 0.8)}, append(all, SITA{C: 2})},
		{"h2-warmup", Config{Servers: 10, Load: 0.9, Sizes: h2, Warmup: 300}, groups},
		{"speeds", Config{Servers: 10, Load: 0.5, Sizes: Exponential{M: 1}, Speeds: speeds}, groups},
		{"deterministic-arrivals", Config{Servers: 10, Load: 0.8, Sizes: h2, Arrivals: DeterministicArrivals{}}, all},
		{"ramp", Config{Servers: 10, Sizes: Exponential{M: 1}, Arrivals: ramp}, all},
		{"far-servers", Config{Servers: farServers + 904, Load: 0.9, Sizes: Exponential{M: 1}, Warmup: 1000}, append(all, SITA{Groups: 7})},
		// The general loop's work done added after each block (lateWork), its
		// service times by speed group, against the lean blocks' job by job.
		{"far-speeds", Config{Servers: farServers + 904, Load: 0.6, Sizes: h2, Speeds: FastSlowSpeeds(farServers+904, 0.3, 2.5), Warmup: 1000}, all},
		{"long-warmup", Config{Servers: 10, Load: 0.9, Sizes: h2, Warmup: 5000}, all},
		{"board", Config{Servers: 100, Load: 0.9, Sizes: h2, Refresh: 10}, board},
		{"board-tally", Config{Servers: 100, Load: 0.9, Sizes: h2, Refresh: 2, Tally: true, Warmup: 500}, board},
		{"board-far-servers", Config{Servers: farServers + 904, Load: 0.9, Sizes: h2, Refresh: 1, Tally: true}, board},
	}
	for _, c := range cases {
		for _, p := range c.policies {
			t.Run(fmt.Sprintf("%s/%s", c.name, p), func(t *testing.T) {
				cfg := c.cfg
				cfg.Policy, cfg.Jobs, cfg.Seed = p, 20000+77, 9
				// SITA's group loads depend on the law and K, and an
				// overloaded group runs the same code: equality is the point.
				_, cfg.AllowOverload = p.(SITA)
				if err := cfg.Validate(); err != nil {
					t.Fatal(err)
				}
				lean := newSim(&cfg, 1)
				if lean.lean == notLean {
					t.Fatalf("%s does not run in lean blocks", p)
				}
				a := lean.run()
				lean.srv.held.done()
				if _, sita := p.(SITA); sita {
					cfg.SampleEvery = 50
				} else {
					cfg.Policy = viaView{p}
				}
				general := newSim(&cfg, 1)
				if general.lean != notLean && cfg.SampleEvery == 0 {
					t.Fatal("a policy through the View runs in lean blocks")
				}
				b := general.run()
				general.srv.held.done()
				if !reflect.DeepEqual(a.m, b.m) || !reflect.DeepEqual(a.busy, b.busy) ||
					a.tStart != b.tStart || a.tEnd != b.tEnd || a.nX != b.nX || a.sumX2 != b.sumX2 {
					t.Errorf("lean blocks: wait sums %v, handout %v, work %v\ngeneral loop: wait sums %v, handout %v, work %v",
						a.m.waits()[:4], a.m.handout[:2], a.busy[:2], b.m.waits()[:4], b.m.handout[:2], b.busy[:2])
				}
			})
		}
	}
}
