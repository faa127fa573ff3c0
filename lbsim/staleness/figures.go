package staleness

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim/plots"
)

// LiveFigure draws the live-board mean time in system of every policy against the SCV, with the
// exact random curve (and the oracle's M/M/K value and Lee-Longton approximation under FCFS)
// dashed.
func (s Setup) LiveFigure(res Results) (plots.Figure, error) {
	fig := plots.Figure{Title: fmt.Sprintf("Live board, K=%d, load %g, %s", s.Servers, s.Load, s.Discipline),
		XLabel: "SCV of job sizes", YLabel: "mean time in system", LogX: true, LogY: true}
	fine := logSpace(s.SCVs[0], s.SCVs[len(s.SCVs)-1], 40)
	for _, p := range Policies() {
		ser := plots.Series{Name: p.Name}
		for _, scv := range s.SCVs {
			e := res.Mean(p, scv, 0, false)
			ser.X, ser.Y, ser.CI = append(ser.X, scv), append(ser.Y, e.Mean), append(ser.CI, e.CI95)
		}
		fig.Series = append(fig.Series, ser)
		cur := plots.Curve{Of: p.Name}
		for _, scv := range fine {
			ref, err := s.ReferenceFor(p, scv)
			if err != nil {
				return fig, err
			}
			if math.IsNaN(ref.Value) {
				continue
			}
			cur.Name = p.Name + ": " + ref.Method
			cur.X, cur.Y = append(cur.X, scv), append(cur.Y, ref.Value)
		}
		if len(cur.X) > 0 {
			fig.Curves = append(fig.Curves, cur)
		}
	}
	return fig, nil
}

// StaleFigures draws one panel per SCV: the board policies' mean time in system against the
// board's refresh period T, and the policies that read no board (random, round robin, oracle) as
// flat lines at their live values, each with its 95% CI; random's exact value is dashed.
func (s Setup) StaleFigures(res Results) ([]plots.Figure, error) {
	var figs []plots.Figure
	tally := ""
	if s.Tally {
		tally = ", with tally"
	}
	for _, scv := range s.SCVs {
		fig := plots.Figure{Title: fmt.Sprintf("SCV %g, %s%s", scv, s.Discipline, tally),
			XLabel: "board refresh period T (service times)", YLabel: "mean time in system", LogX: true, LogY: true}
		for _, p := range Policies() {
			ser := plots.Series{Name: p.Name}
			for _, T := range s.Refresh {
				e := res.Mean(p, scv, T, s.Tally)
				ser.X, ser.Y, ser.CI = append(ser.X, T), append(ser.Y, e.Mean), append(ser.CI, e.CI95)
			}
			fig.Series = append(fig.Series, ser)
			ref, err := s.ReferenceFor(p, scv)
			if err != nil {
				return nil, err
			}
			if ref.Exact && p.Name == "random" {
				n := len(s.Refresh)
				fig.Curves = append(fig.Curves, plots.Curve{Name: "random: " + ref.Method, Of: p.Name,
					X: []float64{s.Refresh[0], s.Refresh[n-1]}, Y: []float64{ref.Value, ref.Value}})
			}
		}
		figs = append(figs, fig)
	}
	return figs, nil
}

// TrapFigure draws, for each law, random dispatch's simulated mean time in system divided by
// the exact Pollaczek-Khinchine value against the run length N, with 95% CIs; 1 is dashed.
func TrapFigure(rows []TrapRow) plots.Figure {
	fig := plots.Figure{Title: "The Pareto trap: random dispatch, load 0.9",
		XLabel: "jobs per run N", YLabel: "simulated / exact mean time in system", LogX: true,
		LegendBottomRight: true}
	var order []string
	byLaw := map[string]*plots.Series{}
	for _, r := range rows {
		ser, ok := byLaw[r.Law]
		if !ok {
			ser = &plots.Series{Name: r.Law}
			byLaw[r.Law] = ser
			order = append(order, r.Law)
		}
		ser.X, ser.Y, ser.CI = append(ser.X, float64(r.Jobs)), append(ser.Y, r.Ratio), append(ser.CI, r.CI95/r.Exact)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, name := range order {
		fig.Series = append(fig.Series, *byLaw[name])
		for _, x := range byLaw[name].X {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if len(order) > 0 {
		fig.Curves = []plots.Curve{{Name: "exact (P-K)", X: []float64{lo, hi}, Y: []float64{1, 1}}}
	}
	return fig
}

// logSpace returns n points from a to b (a, b > 0), evenly spaced in log scale.
func logSpace(a, b float64, n int) []float64 {
	if n < 2 || a == b {
		return []float64{a}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = a * math.Pow(b/a, float64(i)/float64(n-1))
	}
	return out
}
