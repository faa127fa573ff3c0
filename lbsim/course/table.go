package course

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

// WaitPoint is one simulated mean wait beside its exact or limiting value.
// Dev = (Wait - Exact) / CI95 is the distance in CI half-widths: |Dev| <= 1
// means the exact value lies inside the 95% confidence interval.
type WaitPoint struct {
	Policy string  `json:"policy"`
	Class  string  `json:"class"`
	Load   float64 `json:"load"`
	Wait   float64 `json:"mean_wait"`
	CI95   float64 `json:"ci95"`
	Exact  float64 `json:"exact"`
	Dev    float64 `json:"dev_in_ci"`
}

// WaitTable lists every row for each metric, with the value of the theory of
// the same policy and metric (NaN where there is none or it does not exist).
func WaitTable(rows []lbsim.Row, metrics []Metric, theories []Theory) []WaitPoint {
	var out []WaitPoint
	for _, m := range metrics {
		for _, r := range rows {
			label := PolicyLabel(r.Policy)
			y, ci := m.Of(r)
			exact := math.NaN()
			for _, th := range theories {
				if th.Policy == label && th.Metric == m {
					if w, err := th.Wait(r.Load); err == nil {
						exact = w
					}
					break
				}
			}
			dev := math.NaN() // no CI (a single unit, or no jobs waited at all): no distance
			if ci > 0 {
				dev = (y - exact) / ci
			}
			out = append(out, WaitPoint{Policy: label, Class: m.String(), Load: r.Load, Wait: y, CI95: ci, Exact: exact, Dev: dev})
		}
	}
	return out
}

// Ratio is W_num / W_den at load rho for the policies labelled num and den
// (e.g. "RND", "LL-2"), with a 95% half-width from the delta method,
// r sqrt((ci_num/W_num)^2 + (ci_den/W_den)^2), which treats the two estimates
// as independent (common random numbers make it conservative when they are
// positively correlated).
func Ratio(rows []lbsim.Row, num, den string, rho float64) (lbsim.Estimate, error) {
	a, err := find(rows, num, rho)
	if err != nil {
		return lbsim.Estimate{}, err
	}
	b, err := find(rows, den, rho)
	if err != nil {
		return lbsim.Estimate{}, err
	}
	r := a.MeanWait / b.MeanWait
	return lbsim.Estimate{Mean: r, CI95: r * math.Hypot(a.MeanWaitCI95/a.MeanWait, b.MeanWaitCI95/b.MeanWait)}, nil
}

func find(rows []lbsim.Row, label string, rho float64) (lbsim.Row, error) {
	for _, r := range rows {
		if PolicyLabel(r.Policy) == label && math.Abs(r.Load-rho) < 1e-9 {
			return r, nil
		}
	}
	return lbsim.Row{}, fmt.Errorf("course: no row for %s at load %g; simulate that load (rows hold %d configurations)", label, rho, len(rows))
}
