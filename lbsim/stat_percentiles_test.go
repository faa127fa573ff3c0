package lbsim_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
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
