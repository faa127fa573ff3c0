package nb

import (
	"math"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
	"github.com/perfeval/lbsim/lbsim/plots"
)

// Compare shows policy a against policy b at every load of a sweep's rows
// (compare.ByLoad: same seeds, so common random numbers): a table of
// A - B and A / B with their paired 95% intervals and the unpaired ones
// beside them, and a figure of A - B against the load with the paired
// intervals, the exact difference when theory knows both, and zero. It
// returns the comparisons; rows that are not paired stop the cell with the
// reason (see Fail). opts are Table's (SaveAs, Digits).
//
//	rows := nb.M1(nb.Sweep("JSQ-2 and LL-2", g))
//	nb.Compare(rows, "JSQ-2", "LL-2", "JSQ-2 minus LL-2")
func Compare(rows []lbsim.Row, a, b, caption string, opts ...TableOption) []compare.Comparison {
	return CompareOn(rows, "", a, b, caption, opts...)
}

// CompareOn is Compare on metric, one of lbsim.Metrics (mean_response,
// p99_response, p99_wait, ...; "" for Compare's default): the paired
// differences and ratios of the units' values, per replication or, with
// one replication, per batch (compare.RowsOn). An unknown metric stops the
// cell with the allowed ones.
//
//	nb.CompareOn(rows, "p99_response", "JSQ-2", "JIQ", "p99 response, JSQ-2 minus JIQ")
func CompareOn(rows []lbsim.Row, metric, a, b, caption string, opts ...TableOption) []compare.Comparison {
	cs := M1(compare.ByLoadOn(rows, a, b, metric))
	Table(cs, caption, opts...)
	Figure(differenceFigure(cs, caption))
	return cs
}

// differenceFigure draws the comparisons' A - B against the load.
func differenceFigure(cs []compare.Comparison, title string) plots.Figure {
	c0 := cs[0]
	name := c0.A + " − " + c0.B + " (paired 95% CI)"
	diff := plots.SeriesFrom(name, cs, func(c compare.Comparison) (float64, float64, float64, bool) {
		return c.Load, c.Diff, c.DiffCI95, true
	})
	for i, c := range cs {
		if c.Warnings != "" {
			if diff.Warned == nil {
				diff.Warned = make([]string, len(cs))
			}
			diff.Warned[i] = c.Warnings
		}
	}
	fig := plots.Figure{Title: title, XLabel: plots.LoadLabel, YLabel: strings.ReplaceAll(c0.Metric, "_", " ") + ", " + c0.A + " − " + c0.B, Series: []plots.Series{diff}}
	exact := plots.CurveFrom("exact difference", name, cs, func(c compare.Comparison) (float64, float64, bool) {
		return c.Load, c.ExactDiff, !math.IsNaN(c.ExactDiff)
	})
	if len(exact.X) > 0 {
		fig.Curves = append(fig.Curves, exact)
	}
	zero := plots.CurveFrom("no difference", "", cs, func(c compare.Comparison) (float64, float64, bool) { return c.Load, 0, true })
	fig.Curves = append(fig.Curves, zero)
	return fig
}
