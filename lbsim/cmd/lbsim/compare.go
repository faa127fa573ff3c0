package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
)

func init() { commands["compare"] = compareCommand }

// compareCommand runs two policies on the same system and the same seeds
// (common random numbers) and prints A - B and A / B of a metric (-metric:
// by default the mean wait, under PS and SRPT the mean response) with paired 95%
// intervals and the unpaired ones beside them (compare.ResultsOn). Every
// run flag applies to both runs.
func compareCommand(args []string, stdout, stderr io.Writer) error {
	var c gridFlags
	fs := newFlagSet("compare", stderr, &c)
	fs.Lookup("policy").Usage = "the two policies A,B to compare, e.g. rnd,rr (" + fs.Lookup("policy").Usage + ")"
	asJSON := fs.Bool("json", false, "print exactly one JSON object on stdout")
	var metric string
	textVar(fs, &metric, "metric", "a metric", "p99_wait", "the metric to compare: one of "+strings.Join(lbsim.Metrics(), ", ")+" (default mean_wait, under PS and SRPT mean_response)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if metric != "" {
		if err := lbsim.CheckMetric(metric); err != nil {
			return fmt.Errorf("-metric: %w", err)
		}
	}
	if err := c.settle(); err != nil {
		return err
	}
	policies := c.grid.Policies
	if len(policies) != 2 {
		s := "s"
		if len(policies) == 1 {
			s = ""
		}
		return fmt.Errorf("-policy has %d value%s; compare takes two, e.g. -policy rnd,rr", len(policies), s)
	}
	if c.grid.Base.Precision > 0 {
		return fmt.Errorf("-precision stops each run at its own length, so the runs would not be paired; give -jobs and -reps instead (e.g. -reps 10)")
	}
	cfgs := make([]lbsim.Config, 2)
	for i, p := range policies {
		one := c
		one.grid.Policies = []lbsim.Policy{p}
		cfg, err := one.one()
		if err != nil {
			return err
		}
		cfgs[i] = cfg
	}
	warnUnstable(stderr, "compare", cfgs)
	res, err := lbsim.RunAll(cfgs, nil)
	if err != nil {
		return err
	}
	cmp, err := compare.ResultsOn(res[0], res[1], metric)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(comparisonJSON(cmp, res))
	}
	_, err = fmt.Fprint(stdout, comparisonText(cmp, res))
	return err
}

// comparisonText is the readable summary: the difference with its paired
// and unpaired intervals, the ratio, the exact difference when known, the
// two means and the runs' warnings.
func comparisonText(c compare.Comparison, res []lbsim.Result) string {
	unit := fmt.Sprintf("%d %s", c.Pairs, c.Units)
	wider := "the paired differences do not vary"
	if c.DiffCI95 > 0 {
		wider = fmt.Sprintf("%.2gx wider", c.UnpairedDiffCI95/c.DiffCI95)
	}
	name := strings.ReplaceAll(c.Metric, "_", " ") // mean wait, p99 response
	if math.IsNaN(c.DiffCI95) && !math.IsNaN(c.Diff) && !strings.HasPrefix(c.Metric, "mean_") {
		s := fmt.Sprintf("%s - %s: %s difference %.6g, no 95%% CI: a run has no interval for it (%s; lbsim run on it says why); run more jobs\n",
			c.A, c.B, name, c.Diff, unit)
		return s + warningsText(res)
	}
	s := fmt.Sprintf("%s - %s: %s difference %.6g, paired 95%% CI ± %.3g (%s); unpaired ± %.3g (%s)\n",
		c.A, c.B, name, c.Diff, c.DiffCI95, unit, c.UnpairedDiffCI95, wider)
	if math.IsNaN(c.Ratio) {
		s += fmt.Sprintf("%s / %s: no ratio, %s's %s is 0\n", c.A, c.B, c.B, name)
	} else {
		s += fmt.Sprintf("%s / %s: ratio %.6g, paired 95%% CI ± %.3g; unpaired ± %.3g\n", c.A, c.B, c.Ratio, c.RatioCI95, c.UnpairedRatioCI95)
	}
	if !math.IsNaN(c.ExactDiff) {
		s += fmt.Sprintf("exact difference %.6g\n", c.ExactDiff)
	}
	s += fmt.Sprintf("%s: %s %s; %s: %s %s\n", c.A, name, lbsim.Estimate{Mean: c.MeanA, CI95: c.MeanACI95},
		c.B, name, lbsim.Estimate{Mean: c.MeanB, CI95: c.MeanBCI95})
	return s + warningsText(res)
}

// warningsText is the runs' warnings, a line each.
func warningsText(res []lbsim.Result) string {
	s := ""
	for _, r := range res {
		for _, w := range r.Warnings {
			s += fmt.Sprintf("WARNING %s: %s\n", r.Label, w)
		}
	}
	return s
}

// comparisonJSON is compare's JSON object: the difference and ratio of the
// metric (diff_mean_wait, ...; under PS and SRPT by default of the mean response,
// diff_mean_response, ...; diff_p99_response with -metric p99_response)
// with paired _ci95 half-widths, the unpaired ones, and both runs as lbsim
// run -json reports them.
func comparisonJSON(c compare.Comparison, res []lbsim.Result) map[string]any {
	m := c.Metric
	return map[string]any{
		"a": c.A, "b": c.B, "metric": c.Metric, "load": c.Load, "pairs": c.Pairs, "ci_method": c.Units,
		m + "_a": jsonNum(c.MeanA), m + "_a_ci95": jsonNum(c.MeanACI95),
		m + "_b": jsonNum(c.MeanB), m + "_b_ci95": jsonNum(c.MeanBCI95),
		"diff_" + m: jsonNum(c.Diff), "diff_" + m + "_ci95": jsonNum(c.DiffCI95),
		"ratio_" + m: jsonNum(c.Ratio), "ratio_" + m + "_ci95": jsonNum(c.RatioCI95),
		"unpaired_diff_ci95": jsonNum(c.UnpairedDiffCI95), "unpaired_ratio_ci95": jsonNum(c.UnpairedRatioCI95),
		"exact_diff": jsonNum(c.ExactDiff),
		"runs":       []json.RawMessage{rowJSON(lbsim.NewRow(res[0])), rowJSON(lbsim.NewRow(res[1]))},
	}
}

// jsonNum is x, or nil (JSON null) for a value that does not exist.
func jsonNum(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}
