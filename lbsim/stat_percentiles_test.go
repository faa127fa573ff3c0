package lbsim_test

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
)

// mm1Quantiles are the exact quantiles at p of M/M/1 with service rate 1
// and load rho: the response is Exp(1 - rho); the wait is 0 with
// probability 1 - rho, else Exp(1 - rho).
func mm1Quantiles(rho, p float64) (wait, response float64) {
	response = -math.Log(1-p) / (1 - rho)
	if p > 1-rho {
		wait = math.Log(rho/(1-p)) / (1 - rho)
	}
	return wait, response
}

// RND with exponential sizes makes each of K servers M/M/1: the wait's and
// the response's p50, p90, p99 (and p99.9) intervals hold the closed-form
// quantiles, from 10 replications and from the 20 batch quantiles of one;
// the exact columns are the closed forms.
func TestPercentilesMM1(t *testing.T) {
	for _, rho := range []float64{0.5, 0.9} {
		for _, reps := range []int{10, 1} {
			cfg := lbsim.Config{Servers: 4, Load: rho, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 400_000, Reps: reps, Seed: 35}
			if reps == 1 {
				cfg.Jobs = 4_000_000
			}
			r := run(t, cfg)
			row := lbsim.NewRow(r)
			for i, p := range lbsim.Percentiles() {
				w, resp := mm1Quantiles(rho, p.P)
				if p.P < 0.999 { // p99.9's interval is checked by the coverage study
					if w > 0 {
						within(t, fmtQ("wait", rho, reps, p), r.WaitQuantiles[i], w, 0)
					} else if r.WaitQuantiles[i].Mean != 0 {
						t.Errorf("%s: %v, want 0 (P(W = 0) = %v)", fmtQ("wait", rho, reps, p), r.WaitQuantiles[i], 1-rho)
					}
					within(t, fmtQ("response", rho, reps, p), r.ResponseQuantiles[i], resp, 0)
				}
				for _, c := range []struct {
					name      string
					got, want float64
				}{{"exact_" + p.Name + "_wait", row.MetricExact(p.Name + "_wait"), w}, {"exact_" + p.Name + "_response", row.MetricExact(p.Name + "_response"), resp}} {
					if math.Abs(c.got-c.want) > 1e-9*math.Max(c.want, 1) {
						t.Errorf("rho %v: %s %v, want %v", rho, c.name, c.got, c.want)
					}
				}
			}
		}
	}
}

func fmtQ(side string, rho float64, reps int, p lbsim.Percentile) string {
	return fmt.Sprintf("%s %s rho=%v R=%d", side, p.Name, rho, reps)
}

// RND with H2 sizes makes each server M/H2/1 and with Erlang sizes M/E_k/1,
// whose wait and response laws come from the Pollaczek-Khinchine transform
// (theory.MG1HyperExpTails, theory.MPH1Tails): the exact columns are
// filled, exact_method says how, and the simulated p50, p90 and p99 of the
// wait and the response (10 replications, three seeds) hold them within
// their intervals; also a split by speed to unequal servers, a mixture of
// two such laws.
func TestPercentilesMG1(t *testing.T) {
	h2 := func(scv float64) lbsim.SizeLaw {
		s, err := lbsim.NewH2Balanced(1, scv)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	type tc struct {
		sizes  lbsim.SizeLaw
		rho    float64
		speeds []float64
		policy lbsim.Policy
		method string
	}
	var cases []tc
	for _, scv := range []float64{4, 10} {
		for _, rho := range []float64{0.5, 0.8} {
			cases = append(cases, tc{h2(scv), rho, nil, lbsim.Random{}, "roots of its transform (M/H2/1)"})
		}
	}
	cases = append(cases, tc{lbsim.Erlang{K: 4, M: 1}, 0.8, nil, lbsim.Random{}, "phase-type form (M/E_k/1)"},
		tc{h2(4), 0.8, []float64{1, 1, 1.6, 1.6}, lbsim.WeightedRandom{Weights: lbsim.Weights{Speed: true}}, "roots of its transform (M/H2/1)"})
	for _, c := range cases {
		for _, seed := range []uint64{35, 36, 37} {
			cfg := lbsim.Config{Servers: 4, Speeds: c.speeds, Load: c.rho, Sizes: c.sizes, Policy: c.policy, Jobs: 400_000, Reps: 10, Seed: seed}
			r := run(t, cfg)
			row := lbsim.NewRow(r)
			if !strings.Contains(row.ExactMethod, c.method) {
				t.Errorf("%v rho=%v: exact_method %q, want it to name %q", c.sizes, c.rho, row.ExactMethod, c.method)
			}
			for i, p := range lbsim.Percentiles() {
				for _, side := range []struct {
					name string
					got  lbsim.Estimate
				}{{"wait", r.WaitQuantiles[i]}, {"response", r.ResponseQuantiles[i]}} {
					exact := row.MetricExact(p.Name + "_" + side.name)
					what := fmt.Sprintf("%v rho=%v seed %d %s %s", c.sizes, c.rho, seed, side.name, p.Name)
					switch {
					case math.IsNaN(exact):
						t.Errorf("%s: no exact quantile", what)
					case p.P >= 0.999: // checked by the coverage study
					case exact == 0 && math.IsNaN(side.got.CI95):
						// Load 0.5's p50 wait: half the jobs do not wait, the
						// median is at the atom's edge, and its interval, 0 to
						// a little, is not written ± (it would reach below 0).
					default:
						within(t, what, side.got, exact, 0)
					}
				}
			}
		}
	}
}

// At an atom of the response time (a job that does not wait is served in
// exactly x/mu) the percentiles are the atom: det:x=1 at load 0.001 has
// every response at least 1 and a mean of 1.0005, so its p50, p90 and p99
// are 1; under the course's two-point sizes (99.6% of size 1) at load 0.2 the median
// response is 1 for RND and JSQ-2 alike. Interpolating within the atom's
// bin gave 1.0078 ± 4e-7 and a difference of 0.0016 ± 8e-5 between equal
// medians. Where both medians are 0, the ratio is not a number but none.
func TestPercentilesAtAtoms(t *testing.T) {
	r := run(t, lbsim.Config{Servers: 2, Load: 0.001, Sizes: lbsim.Deterministic{X0: 1}, Policy: lbsim.Random{}, Jobs: 200_000, Reps: 3, Seed: 1})
	for i, p := range lbsim.Percentiles()[:3] {
		if got := r.ResponseQuantiles[i]; got.Mean != 1 || !(got.CI95 >= 0) {
			t.Errorf("det:x=1, load 0.001: %s response %v, want 1 (the atom) with an interval", p.Name, got)
		}
	}
	tp := lbsim.TwoPoint{Xm: 1, XM: 1000, P: math.Pow(1000, -0.8), Beta: 0.8} // the course's law, P(X = XM) = XM^-beta
	var rows []lbsim.Row
	for _, pol := range []lbsim.Policy{lbsim.Random{}, lbsim.JSQ{D: 2}} {
		rows = append(rows, lbsim.NewRow(run(t, lbsim.Config{Servers: 10, Load: 0.2, Sizes: tp, Policy: pol, Jobs: 200_000, Reps: 5, Seed: 1})))
	}
	c, err := compare.RowsOn(rows[0], rows[1], "p50_response")
	if err != nil {
		t.Fatal(err)
	}
	if c.MeanA != 1 || c.MeanB != 1 || math.Abs(c.Diff) > c.DiffCI95 || c.Ratio != 1 {
		t.Errorf("two-point medians: RND %v, JSQ-2 %v, difference %v ± %v, ratio %v: want both 1, no difference", c.MeanA, c.MeanB, c.Diff, c.DiffCI95, c.Ratio)
	}
	if c, err := compare.RowsOn(rows[0], rows[1], "p50_wait"); err != nil || c.MeanB != 0 || !math.IsNaN(c.Ratio) {
		t.Errorf("medians of 0: ratio %v (B %v, %v), want none (NaN)", c.Ratio, c.MeanB, err)
	}
}

// The percentiles' intervals that are given, and carry no warning that
// speaks of them, hold the exact value in at least 90% of the runs of the
// families the audit of issue 49 found wanting (100 seeds there; 40 or 60
// here, fixed): heavy H2 tails in one long replication and in ten short
// ones, exponential sizes at 200 jobs beyond p99 per batch, M/M/4 under LWL.
// Sectioning the units' own quantiles covered p99.9 in 41 of 99 runs and
// p99 in 78 (H2), p99 in 81 of 100 (exponential): the units' quantiles
// hang on the few long excursions each met. Where a run holds fewer than
// 16 excursions beyond a quantile it gives none: p99.9 here. Each family
// also gives p99 an interval in most runs, so that coverage is not won by
// giving none.
func TestPercentileCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage of percentile intervals: seconds of simulation")
	}
	h2 := must(lbsim.NewH2Balanced(1, 30))
	type family struct {
		name    string
		cfg     lbsim.Config
		seeds   int
		metrics []string
	}
	for _, f := range []family{
		{"RND K=2 H2 SCV 30 load 0.9, 4e6 jobs", lbsim.Config{Servers: 2, Load: 0.9, Sizes: h2, Policy: lbsim.Random{}, Jobs: 4_000_000}, 40, []string{"p99_wait", "p999_wait", "p99_response"}},
		{"RND K=2 H2 SCV 30 load 0.9, 10 x 4e5 jobs", lbsim.Config{Servers: 2, Load: 0.9, Sizes: h2, Policy: lbsim.Random{}, Jobs: 400_000, Reps: 10}, 40, []string{"p99_wait", "p999_wait"}},
		{"RND K=4 exp load 0.9, 4e5 jobs", lbsim.Config{Servers: 4, Load: 0.9, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 400_000}, 100, []string{"p90_wait", "p99_wait", "p99_response"}},
		{"LWL K=4 exp load 0.9 (M/M/4), 4e5 jobs", lbsim.Config{Servers: 4, Load: 0.9, Sizes: exp1, Policy: lbsim.LeastLoaded{}, Jobs: 400_000}, 100, []string{"p50_wait", "p90_wait", "p99_wait", "p99_response"}},
	} {
		results := make([]lbsim.Result, f.seeds)
		var wg sync.WaitGroup
		next := make(chan int)
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for s := range next {
					cfg := f.cfg
					cfg.Seed, cfg.Workers = uint64(s+1), 1
					results[s] = run(t, cfg)
				}
			}()
		}
		for s := range f.seeds {
			next <- s
		}
		close(next)
		wg.Wait()
		for _, m := range f.metrics {
			given, covered := 0, 0
			for _, r := range results {
				row := lbsim.NewRow(r)
				est, _, _ := row.Metric(m)
				if math.IsNaN(est.CI95) || warned(r) {
					continue
				}
				given++
				if math.Abs(est.Mean-row.MetricExact(m)) <= est.CI95 {
					covered++
				}
			}
			cov := float64(covered) / float64(given)
			t.Logf("%s: %s interval in %d of %d runs, covering %d (%.2f)", f.name, m, given, f.seeds, covered, cov)
			if given > 0 && cov < 0.90 {
				t.Errorf("%s: %s: %d of %d intervals cover the exact %.6g: coverage %.2f < 0.90", f.name, m, covered, given, lbsim.NewRow(results[0]).MetricExact(m), cov)
			}
			if strings.HasPrefix(m, "p99_") && given < f.seeds*3/4 {
				t.Errorf("%s: %s has an interval in %d of %d runs, want most", f.name, m, given, f.seeds)
			}
		}
	}
}

// warned says whether a rule blind to theory warned of the run: any but
// exact-outside-ci, which only a known exact value can raise (what a
// configuration without one would show).
func warned(r lbsim.Result) bool {
	for _, w := range r.Warnings {
		if w.Rule != lbsim.RuleExactOutsideCI {
			return true
		}
	}
	return false
}
