package staleness

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/plots"
)

// LiveFigure draws the live-board mean time in system of every policy against the SCV, with the
// exact random curve (and the oracle's M/M/K value and Lee-Longton approximation under FCFS)
// dashed; warned runs are hollow points, their rules in a footnote.
func (s Setup) LiveFigure(res Results) (plots.Figure, error) {
	fig := plots.Figure{Title: fmt.Sprintf("Live board, K=%d, load %g, %s", s.Servers, s.Load, s.Discipline),
		XLabel: "SCV of job sizes", YLabel: "mean time in system", LogX: true, LogY: true}
	fine := logSpace(s.SCVs[0], s.SCVs[len(s.SCVs)-1], 40)
	for _, p := range Dispatchers() {
		var rows []lbsim.Row
		for _, scv := range s.SCVs {
			rows = append(rows, res.Row(p, scv, 0, false))
		}
		ser, err := plots.Line(p.Name, rows, func(r lbsim.Row) float64 { return r.SCV }, plots.MeanResponse)
		if err != nil {
			return fig, err
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
// flat lines at their live values, each with its 95% CI; random's exact value is dashed; warned
// runs are hollow points, their rules in a footnote.
func (s Setup) StaleFigures(res Results) ([]plots.Figure, error) {
	var figs []plots.Figure
	tally := ""
	if s.Tally {
		tally = ", with tally"
	}
	for _, scv := range s.SCVs {
		fig := plots.Figure{Title: fmt.Sprintf("SCV %g, %s%s", scv, s.Discipline, tally),
			XLabel: "board refresh period T (service times)", YLabel: "mean time in system", LogX: true, LogY: true}
		for _, p := range Dispatchers() {
			var rows []lbsim.Row
			for _, T := range s.Refresh {
				row := res.Row(p, scv, T, s.Tally)
				row.Refresh = T // where to draw it: a policy that reads no board is a flat line
				rows = append(rows, row)
			}
			ser, err := plots.Line(p.Name, rows, func(r lbsim.Row) float64 { return r.Refresh }, plots.MeanResponse)
			if err != nil {
				return nil, err
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
// Runs with warnings are drawn hollow and named in a footnote (plots.Line).
func TrapFigure(rows []TrapRow) (plots.Figure, error) {
	fig := plots.Figure{Title: "The Pareto trap: random dispatch, load 0.9",
		XLabel: "jobs per run N", YLabel: "simulated / exact mean time in system", LogX: true}
	var order []string
	byLaw := map[string][]lbsim.Row{}
	for _, r := range rows {
		if _, ok := byLaw[r.Law]; !ok {
			order = append(order, r.Law)
		}
		byLaw[r.Law] = append(byLaw[r.Law], r.Row)
	}
	jobs := func(r lbsim.Row) float64 { return float64(r.Jobs) }
	ratio := func(r lbsim.Row) (float64, float64) {
		return r.MeanResponse / r.ExactResponse, r.MeanResponseCI95 / r.ExactResponse
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, law := range order {
		s, err := plots.Line(law, byLaw[law], jobs, ratio)
		if err != nil {
			return fig, err
		}
		fig.Series = append(fig.Series, s)
		lo, hi = math.Min(lo, slices.Min(s.X)), math.Max(hi, slices.Max(s.X))
	}
	if len(order) > 0 {
		fig.Curves = []plots.Curve{{Name: "exact (P-K)", X: []float64{lo, hi}, Y: []float64{1, 1}}}
	}
	return fig, nil
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
