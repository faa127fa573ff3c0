package course

import (
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

// WaitPoint is one simulated mean wait beside theory's value of it, exact or
// a K -> infinity limit (Method says which). Dev = (Wait - Theory) / CI95 is
// the distance in CI half-widths: |Dev| <= 1 means the theory's value lies
// inside the 95% confidence interval.
type WaitPoint struct {
	Policy   string         `json:"policy"`
	Class    string         `json:"class"`
	Load     float64        `json:"load"`
	Wait     float64        `json:"mean_wait"`
	CI95     float64        `json:"ci95"`
	Theory   float64        `json:"theory"`
	Dev      float64        `json:"dev_in_ci"`
	Method   string         `json:"theory_method"`
	Warnings lbsim.Warnings `json:"warnings"`
}

// WaitTable lists every row for each job class beside what theory knows of it
// (JobClass.Theory; NaN where it knows nothing), with the row's warnings.
func WaitTable(rows []lbsim.Row, classes ...JobClass) []WaitPoint {
	var out []WaitPoint
	for _, m := range classes {
		for _, r := range rows {
			y, ci := m.Of(r)
			p := WaitPoint{Policy: r.Label, Class: m.String(), Load: r.Load, Wait: y, CI95: ci,
				Theory: math.NaN(), Dev: math.NaN(), Warnings: r.Warnings}
			if ref, ok := m.Theory(r.Config); ok {
				p.Theory, p.Method = ref.Wait, methodName(ref)
			}
			if ci > 0 { // no CI (a single unit, or no job waited): no distance
				p.Dev = (y - p.Theory) / ci
			}
			out = append(out, p)
		}
	}
	return out
}

// methodName is the formula, marked when it is a K -> infinity limit.
func methodName(ref lbsim.Reference) string {
	if ref.Kind == lbsim.ExactValue {
		return ref.Method
	}
	return ref.Method + " (" + string(ref.Kind) + ")"
}

// RatioPoint is W_num / W_den at one load: simulated, with a 95% half-width
// from the delta method (lbsim.Ratio), and the ratio of the exact values
// where theory has both (NaN otherwise).
type RatioPoint struct {
	Load      float64 `json:"load"`
	Ratio     string  `json:"ratio"` // "RND/RR"
	Simulated float64 `json:"simulated"`
	CI95      float64 `json:"ci95"`
	Theory    float64 `json:"theory"`
}

// Ratios compares the mean waits of each pair of policy labels (e.g.
// {"RND", "LL-2"}) at every load; the error names a missing row.
func Ratios(rows []lbsim.Row, pairs [][2]string, loads []float64) ([]RatioPoint, error) {
	var out []RatioPoint
	for _, rho := range loads {
		for _, pair := range pairs {
			a, err := lbsim.Find(rows, pair[0], rho)
			if err != nil {
				return nil, err
			}
			b, err := lbsim.Find(rows, pair[1], rho)
			if err != nil {
				return nil, err
			}
			r := lbsim.Ratio(lbsim.Estimate{Mean: a.MeanWait, CI95: a.MeanWaitCI95}, lbsim.Estimate{Mean: b.MeanWait, CI95: b.MeanWaitCI95})
			out = append(out, RatioPoint{Load: rho, Ratio: pair[0] + "/" + pair[1], Simulated: r.Mean, CI95: r.CI95, Theory: a.ExactWait / b.ExactWait})
		}
	}
	return out, nil
}
