package lbsim

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// leastWorks is the leastWork of each of s's dispatchers (LWL or JIQ).
func leastWorks(t *testing.T, s *sim) []*leastWork {
	disps := []dispatcher{s.disp}
	if s.many != nil {
		disps = nil
		for _, f := range s.many.fronts {
			disps = append(disps, f.disp)
		}
	}
	var out []*leastWork
	for _, d := range disps {
		switch d := d.(type) {
		case *leastWork:
			out = append(out, d)
		case jiqDispatcher:
			out = append(out, d.leastWork)
		default:
			t.Fatalf("dispatcher %T keeps no leastWork", d)
		}
	}
	return out
}

// JIQ and LWL on few servers scan the free times (freeScan) rather than
// keep the radix heap, and give the same numbers to the bit: every field
// of the replication (metrics, work done, times, sizes, messages) of runs
// on either index, at K = 2, 3, 5, 16 and scanServers (scanned) and one
// more (the heap both times), equal and unequal speeds, FCFS, PS and SRPT,
// LWL with several dispatchers, seeds 1-3. Deterministic arrivals and sizes
// give servers equal free times, whose order the idle set keeps.
func TestFreeScanSameNumbers(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	for _, p := range []Policy{JIQ{}, LeastLoaded{}} {
		for _, k := range []int{2, 3, 5, 16, scanServers, scanServers + 1} {
			for _, c := range []struct {
				name string
				cfg  Config
			}{
				{"exp", Config{Load: 0.72, Sizes: Exponential{M: 1}}},
				{"speeds", Config{Load: 0.9, Sizes: h2, Speeds: FastSlowSpeeds(k, 0.5, 3)}},
				{"det", Config{Load: 0.95, Sizes: Deterministic{X0: 1}, Arrivals: DeterministicArrivals{}, Speeds: FastSlowSpeeds(k, 0.5, 2)}},
				{"modal", Config{Load: 0.9, Sizes: NewModal(1, 2), Arrivals: DeterministicArrivals{}, Warmup: 100}},
				{"ps", Config{Load: 0.9, Sizes: h2, Discipline: PS}},
				{"srpt-sampled", Config{Load: 0.9, Sizes: h2, Discipline: SRPT, SampleEvery: 10}},
				// Several dispatchers, each with its index (JIQ's are then I-queues).
				{"m3", Config{Load: 0.9, Sizes: h2, Dispatchers: 3}},
			} {
				if _, jiq := p.(JIQ); jiq && c.cfg.Dispatchers > 1 {
					continue
				}
				for seed := uint64(1); seed <= 3; seed++ {
					cfg := c.cfg
					cfg.Servers, cfg.Policy, cfg.Jobs, cfg.Seed = k, p, 20_000, seed
					t.Run(fmt.Sprintf("%s/K=%d/%s/seed=%d", p, k, c.name, seed), func(t *testing.T) {
						if err := cfg.Validate(); err != nil {
							t.Fatal(err)
						}
						scan := newSim(&cfg, 0)
						for _, d := range leastWorks(t, scan) {
							if scanned := d.scan != nil; scanned != (k <= scanServers) {
								t.Fatalf("K=%d: scanned %v, want %v", k, scanned, k <= scanServers)
							}
						}
						a := scan.run()
						scan.srv.held.done()
						heap := newSim(&cfg, 0)
						for _, d := range leastWorks(t, heap) {
							d.indexLive(false) // as at K > scanServers
						}
						b := heap.run()
						heap.srv.held.done()
						if !reflect.DeepEqual(a, b) {
							t.Errorf("scan: wait sums %v, work %v\nradix heap: wait sums %v, work %v", a.m.waits()[:2], a.busy[:2], b.m.waits()[:2], b.busy[:2])
						}
					})
				}
			}
		}
	}
}

// freeScan hands servers over to the idle set in the radix heap's order,
// ties included: two leastWork indexes of the same servers, one of each
// kind, see the same arrivals and sends (times and service times of 0, 1/2
// and 1, so that free times are often equal, jobs of size 0 included), and
// hold the same idle servers in the same order after every drain, and LWL's
// least server is the same.
func TestFreeScanOrder(t *testing.T) {
	for _, k := range []int{1, 2, 3, 5, 16, scanServers} {
		for seed := uint64(1); seed <= 20; seed++ {
			r := NewStream(seed, uint64(k))
			s := &sim{k: k, srv: newServers(make([]float64, k), FCFS, false), rDispatch: NewStream(seed, 0)}
			for i := range k {
				s.srv.inv[i] = 1
			}
			s.srv.held.limit = memoryLimit
			scan, heap := newLeastWork(s), newLeastWork(s)
			scan.indexLive(true)
			heap.indexLive(false)
			now := 0.0
			for step := range 2000 {
				now += float64(r.IntN(3)) / 2
				scan.drain(now)
				heap.drain(now)
				if !slices.Equal(scan.idle.items, heap.idle.items) {
					t.Fatalf("K=%d seed %d step %d, t=%v: idle %v, the radix heap's %v (free %v)", k, seed, step, now, scan.idle.items, heap.idle.items, s.srv.free)
				}
				var to int
				if len(heap.idle.items) > 0 && r.IntN(4) > 0 {
					to = int(heap.idle.items[r.IntN(len(heap.idle.items))])
				} else if len(heap.idle.items) == 0 && r.IntN(2) == 0 {
					to = heap.least()
					if got := scan.least(); got != to {
						t.Fatalf("K=%d seed %d step %d, t=%v: least %d, the radix heap's %d (free %v)", k, seed, step, now, got, to, s.srv.free)
					}
				} else {
					to = r.IntN(k)
				}
				s.srv.join(to, now, float64(r.IntN(3))/2)
				scan.sent(to, now, 0)
				heap.sent(to, now, 0)
			}
			s.srv.held.done()
		}
	}
}

// Overloaded, JIQ and LWL on few servers hold no job (freeScan keeps its
// servers' free times, not an entry a job): a run of 2 10^6 jobs at load 2
// ends without the backlog's error (the radix heap's entries pass the
// lowered limit), and the configuration counts no index's bytes a job
// (perJobBytes).
func TestFreeScanHoldsNoJobs(t *testing.T) {
	defer lowerMemoryLimit(24 << 20)()
	for _, p := range []Policy{JIQ{}, LeastLoaded{}} {
		cfg := Config{Servers: scanServers, Policy: p, Load: 2, AllowOverload: true, Sizes: Exponential{M: 1}, Jobs: 2_000_000, Workers: 1}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(cfg); err != nil || cfg.perJobBytes() != 0 {
			t.Errorf("%s at K=%d, load 2: %v, %d bytes a job counted; want no error, none", p, cfg.Servers, err, cfg.perJobBytes())
		}
		cfg.Servers++
		if cfg.perJobBytes() != indexJobBytes {
			t.Errorf("%s at K=%d: %d bytes a job counted, want the radix heap's %d", p, cfg.Servers, cfg.perJobBytes(), indexJobBytes)
		}
	}
}
