package lbsim

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// benchConfig is the handout's system at load 0.5: K=50, two-point sizes.
func benchConfig(p Policy, d Discipline, jobs int64) Config {
	return Config{Servers: 50, Load: 0.5, Sizes: NewTwoPointBeta(1, 1000, 0.8), Policy: p,
		Discipline: d, Jobs: jobs, Seed: 17, Workers: 1}
}

// BenchmarkPolicies reports jobs per second on one core for every policy and
// discipline, with every metric switched on.
func BenchmarkPolicies(b *testing.B) {
	policies := []Policy{Random{}, RoundRobin{}, LeastLoaded{D: 2}, LeastLoaded{}, JSQ{D: 2}, JSQ{}, SITA{C: 20},
		JIQ{}, JSQ{D: 2, Mem: 1}, LeastLoaded{D: 2, Mem: 1}}
	for _, disc := range []Discipline{FCFS, PS} {
		for _, p := range policies {
			b.Run(fmt.Sprintf("%s/%s", disc, p), func(b *testing.B) {
				const jobs = 1 << 20
				b.ReportAllocs()
				for b.Loop() {
					cfg := benchConfig(p, disc, jobs)
					if err := cfg.Validate(); err != nil {
						b.Fatal(err)
					}
					newSim(&cfg, 0).run()
				}
				b.ReportMetric(float64(jobs*int64(b.N))/b.Elapsed().Seconds(), "jobs/s")
				b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(jobs*int64(b.N)), "ns/job")
			})
		}
	}
}

// BenchmarkStaleBoard is JSQ-2 and JSQ on a board of counts refreshed every
// 10 time units, the document's staleness study (K=100, H2 SCV 10, load 0.9).
func BenchmarkStaleBoard(b *testing.B) {
	h2, _ := NewH2Balanced(1, 10)
	for _, p := range []Policy{JSQ{D: 2}, JSQ{}} {
		b.Run(p.String(), func(b *testing.B) {
			const jobs = 1 << 20
			for b.Loop() {
				cfg := Config{Servers: 100, Load: 0.9, Sizes: h2, Policy: p, Refresh: 10, Jobs: jobs, Seed: 1}
				newSim(&cfg, 0).run()
			}
			b.ReportMetric(float64(jobs*int64(b.N))/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}

// BenchmarkHandoutExperiment is the course's whole experiment: 10 loads x
// {RND, RR, LL-2} x 2e6 jobs, K=50 (about 62 minutes in the R code).
func BenchmarkHandoutExperiment(b *testing.B) {
	g := Grid{
		Base:     Config{Servers: 50, Sizes: NewTwoPointBeta(1, 1000, 0.8), Jobs: 2_000_000, Seed: 17},
		Policies: []Policy{Random{}, RoundRobin{}, LeastLoaded{D: 2}},
		Loads:    []float64{0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95},
	}
	for b.Loop() {
		start := time.Now()
		if _, err := Sweep(g, nil); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/experiment")
	}
}

// BenchmarkMinimalLoop is the yardstick of the speed target: a hand-written
// loop with random dispatch, lazy free-time update and two-point sizes (K=50,
// rho=0.5, math/rand/v2 PCG) that only sums the waits. lbsim's RND path,
// with every metric on, should cost at most 1.5 times this loop.
func BenchmarkMinimalLoop(b *testing.B) {
	const jobs, k = 1 << 20, 50
	sizes := NewTwoPointBeta(1, 1000, 0.8)
	gap := sizes.Mean() / (0.5 * k)
	for b.Loop() {
		r := rand.New(rand.NewPCG(1, 2))
		var free [k]float64
		t, sum := 0.0, 0.0
		for range jobs {
			t += r.ExpFloat64() * gap
			x := sizes.Xm
			if r.Float64() < sizes.P {
				x = sizes.XM
			}
			i := r.IntN(k)
			f := free[i]
			if f > t {
				sum += f - t
			} else {
				f = t
			}
			free[i] = f + x
		}
		if sum < 0 {
			b.Fatal(sum)
		}
	}
	b.ReportMetric(float64(jobs*int64(b.N))/b.Elapsed().Seconds(), "jobs/s")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(jobs*int64(b.N)), "ns/job")
}
