package course

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/plots"
)

// WaitFigure is the handout's figure with its uncertainty and theory: mean
// waiting time vs load, one series per (policy, job class), policies in the
// order the rows first name them, with 95% CI error bars and warned points
// hollow, and a dashed curve wherever theory (JobClass.Theory) knows the
// series' configuration, over the simulated loads.
func WaitFigure(title string, rows []lbsim.Row, classes ...JobClass) (plots.Figure, error) {
	fig := plots.Figure{Title: title, XLabel: plots.LoadLabel, YLabel: "mean waiting time E[W]"}
	if len(rows) == 0 {
		return fig, fmt.Errorf("course: no rows to draw in %q; run the sweep first", title)
	}
	for _, label := range plots.Labels(rows) {
		sel := lbsim.Select(rows, func(r lbsim.Row) bool { return r.Label == label })
		lo, hi := plots.LoadRange(sel)
		for _, m := range classes {
			name := label + m.suffix()
			s, err := plots.Line(name, sel, plots.Load, m.Of)
			if err != nil {
				return fig, err
			}
			fig.Series = append(fig.Series, s)
			cfg := sel[0].Config
			var ref lbsim.Reference
			c := plots.FuncCurve("", name, lo, hi, func(rho float64) (float64, bool) {
				cfg.Load = rho
				r, ok := m.Theory(cfg)
				if ok {
					ref = r
				}
				return r.Wait, ok
			})
			if len(c.X) > 0 {
				c.Name = plots.TheoryName(name, ref.Kind) // the formula is in WaitTable's theory_method
				fig.Curves = append(fig.Curves, c)
			}
		}
	}
	return fig, nil
}

// SITASweepFigure is the mean wait of SITA-c against c at load rho: the
// simulated SITA rows (others are skipped) with CIs for each job class, beside
// the exact M/D/1 value at every c between the smallest and the largest
// simulated one where both groups are stable.
func SITASweepFigure(title string, rows []lbsim.Row, rho float64, classes ...JobClass) (plots.Figure, error) {
	fig := plots.Figure{Title: title, XLabel: "c (servers for short jobs)", YLabel: "mean waiting time E[W]", LogY: true}
	sita := lbsim.Select(rows, func(r lbsim.Row) bool { return r.C > 0 && math.Abs(r.Load-rho) <= 1e-9 })
	if len(sita) == 0 {
		return fig, fmt.Errorf("course: no SITA rows at load %g for %q; the rows have %v", rho, title, plots.Labels(rows))
	}
	cs := make([]int, len(sita))
	for i, r := range sita {
		cs[i] = r.C
	}
	for _, m := range classes {
		s, err := plots.Line("SITA-c"+m.suffix(), sita, func(r lbsim.Row) float64 { return float64(r.C) }, m.Of)
		if err != nil {
			return fig, err
		}
		ex := plots.Curve{Name: "exact (M/D/1)" + m.suffix(), Of: s.Name}
		cfg := sita[0].Config
		for c := slices.Min(cs); c <= slices.Max(cs); c++ {
			cfg.Policy = lbsim.SITA{C: c}
			if w := m.theoryWait(cfg); !math.IsNaN(w) {
				ex.X, ex.Y = append(ex.X, float64(c)), append(ex.Y, w)
			}
		}
		fig.Series = append(fig.Series, s)
		if len(ex.X) > 0 {
			fig.Curves = append(fig.Curves, ex)
		}
	}
	return fig, nil
}
