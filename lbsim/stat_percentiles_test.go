package lbsim_test

import (
	"fmt"
	"math"
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
