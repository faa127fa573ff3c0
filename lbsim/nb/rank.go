package nb

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
)

// Placing is one row of a Ranking: a run's place among those of its group
// by a metric (lower is better), and how it compares with the best of the
// group on the same arrivals and sizes (common random numbers: paired, as
// compare.RowsOn pairs them).
type Placing struct {
	Group  string  `json:"group"`
	Rank   int     `json:"rank"` // 1 for the best
	Name   string  `json:"name"`
	Metric string  `json:"metric"` // one of lbsim.Metrics
	Value  float64 `json:"value"`  // the row's value of Metric
	CI95   float64 `json:"ci95"`   // and its 95% half-width
	Best   string  `json:"best"`   // the name of the group's best
	// Diff is Value minus the best's and Ratio Value over the best's, with
	// their paired 95% half-widths (compare.Comparison): 0 ± 0 and 1 ± 0
	// for the best itself.
	Diff      float64 `json:"diff"`
	DiffCI95  float64 `json:"diff_ci95"`
	Ratio     float64 `json:"ratio"`
	RatioCI95 float64 `json:"ratio_ci95"`
	// Verdict is "best" for the best, "worse" when the paired interval of
	// Diff lies above 0, "not distinguishable" when it holds 0 (the runs do
	// not tell this row from the best), and "no interval" when the runs
	// give none (a half-width of NaN: a percentile whose units are too
	// short, say), which decides nothing either.
	Verdict string `json:"verdict"`
	// Step compares the row with the one ranked just above it in the same
	// way: "<" (that one is better, decided), "≈" (the paired interval of
	// their difference holds 0) or "?" (no interval); "" for the best.
	Step     string         `json:"step"`
	Warnings lbsim.Warnings `json:"warnings"` // the row's
	// Row and BestRow are the rows compared (not shown in a table), for On.
	Row     lbsim.Row `json:"-"`
	BestRow lbsim.Row `json:"-"`
}

// The verdicts of a Placing.
const (
	VerdictBest       = "best"
	VerdictWorse      = "worse"
	VerdictIndistinct = "not distinguishable"
	VerdictNoInterval = "no interval"
)

// verdicts are the Verdict and the Step of a comparison with the best, or
// with the row above: by whether its paired interval of the difference
// lies above 0, holds it, or is missing.
var verdicts = map[outcome]struct{ verdict, step string }{
	decidedWorse: {VerdictWorse, "<"},
	undecided:    {VerdictIndistinct, "≈"},
	noInterval:   {VerdictNoInterval, "?"},
}

type outcome int

const (
	decidedWorse outcome = iota
	undecided
	noInterval
)

// outcomeOf is what c's paired interval of A - B says.
func outcomeOf(c compare.Comparison) outcome {
	switch {
	case math.IsNaN(c.DiffCI95):
		return noInterval
	case c.Diff-c.DiffCI95 > 0:
		return decidedWorse
	}
	return undecided
}

// Decided reports whether the best is told apart from this row: its paired
// interval lies above 0 (Verdict "worse").
func (p Placing) Decided() bool { return p.Verdict == VerdictWorse }

// Ranking is the rows of Rank, group by group (in the order the rows first
// name them), best first in each. It is a table: show it with Table.
type Ranking []Placing

// Rank orders rows by metric (one of lbsim.Metrics; lower is better) within
// each group (the rows for which group returns the same string: a load, a
// discipline; nil puts every row in one group), names each by name (nil:
// Row.Label), and pairs the best of each group against every other row of
// it and every row against the one ranked just above it (compare.RowsOn on
// the rows' per-replication values, Row.Units): the difference and the
// ratio with their paired 95% intervals, and whether the interval of the
// difference holds 0 (Verdict, Step). The rows of a group must be paired
// (same seed, jobs, replications, load, sizes: any setting but the
// policy, the view, the board, the dispatchers and the discipline) and
// carry their units (rows of Sweep, RunAll or lbsim.Rows, not read from
// CSV). An unknown metric is an error naming the allowed ones, as are two
// rows of one name in a group and rows that are not paired.
//
//	rk := nb.M1(nb.Rank(rows, "p99_response", func(r lbsim.Row) string { return fmt.Sprintf("load %v", r.Load) }, nil))
//	nb.Table(rk, "p99 response, best first at each load, paired against the best")
//	fmt.Println(rk.Chain("load 0.9")) // JSQ-2 31.2 < LL-2 35.0 ≈ JIQ 35.3
func Rank(rows []lbsim.Row, metric string, group, name func(lbsim.Row) string) (Ranking, error) {
	if err := lbsim.CheckMetric(metric); err != nil {
		return nil, fmt.Errorf("nb.Rank: %w", err)
	}
	if group == nil {
		group = func(lbsim.Row) string { return "" }
	}
	if name == nil {
		name = func(r lbsim.Row) string { return r.Label }
	}
	var groups []string
	members := map[string][]lbsim.Row{}
	for _, r := range rows {
		g := group(r)
		if _, ok := members[g]; !ok {
			groups = append(groups, g)
		}
		members[g] = append(members[g], r)
	}
	var out Ranking
	for _, g := range groups {
		at := members[g]
		value := func(r lbsim.Row) float64 { e, _, _ := r.Metric(metric); return e.Mean }
		// Lower first, a NaN (no value) last; ties keep the rows' order.
		slices.SortStableFunc(at, func(a, b lbsim.Row) int {
			va, vb := value(a), value(b)
			if math.IsNaN(va) || math.IsNaN(vb) {
				return cmp.Compare(b2i(math.IsNaN(va)), b2i(math.IsNaN(vb)))
			}
			return cmp.Compare(va, vb)
		})
		seen := map[string]bool{}
		for _, r := range at {
			n := name(r)
			if seen[n] {
				return nil, fmt.Errorf("nb.Rank: group %q has two rows named %q; give group or name a column that tells them apart (the load, the discipline, the view)", g, n)
			}
			seen[n] = true
		}
		for i, r := range at {
			p, err := placing(r, at[0], metric, name(r), name(at[0]))
			if err != nil {
				return nil, fmt.Errorf("nb.Rank: group %q: %w", g, err)
			}
			p.Group, p.Rank = g, i+1
			if i > 0 {
				above, err := compare.RowsOn(r, at[i-1], metric)
				if err != nil {
					return nil, fmt.Errorf("nb.Rank: group %q: %w", g, err)
				}
				p.Step = verdicts[outcomeOf(above)].step
			}
			out = append(out, p)
		}
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// placing is row r, named n, against best, named bestName, on metric.
func placing(r, best lbsim.Row, metric, n, bestName string) (Placing, error) {
	e, _, _ := r.Metric(metric)
	p := Placing{Name: n, Metric: metric, Value: e.Mean, CI95: e.CI95, Best: bestName, Ratio: 1,
		Verdict: VerdictBest, Warnings: r.Warnings, Row: r, BestRow: best}
	if n == bestName {
		return p, nil
	}
	c, err := compare.RowsOn(r, best, metric)
	if err != nil {
		return Placing{}, err
	}
	p.Diff, p.DiffCI95, p.Ratio, p.RatioCI95 = c.Diff, c.DiffCI95, c.Ratio, c.RatioCI95
	p.Verdict = verdicts[outcomeOf(c)].verdict
	return p, nil
}

// On is p on another metric (one of lbsim.Metrics) against the same best,
// the one of the ranking's metric: its value, difference and ratio with
// their paired intervals, and the verdict. Rank stays the ranking's, Step
// is left empty (the row above is not this metric's), and the best's
// Verdict is "best" (its difference 0 ± 0).
//
//	p.On("mean_response") // the best by p99: by how much is this row's mean worse?
func (p Placing) On(metric string) (Placing, error) {
	if err := lbsim.CheckMetric(metric); err != nil {
		return Placing{}, fmt.Errorf("nb: Placing.On: %w", err)
	}
	q, err := placing(p.Row, p.BestRow, metric, p.Name, p.Best)
	if err != nil {
		return Placing{}, fmt.Errorf("nb: Placing.On: %w", err)
	}
	q.Group, q.Rank = p.Group, p.Rank
	return q, nil
}

// On is every placing of the ranking On metric: the same rows in the same
// order, each against the best of the ranking's metric.
//
//	means := nb.M1(rk.On("mean_response")) // the best by p99, compared on the mean
func (rk Ranking) On(metric string) (Ranking, error) {
	out := make(Ranking, len(rk))
	for i, p := range rk {
		q, err := p.On(metric)
		if err != nil {
			return nil, err
		}
		out[i] = q
	}
	return out, nil
}

// Groups are the ranking's groups, in order.
func (rk Ranking) Groups() []string {
	var out []string
	for _, p := range rk {
		if !slices.Contains(out, p.Group) {
			out = append(out, p.Group)
		}
	}
	return out
}

// Group is the ranking of group g, best first (empty if there is none).
func (rk Ranking) Group(g string) Ranking {
	return slices.DeleteFunc(slices.Clone(rk), func(p Placing) bool { return p.Group != g })
}

// Find is the placing named name in group g.
func (rk Ranking) Find(g, name string) (Placing, bool) {
	i := slices.IndexFunc(rk, func(p Placing) bool { return p.Group == g && p.Name == name })
	if i < 0 {
		return Placing{}, false
	}
	return rk[i], true
}

// Chain is group g in one line, best first, each name with its value (3
// significant digits) and each joined to the one above by its Step: "JSQ
// 1.23 < LL-2 1.87 ≈ RND 1.90" (LL-2 decided worse than JSQ, RND not told
// apart from LL-2; "?" where the runs give no interval).
func (rk Ranking) Chain(g string) string {
	var b strings.Builder
	for _, p := range rk.Group(g) {
		if p.Rank > 1 {
			b.WriteString(" " + p.Step + " ")
		}
		fmt.Fprintf(&b, "%s %.3g", p.Name, p.Value)
	}
	return b.String()
}
