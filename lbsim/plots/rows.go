package plots

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

// Metric is what a series shows of a row: a mean and the half-width of its
// 95% confidence interval (NaN for none).
type Metric func(lbsim.Row) (mean, ci95 float64)

// MeanWait and MeanResponse are the metrics most figures show.
func MeanWait(r lbsim.Row) (float64, float64)     { return r.MeanWait, r.MeanWaitCI95 }
func MeanResponse(r lbsim.Row) (float64, float64) { return r.MeanResponse, r.MeanResponseCI95 }

// Named is the metric of that name, one of lbsim.Metrics (mean_wait,
// mean_response, mean_slowdown, p50_wait, ..., p999_response): its column and its _ci95
// half-width. An unknown name is an error naming the allowed ones.
//
//	p99, err := plots.Named("p99_response")
func Named(name string) (Metric, error) {
	if err := lbsim.CheckMetric(name); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	return func(r lbsim.Row) (float64, float64) {
		e, _, _ := r.Metric(name)
		return e.Mean, e.CI95
	}, nil
}

// Load is the usual x of a row: its load rho.
func Load(r lbsim.Row) float64 { return r.Load }

// LoadLabel is the axis label of Load, the same in every figure.
const LoadLabel = "load ρ"

// SeriesFrom is the series named name with one point (x, y) per element of
// rows for which at says ok, in order, with the half-width ci of y's 95%
// confidence interval (NaN: no bar). rows may be of any type: a table of
// the cell's own, lbsim.Row, a chain's solutions.
func SeriesFrom[T any](name string, rows []T, at func(T) (x, y, ci float64, ok bool)) Series {
	s := Series{Name: name}
	for _, r := range rows {
		if x, y, ci, ok := at(r); ok {
			s.X, s.Y, s.CI = append(s.X, x), append(s.Y, y), append(s.CI, ci)
		}
	}
	return s
}

// CurveFrom is the curve named name, in the colour of the series of (see
// Curve), with one point (x, y) per element of rows for which at says ok.
func CurveFrom[T any](name, of string, rows []T, at func(T) (x, y float64, ok bool)) Curve {
	c := Curve{Name: name, Of: of}
	for _, r := range rows {
		if x, y, ok := at(r); ok {
			c.X, c.Y = append(c.X, x), append(c.Y, y)
		}
	}
	return c
}

// Line is the series named name with one point (x(r), y(r)) per row, in
// order, with its CI and each warned row's rules (drawn hollow). An empty
// rows is an error: a series built from a filter that matched nothing.
func Line(name string, rows []lbsim.Row, x func(lbsim.Row) float64, y Metric) (Series, error) {
	if len(rows) == 0 {
		return Series{}, fmt.Errorf("plots: series %q has no rows; the filter that built it matched nothing", name)
	}
	s := SeriesFrom(name, rows, func(r lbsim.Row) (float64, float64, float64, bool) {
		m, ci := y(r)
		return x(r), m, ci, true
	})
	for i, r := range rows {
		if rules := ruleNames(r.Warnings); rules != "" {
			if s.Warned == nil {
				s.Warned = make([]string, len(rows))
			}
			s.Warned[i] = rules
		}
	}
	return s, nil
}

func ruleNames(ws lbsim.Warnings) string {
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = w.Rule
	}
	return strings.Join(names, ", ")
}

// ByLabel returns one series per policy label against the load: the rows
// whose Label (or spec, Row.Policy) is label, for each label in the order
// given, or for every label in the order the rows first name them when none
// is given. A label that no row has is an error naming the labels there are,
// and a label with two rows at one load (a grid over K or T) an error naming
// the column to filter by.
func ByLabel(rows []lbsim.Row, y Metric, labels ...string) ([]Series, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("plots: ByLabel got no rows; run a sweep first")
	}
	if len(labels) == 0 {
		labels = Labels(rows)
	}
	var out []Series
	for _, label := range labels {
		sel := lbsim.Select(rows, func(r lbsim.Row) bool { return r.Label == label || r.Policy == label })
		if len(sel) == 0 {
			return nil, fmt.Errorf("plots: no row has the policy %q; the rows have %s", label, strings.Join(Labels(rows), ", "))
		}
		// One point per load: a grid over K or T has several, which one
		// line would join into a zigzag; Find names the column to filter.
		perLoad := map[float64]int{}
		for _, r := range sel {
			if perLoad[r.Load]++; perLoad[r.Load] == 2 {
				_, err := lbsim.Find(sel, label, r.Load)
				return nil, fmt.Errorf("plots: ByLabel: %w", err)
			}
		}
		s, err := Line(label, sel, Load, y)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Labels lists the rows' policy labels in the order they first appear.
func Labels(rows []lbsim.Row) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Label] {
			seen[r.Label] = true
			out = append(out, r.Label)
		}
	}
	return out
}

// CurvePoints is the number of x values at which FuncCurve evaluates f.
const CurvePoints = 100

// FuncCurve samples f at CurvePoints x values evenly spaced on [lo, hi],
// keeping those where f has a finite value (ok); its name and colour come
// from name and of (see Curve). Empty when f has no value anywhere.
func FuncCurve(name, of string, lo, hi float64, f func(x float64) (y float64, ok bool)) Curve {
	c := Curve{Name: name, Of: of}
	for i := range CurvePoints {
		x := lo + (hi-lo)*float64(i)/float64(CurvePoints-1)
		if y, ok := f(x); ok && !math.IsInf(y, 0) && !math.IsNaN(y) {
			c.X, c.Y = append(c.X, x), append(c.Y, y)
		}
	}
	return c
}

// LoadRange is the smallest and largest load of rows.
func LoadRange(rows []lbsim.Row) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		lo, hi = math.Min(lo, r.Load), math.Max(hi, r.Load)
	}
	return lo, hi
}

// TheoryName is the legend of a theory curve for the series label: "RND
// exact", or "LL-2 limit K→∞" for a mean-field limit (the formula is in the
// rows' ExactMethod or LimitMethod).
func TheoryName(label string, kind lbsim.RefKind) string {
	if kind == lbsim.LimitValue {
		return label + " limit K→∞"
	}
	return label + " " + string(kind)
}

// TheoryCurve is the theory's mean wait (lbsim.Theory) for the configuration
// of the rows labelled label, over the loads they were simulated at, drawn
// in the colour of the series of that name (see ByLabel); its legend says
// whether it is exact, a K -> infinity limit or a bound (TheoryName). An
// error says when no row has the label or theory knows nothing of them.
func TheoryCurve(rows []lbsim.Row, label string) (Curve, error) {
	sel := lbsim.Select(rows, func(r lbsim.Row) bool { return r.Label == label || r.Policy == label })
	if len(sel) == 0 {
		return Curve{}, fmt.Errorf("plots: no row has the policy %q; the rows have %s", label, strings.Join(Labels(rows), ", "))
	}
	lo, hi := LoadRange(sel)
	cfg := sel[0].Config
	var kind lbsim.RefKind
	c := FuncCurve("", label, lo, hi, func(rho float64) (float64, bool) {
		cfg.Load = rho
		ref, ok := lbsim.Theory(cfg)
		if ok {
			kind = ref.Kind
		}
		return ref.Wait, ok
	})
	if len(c.X) == 0 {
		return Curve{}, fmt.Errorf("plots: theory (lbsim.Theory) has no finite mean wait for %s at loads %g..%g with these sizes and servers; draw the series alone", label, lo, hi)
	}
	c.Name = TheoryName(label, kind)
	return c, nil
}

// TheoryCurveOf is the exact value of metric (one of lbsim.Metrics:
// mean_wait, mean_response, p99_response, ...) for the rows labelled label,
// one point per row at its load (Row.MetricExact), drawn in the colour of
// the series of that name and named "label exact". A row whose value theory
// does not know (NaN) is left out: no point there, never a zero. Unlike
// TheoryCurve it reads the rows, not lbsim.Theory, so it draws any metric
// with an exact value (PS's and SRPT's mean response, a percentile), and a
// policy that changes with the load (SITA with the best c at each) alike.
// An error says when metric is not a metric (naming the allowed), when no
// row has the label, or when none of its rows has an exact value.
//
//	c, err := plots.TheoryCurveOf(rows, "mean_response", "RND")
func TheoryCurveOf(rows []lbsim.Row, metric, label string) (Curve, error) {
	if err := lbsim.CheckMetric(metric); err != nil {
		return Curve{}, fmt.Errorf("plots: %w", err)
	}
	sel := lbsim.Select(rows, func(r lbsim.Row) bool { return r.Label == label || r.Policy == label })
	if len(sel) == 0 {
		return Curve{}, fmt.Errorf("plots: no row has the policy %q; the rows have %s", label, strings.Join(Labels(rows), ", "))
	}
	c := CurveFrom(TheoryName(label, lbsim.ExactValue), label, sel, func(r lbsim.Row) (float64, float64, bool) {
		y := r.MetricExact(metric)
		return r.Load, y, !math.IsNaN(y) && !math.IsInf(y, 0)
	})
	if len(c.X) == 0 {
		return Curve{}, fmt.Errorf("plots: theory knows no exact %s for %s at any of its %d rows (Row.MetricExact is NaN); draw the series alone", metric, label, len(sel))
	}
	return c, nil
}
