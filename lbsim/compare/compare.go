// Package compare compares two dispatching policies run on the same system
// and the same random numbers: the difference and the ratio of a metric
// (the mean wait by default, or any of lbsim.Metrics: mean_response,
// p99_response, p50_wait, ...) with paired 95% intervals.
//
// Runs on the same seed see the same arrivals and the same job sizes: they
// are drawn from their own streams, apart from the policy's choices (common
// random numbers). Two policies run on the same seed are then paired:
// replication i of A and of B (or, with one replication, batch b of each) met
// the same jobs, so their means move together, and the difference of the
// pairs varies far less than either mean. This package ([Results] on
// results, [Rows] on rows, which keep each replication's value of every
// metric in Units, out of the CSV; [ByLoad] over a sweep; the On variants
// take a metric), nb.Compare and lbsim compare give
// A - B and A / B of the metric with the paired 95% interval (Student t on the per-replication
// differences; the ratio's by the delta method on the paired means) beside
// the unpaired one that treats the runs as independent (sqrt(h_A^2 + h_B^2),
// and lbsim.Ratio). Runs that are not paired (another seed, length, number of
// replications, warm-up, servers, speeds, load, sizes, arrivals or trace:
// any setting but those of [MayDiffer], the policy, the view, the board, the
// dispatchers and the discipline; or one replication with WarmupAuto) are
// refused with the reason; Precision is refused, since it stops each run at
// its own length. [Pairable] judges two configurations so before they run,
// and [Setups] names them by what differs: lbsim compare pairs two set-ups
// so, each side its own settings (-a 'policy=jsq view=own dispatchers=4'
// -b 'policy=rr'), and refuses a side whose load, servers, ... differ.
//
// Pairing helps most when the two policies react alike to the same bursts,
// and least when one policy's own randomness dominates. K = 50, load 0.9,
// exponential sizes unless noted, 10 replications of 2e5 jobs after a warm-up
// of 2e4, seed 1 (paired and unpaired 95% half-widths of the mean-wait
// difference):
//
//	comparison                      A - B   paired    unpaired   unpaired / paired
//	RND - RR (exact 4.725)          4.627   ± 0.213   ± 0.300    1.4
//	JSQ-2 - LL-2                    0.557   ± 0.0069  ± 0.0304   4.4
//	JSQ-2 - LL-2, H2 sizes SCV 10   2.710   ± 0.091   ± 0.263    2.9
//
// With one replication of 2e6 jobs (20 paired batch means) the gains are
// alike: 1.5 for RND - RR, 4.1 for JSQ-2 - LL-2. A ratio of 4.4 in half-width
// is 4.4^2 = 19 times fewer jobs for the same precision. RND and RR gain
// least: RND's random choices, not the shared arrivals, set most of its
// servers' queues. TestCompareCLIExact checks that the paired interval of
// RND - RR covers the exact difference (Pollaczek-Khinchine minus E_K/M/1)
// and is narrower than the unpaired one.
package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

// Comparison is policy A against policy B on the same system and the same
// random numbers: the difference and the ratio of their means with paired
// 95% intervals, and the unpaired intervals beside them to show the gain.
// The metric is one of lbsim.Metrics; by default the mean wait, or the mean
// response when either run is PS or SRPT (as everywhere in lbsim: under a
// preemptive discipline the response is what is measured).
//
// With n units (replications, or the batches of one replication) and
// a_i, b_i their values (means, or quantiles: each unit's own), d_i = a_i -
// b_i, and A, B the runs' values (pooled means, quantiles of all jobs):
//
//	Diff  = A - B,  half-width t_{0.975,n-1} s_d / sqrt(n)
//	Ratio = A / B,  half-width t_{0.975,n-1} s_e / (sqrt(n) |B|),  e_i = a_i - Ratio b_i
//
// s the sample standard deviations (divisor n-1). The ratio's interval is
// the delta method for a ratio of paired means, which keeps their
// covariance. The unpaired intervals treat A and B as independent:
// sqrt(h_A^2 + h_B^2) for the difference, Ratio's formula for the ratio.
// Pairing narrows the interval when A and B move together unit by unit,
// which common random numbers make them do: the same seeds give both runs
// the same arrivals and sizes (rng.go draws the policy's choices apart).
type Comparison struct {
	A         string  `json:"a"` // policy labels
	B         string  `json:"b"`
	Load      float64 `json:"load"`
	Metric    string  `json:"metric"` // lbsim.Metrics' name: mean_wait, p99_response, ...
	MeanA     float64 `json:"mean_a"`
	MeanACI95 float64 `json:"mean_a_ci95"`
	MeanB     float64 `json:"mean_b"`
	MeanBCI95 float64 `json:"mean_b_ci95"`

	Diff              float64 `json:"diff"`
	DiffCI95          float64 `json:"diff_ci95"`          // paired
	UnpairedDiffCI95  float64 `json:"unpaired_diff_ci95"` // as if independent
	Ratio             float64 `json:"ratio"`              // NaN when B's value is 0
	RatioCI95         float64 `json:"ratio_ci95"`
	UnpairedRatioCI95 float64 `json:"unpaired_ratio_ci95"`
	// ExactDiff is exact(A) - exact(B) when theory knows both exactly, else NaN.
	ExactDiff float64 `json:"exact_diff"`

	Pairs    int    `json:"pairs"`
	Units    string `json:"units"`    // "replications" or "batch means" (batch quantiles for a percentile)
	Warnings string `json:"warnings"` // each run's warning rules, by policy
}

// Results is Rows on two results.
func Results(a, b lbsim.Result) (Comparison, error) { return ResultsOn(a, b, "") }

// ResultsOn is RowsOn on two results.
func ResultsOn(a, b lbsim.Result, metric string) (Comparison, error) {
	return RowsOn(lbsim.NewRow(a), lbsim.NewRow(b), metric)
}

// Rows compares the runs of two rows on the default metric (see RowsOn).
func Rows(a, b lbsim.Row) (Comparison, error) { return RowsOn(a, b, "") }

// preemptive is whether a row's discipline serves jobs preemptively (PS,
// SRPT), where the response is what is measured: its column read by
// lbsim's parser, since a row decoded from a cache has no Config; "" is
// the default, FCFS.
func preemptive(r lbsim.Row) bool {
	var c lbsim.Config
	f, _ := field("discipline")
	return f.Set(&c, r.Discipline) == nil && c.Discipline.Preemptive()
}

// RowsOn compares the runs of two rows on metric, one of lbsim.Metrics, or
// "" for the default: the mean wait, the mean response when either run is
// PS or SRPT (see Comparison). It refuses an unknown metric, naming the
// allowed, and rows that are not paired: the settings of MayDiffer (the
// policy, the view, the board, the dispatchers, the discipline) may
// differ, nothing that sets the arrivals, the sizes or the units.
func RowsOn(a, b lbsim.Row, metric string) (Comparison, error) {
	if metric == "" {
		metric = "mean_wait"
		if preemptive(a) || preemptive(b) {
			metric = "mean_response"
		}
	}
	if err := lbsim.CheckMetric(metric); err != nil {
		return Comparison{}, err
	}
	if err := paired(a, b, metric); err != nil {
		return Comparison{}, err
	}
	ea, ua, _ := a.Metric(metric)
	eb, ub, _ := b.Metric(metric)
	mA, hA, mB, hB := ea.Mean, ea.CI95, eb.Mean, eb.CI95
	c := Comparison{
		A: a.Label, B: b.Label, Load: a.Load, Metric: metric, MeanA: mA, MeanACI95: hA, MeanB: mB, MeanBCI95: hB,
		Diff: mA - mB, UnpairedDiffCI95: math.Hypot(hA, hB),
		Ratio: mA / mB, UnpairedRatioCI95: lbsim.Ratio(lbsim.Estimate{Mean: mA, CI95: hA}, lbsim.Estimate{Mean: mB, CI95: hB}).CI95,
		ExactDiff: math.NaN(), Pairs: len(ua), Units: "replications",
		Warnings: strings.Join(slices.DeleteFunc([]string{ruleList(a), ruleList(b)}, func(s string) bool { return s == "" }), "; "),
	}
	batches := a.Reps == 1
	if a.CIMethod != "" { // a trace's replays summed are batches too
		batches = !strings.HasPrefix(a.CIMethod, "replications")
	}
	if batches {
		c.Units = "batch means"
		if !strings.HasPrefix(metric, "mean_") {
			c.Units = "batch quantiles"
		}
	}
	c.ExactDiff = a.MetricExact(metric) - b.MetricExact(metric)
	d, e := make([]float64, len(ua)), make([]float64, len(ua))
	for i := range ua {
		d[i], e[i] = ua[i]-ub[i], ua[i]-c.Ratio*ub[i]
	}
	c.DiffCI95 = lbsim.MeanCI95(d).CI95
	c.RatioCI95 = lbsim.MeanCI95(e).CI95 / math.Abs(mB)
	if mB == 0 { // B's median wait of 0, no job waited: no ratio
		c.Ratio, c.RatioCI95, c.UnpairedRatioCI95 = math.NaN(), math.NaN(), math.NaN()
	}
	if math.IsNaN(hA) || math.IsNaN(hB) {
		// A percentile without an interval (lbsim.Quantiles; lbsim run
		// says why): none for its differences either.
		c.DiffCI95, c.RatioCI95 = math.NaN(), math.NaN()
	}
	return c, nil
}

// ruleList is "LABEL: rule, rule" for a row with warnings, else "".
func ruleList(r lbsim.Row) string {
	if len(r.Warnings) == 0 {
		return ""
	}
	rules := make([]string, len(r.Warnings))
	for i, w := range r.Warnings {
		rules[i] = w.Rule
	}
	return r.Label + ": " + strings.Join(rules, ", ")
}

// mayDiffer are the settings (columns of the field table, lbsim.Fields)
// two paired runs may differ in: how jobs are dispatched and served, not
// which jobs arrive when, nor what is measured of them.
var mayDiffer = []string{"policy", "view", "delay", "refresh", "tally", "dispatchers", "dispatcher_weights", "stagger", "discipline", "overload", "sample_every"}

// paired says why two rows do not share their random numbers unit by unit,
// or nil: every other setting the same (the seed, the length, the
// replications, the warm-up, the servers, the load, the sizes, the
// arrivals or trace, the batches), and the same number of units; and one
// of mayDiffer different (the same configuration twice gives the same run,
// a difference 0 by construction).
func paired(a, b lbsim.Row, metric string) error {
	for _, r := range []lbsim.Row{a, b} {
		if len(r.Units[metric]) == 0 {
			return fmt.Errorf("%s has no per-replication values of %s to pair (a row read from CSV, or made by hand): compare results of Run, or rows of Sweep or nb.Sweep", r.Label, metric)
		}
	}
	same, err := settingsPaired(a, b)
	if err != nil {
		return fmt.Errorf("%s and %s are not paired: %w", a.Label, b.Label, err)
	}
	if na, nb := len(a.Units[metric]), len(b.Units[metric]); na != nb {
		return fmt.Errorf("%s and %s are not paired: %d and %d units; common random numbers need the same units in both runs", a.Label, b.Label, na, nb)
	}
	if ta, tb := a.Config.Trace, b.Config.Trace; ta != nil && tb != nil && ta != tb &&
		(!slices.Equal(ta.Times, tb.Times) || !slices.Equal(ta.Sizes, tb.Sizes)) {
		return fmt.Errorf("%s and %s are not paired: their traces of %d jobs differ; replay the same trace in both runs", a.Label, b.Label, ta.Len())
	}
	if a.ControlVariates || b.ControlVariates {
		// The pairs are plain unit means; an adjusted mean beside them would
		// mix two estimators. Pairing already removes the shared variation.
		return fmt.Errorf("%s and %s: a paired comparison uses the plain means; run both without ControlVariates (-control-variates): pairing already removes the variation the runs share", a.Label, b.Label)
	}
	if a.Reps == 1 && a.WarmupAuto {
		return fmt.Errorf("%s and %s are not paired: one replication with auto warm-up truncates each run at its own point, so batch b of A and of B hold different jobs; use 2 or more replications (paired by replication) or a fixed warm-up", a.Label, b.Label)
	}
	if same && a.Config.Key() == b.Config.Key() {
		return fmt.Errorf("%s and %s are the same configuration: on the same random numbers they run alike, a difference of 0 by construction; compare two policies (or boards, dispatchers, disciplines), e.g. -policy rnd,rr", a.Label, b.Label)
	}
	return nil
}

// settingsPaired compares the settings of two rows (their columns of the
// field table): an *Unpaired for the first that differs outside mayDiffer
// (control-variates is refused on its own), and whether none of mayDiffer
// differs either.
func settingsPaired(a, b lbsim.Row) (same bool, err error) {
	ra, rb := a.Record(), b.Record()
	same = true
	for i, col := range lbsim.RowHeader() {
		f, setting := field(col)
		if setting && slices.Contains(mayDiffer, col) && ra[i] != rb[i] {
			same = false
		}
		if !setting || slices.Contains(mayDiffer, col) || f.Name == "control-variates" {
			continue
		}
		if ra[i] != rb[i] {
			return false, &Unpaired{Setting: col, A: ra[i], B: rb[i]}
		}
	}
	return same, nil
}

// Unpaired is a setting in which two runs differ that sets the arrivals,
// the sizes or the units (any but MayDiffer): their runs would not share
// their random numbers. A and B are its values as the result columns write
// them.
type Unpaired struct{ Setting, A, B string }

func (e *Unpaired) Error() string {
	return fmt.Sprintf("%s %s and %s differ; common random numbers need the same %s in both runs (only %s may differ)", e.Setting, e.A, e.B, e.Setting, strings.Join(mayDiffer, ", "))
}

// MayDiffer are the settings (columns of the field table, lbsim.Fields) in
// which two paired runs may differ: how jobs are dispatched and served.
func MayDiffer() []string { return slices.Clone(mayDiffer) }

// Pairable says, before running them, why two configurations would not be
// paired, or nil: an *Unpaired for a setting outside MayDiffer that
// differs (the load, the servers, the sizes, the arrivals or trace, the
// seed, the length, the replications, the batches, the warm-up, ...), the
// same errors as RowsOn's for a trace, control variates, one replication
// with auto warm-up, and the same configuration twice, naming a A and b B.
func Pairable(a, b lbsim.Config) error {
	ra := lbsim.NewRow(lbsim.Result{Config: a, Label: "A"})
	rb := lbsim.NewRow(lbsim.Result{Config: b, Label: "B"})
	same, err := settingsPaired(ra, rb)
	if err != nil {
		return err
	}
	if ta, tb := a.Trace, b.Trace; ta != nil && tb != nil && ta != tb &&
		(!slices.Equal(ta.Times, tb.Times) || !slices.Equal(ta.Sizes, tb.Sizes)) {
		return fmt.Errorf("A and B are not paired: their traces of %d jobs differ; replay the same trace in both runs", ta.Len())
	}
	if a.ControlVariates || b.ControlVariates {
		return fmt.Errorf("A and B: a paired comparison uses the plain means; run both without ControlVariates (-control-variates): pairing already removes the variation the runs share")
	}
	if a.Reps <= 1 && a.WarmupAuto {
		return fmt.Errorf("A and B are not paired: one replication with auto warm-up truncates each run at its own point, so batch b of A and of B hold different jobs; use 2 or more replications (paired by replication) or a fixed warm-up")
	}
	if same && a.Key() == b.Key() {
		return fmt.Errorf("A and B are the same configuration: on the same random numbers they run alike, a difference of 0 by construction; make them differ in one of %s", strings.Join(mayDiffer, ", "))
	}
	return nil
}

// Setups names two configurations by what differs between them: each its
// policy as the command line writes it, then every other setting of
// MayDiffer in which they differ, "name value" ("jsq, view own,
// dispatchers 4" and "rr, view live, dispatchers 1").
func Setups(a, b lbsim.Config) (nameA, nameB string) {
	ra, rb := lbsim.NewRow(lbsim.Result{Config: a}).Record(), lbsim.NewRow(lbsim.Result{Config: b}).Record()
	var pa, pb []string
	for i, col := range lbsim.RowHeader() {
		if _, setting := field(col); !setting || !slices.Contains(mayDiffer, col) {
			continue
		}
		switch {
		case col == "policy":
			pa, pb = append([]string{ra[i]}, pa...), append([]string{rb[i]}, pb...)
		case ra[i] != rb[i]:
			pa, pb = append(pa, col+" "+ra[i]), append(pb, col+" "+rb[i])
		}
	}
	return strings.Join(pa, ", "), strings.Join(pb, ", ")
}

// field is the setting of a column, if it is one.
func field(col string) (lbsim.Field, bool) {
	for _, f := range lbsim.Fields() {
		if f.Result() && f.Column() == col {
			return f, true
		}
	}
	return lbsim.Field{}, false
}

// ByLoad is ByLoadOn the default metric.
func ByLoad(rows []lbsim.Row, a, b string) ([]Comparison, error) { return ByLoadOn(rows, a, b, "") }

// ByLoadOn compares policy a against b on metric (see RowsOn) at every
// load of a sweep at which a has a row (labels as in Find), in increasing
// load; an error names the missing row or the load whose runs are not
// paired.
func ByLoadOn(rows []lbsim.Row, a, b, metric string) ([]Comparison, error) {
	if metric != "" {
		if err := lbsim.CheckMetric(metric); err != nil {
			return nil, err
		}
	}
	var loads []float64
	labels := map[string]bool{}
	for _, r := range rows {
		if (r.Label == a || r.Policy == a) && !slices.Contains(loads, r.Load) {
			loads = append(loads, r.Load)
		}
		labels[r.Label] = true
	}
	if len(loads) == 0 {
		return nil, fmt.Errorf("no row for policy %q: the rows have policies %s", a, strings.Join(slices.Sorted(maps.Keys(labels)), ", "))
	}
	sort.Float64s(loads)
	out := make([]Comparison, len(loads))
	for i, load := range loads {
		ra, err := lbsim.Find(rows, a, load)
		if err != nil {
			return nil, err
		}
		rb, err := lbsim.Find(rows, b, load)
		if err != nil {
			return nil, err
		}
		if out[i], err = RowsOn(ra, rb, metric); err != nil {
			return nil, fmt.Errorf("at load %s: %w", strconv.FormatFloat(load, 'g', -1, 64), err)
		}
	}
	return out, nil
}
