package course

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/plots"
)

// curvePoints is the number of points of a theory curve.
const curvePoints = 120

// WaitFigure is the handout's figure with its uncertainty and theory: mean
// waiting time vs load, one series per (policy, metric) in the order the rows
// first name them, with 95% CI error bars, and a dashed curve for every theory
// whose policy and metric were simulated, drawn from load 0.01 to the largest
// simulated load. Loads where a theory does not exist (an unstable SITA group)
// are left out of its curve.
func WaitFigure(title string, rows []lbsim.Row, metrics []Metric, theories []Theory) (plots.Figure, error) {
	fig := plots.Figure{Title: title, XLabel: "load ρ", YLabel: "mean waiting time E[W]"}
	index := map[string]int{}
	maxLoad := 0.0
	for _, r := range rows {
		maxLoad = math.Max(maxLoad, r.Load)
		for _, m := range metrics {
			name := PolicyLabel(r.Policy) + m.suffix()
			i, ok := index[name]
			if !ok {
				i = len(fig.Series)
				index[name] = i
				fig.Series = append(fig.Series, plots.Series{Name: name})
			}
			y, ci := m.Of(r)
			s := &fig.Series[i]
			s.X, s.Y, s.CI = append(s.X, r.Load), append(s.Y, y), append(s.CI, ci)
		}
	}
	if len(fig.Series) == 0 {
		return fig, fmt.Errorf("course: no rows to draw in %q", title)
	}
	for _, th := range theories {
		of := th.Policy + th.Metric.suffix()
		if _, ok := index[of]; !ok {
			continue
		}
		c, err := curve(th, 0.01, maxLoad)
		if err != nil {
			return fig, err
		}
		c.Of = of
		fig.Curves = append(fig.Curves, c)
	}
	return fig, nil
}

// curve samples th on [from, to], dropping loads where it does not exist; it
// fails only when it exists nowhere.
func curve(th Theory, from, to float64) (plots.Curve, error) {
	c := plots.Curve{Name: th.Name}
	var firstErr error
	for i := 0; i < curvePoints; i++ {
		rho := from + (to-from)*float64(i)/float64(curvePoints-1)
		w, err := th.Wait(rho)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		c.X, c.Y = append(c.X, rho), append(c.Y, w)
	}
	if len(c.X) == 0 {
		return c, fmt.Errorf("course: %s has no value on loads [%g, %g]: %w", th.Name, from, to, firstErr)
	}
	return c, nil
}

// SITASweepFigure is the mean wait of SITA-c against c at one load rho: the
// simulated SITA rows (other policies are skipped) with CIs, for each metric,
// beside the exact M/D/1 value at every stable c from two below the smallest
// simulated c to two above the largest (the exact wait explodes at the edges
// of the stable range, which would flatten the rest of the figure).
func SITASweepFigure(title string, rows []lbsim.Row, s lbsim.TwoPoint, k int, rho float64, metrics []Metric) (plots.Figure, error) {
	fig := plots.Figure{Title: title, XLabel: "c (servers for short jobs)", YLabel: "mean waiting time E[W]", LogY: true, LegendBottomRight: true}
	for _, m := range metrics {
		ser := plots.Series{Name: "SITA-c" + m.suffix()}
		for _, r := range rows {
			c, ok := sitaC(r.Policy)
			if !ok || math.Abs(r.Load-rho) > 1e-9 {
				continue
			}
			y, ci := m.Of(r)
			ser.X, ser.Y, ser.CI = append(ser.X, float64(c)), append(ser.Y, y), append(ser.CI, ci)
		}
		if len(ser.X) == 0 {
			return fig, fmt.Errorf("course: no SITA rows at load %g for %q", rho, title)
		}
		ex := plots.Curve{Name: "exact (M/D/1)" + m.suffix(), Of: ser.Name}
		for c := max(1, int(slices.Min(ser.X))-2); c <= min(k-1, int(slices.Max(ser.X))+2); c++ {
			if w, err := SITAExact(k, c, s, m).Wait(rho); err == nil {
				ex.X, ex.Y = append(ex.X, float64(c)), append(ex.Y, w)
			}
		}
		fig.Series = append(fig.Series, ser)
		fig.Curves = append(fig.Curves, ex)
	}
	return fig, nil
}
