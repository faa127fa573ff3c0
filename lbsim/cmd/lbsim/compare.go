package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
	"github.com/perfeval/lbsim/lbsim/internal/number"
)

func init() { commands["compare"] = compareCommand }

// compareCommand runs two set-ups A and B on the same system and the same
// seeds (common random numbers) and prints A - B and A / B of a metric
// (-metric: by default the mean wait, under PS and SRPT the mean response)
// with paired 95% intervals and the unpaired ones beside them
// (compare.ResultsOn). Every flag applies to both sides; -policy A,B gives
// each its policy, and -a and -b each side's own settings over the flags
// (sideConfigs), in which the sides may differ as compare.MayDiffer allows.
func compareCommand(args []string, stdout, stderr io.Writer) error {
	var c gridFlags
	fs := newFlagSet("compare", stderr, &c)
	fs.Lookup("policy").Usage = "the two policies A,B to compare, e.g. rnd,rr; with -a or -b also one policy for both sides (" + fs.Lookup("policy").Usage + ")"
	asJSON := fs.Bool("json", false, "print exactly one JSON object on stdout")
	var metric string
	textVar(fs, &metric, "metric", "a metric", "p99_wait", "the metric to compare: one of "+strings.Join(lbsim.Metrics(), ", ")+" (default mean_wait, under PS and SRPT mean_response)")
	var sides [2]sideFlag
	for i, name := range []string{"a", "b"} {
		sides[i].name = name
		fs.Var(&sides[i], name, fmt.Sprintf("side %s's own settings over the flags (which apply to both sides): name=value separated by spaces, names as the flags', e.g. %s; the sides may differ only in %s",
			strings.ToUpper(name), sideExamples[i], strings.Join(compare.MayDiffer(), ", ")))
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if metric != "" {
		if err := lbsim.CheckMetric(metric); err != nil {
			return fmt.Errorf("-metric: %w", err)
		}
	}
	var cfgs []lbsim.Config
	var err error
	if sides[0].given || sides[1].given {
		cfgs, err = sideConfigs(c, sides)
	} else {
		cfgs, err = policyConfigs(c)
	}
	if err != nil {
		return err
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
	// Two policies are named by their labels; set-ups that differ in
	// more, or whose policies share a label, by A and B, each set-up by
	// what differs (compare.Setups).
	names := []string{res[0].Label, res[1].Label}
	var setups []string
	if a, b := compare.Setups(cfgs[0], cfgs[1]); res[0].Label == res[1].Label || strings.Contains(a+b, ", ") {
		setups, names = []string{a, b}, []string{"A", "B"}
		cmp.A, cmp.B = "A", "B"
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(comparisonJSON(cmp, res, setups))
	}
	_, err = fmt.Fprint(stdout, comparisonText(cmp, res, names, setups))
	return err
}

// sideExamples are -a's and -b's examples in their help.
var sideExamples = [2]string{"'policy=jsq view=own dispatchers=4'", "'policy=rr'"}

// policyConfigs are compare's two runs of -policy A,B, every other flag
// for both: the command's first form.
func policyConfigs(c gridFlags) ([]lbsim.Config, error) {
	if err := c.settle(); err != nil {
		return nil, err
	}
	policies := c.grid.Policies
	if len(policies) != 2 {
		s := "s"
		if len(policies) == 1 {
			s = ""
		}
		return nil, fmt.Errorf("-policy has %d value%s; compare takes two, e.g. -policy rnd,rr", len(policies), s)
	}
	if c.grid.Base.Precision > 0 {
		return nil, errPrecision
	}
	cfgs := make([]lbsim.Config, 2)
	for i, p := range policies {
		one := c
		one.grid.Policies = []lbsim.Policy{p}
		cfg, err := one.one()
		if err != nil {
			return nil, err
		}
		cfgs[i] = cfg
	}
	return cfgs, nil
}

var errPrecision = errors.New("-precision stops each run at its own length, so the runs would not be paired; give -jobs and -reps instead (e.g. -reps 10)")

// sideConfigs are the runs of -a and -b: each side the flags' settings
// (-policy A,B: its own policy) with its own over them, set by the flags'
// own setters (lbsim.Grid.Set), so a side accepts every setting a flag
// does, with the same errors; then refused unless the two are paired
// (compare.Pairable), naming the setting, both values and the fix.
func sideConfigs(common gridFlags, sides [2]sideFlag) ([]lbsim.Config, error) {
	policies := common.grid.Policies
	if len(policies) > 2 {
		return nil, fmt.Errorf("-policy has %d values; with -a and -b it takes one (both sides) or two (A,B), or give each side its own: -a 'policy=...'", len(policies))
	}
	cfgs := make([]lbsim.Config, 2)
	for i, side := range sides {
		var one gridFlags
		fs := newFlagSet("compare", io.Discard, &one)
		one.grid = common.grid
		for k := range common.given {
			one.given[k] = true
		}
		if len(policies) == 2 {
			one.grid.Policies = policies[i : i+1]
		}
		if err := side.apply(fs, len(policies) == 2); err != nil {
			return nil, err
		}
		if err := one.settle(); err != nil {
			return nil, fmt.Errorf("-%s: %v", side.name, err)
		}
		cfg, err := one.one()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", strings.ToUpper(side.name), err)
		}
		if cfg.Precision > 0 {
			return nil, errPrecision
		}
		cfgs[i] = cfg
	}
	if err := compare.Pairable(cfgs[0], cfgs[1]); err != nil {
		var u *compare.Unpaired
		if !errors.As(err, &u) {
			return nil, err
		}
		flag := "-" + strings.ReplaceAll(u.Setting, "_", "-")
		return nil, fmt.Errorf("A and B are not paired: %s is %s in A and %s in B; common random numbers need the same %s on both sides (only %s may differ): give %s once, for both sides, and not in -a or -b",
			u.Setting, u.A, u.B, u.Setting, strings.Join(compare.MayDiffer(), ", "), flag)
	}
	return cfgs, nil
}

// sideFlag is -a or -b: one side's own settings, "name=value" separated by
// spaces ("policy=jsq view=own dispatchers=4"; a switch also bare, "tally").
type sideFlag struct {
	name  string // a or b
	text  string
	given bool
}

func (s *sideFlag) String() string { return s.text }

// Set keeps the text: the side's settings apply over the flags', which
// may come after it.
func (s *sideFlag) Set(text string) error {
	if strings.TrimSpace(text) == "" {
		return number.Empty("side "+strings.ToUpper(s.name)+"'s settings, name=value separated by spaces", sideExamples[0])
	}
	s.text, s.given = text, true
	return nil
}

// ownMessage: Set's errors say what is wrong (onceValue).
func (s *sideFlag) ownMessage() {}

// apply sets the side's settings through fs, a flag set of the settings
// (newFlagSet): each by its flag's setter, a name given once; a policy
// not when -policy A,B gave both sides theirs (twoPolicies).
func (s *sideFlag) apply(fs *flag.FlagSet, twoPolicies bool) error {
	seen := map[string]bool{}
	for _, item := range strings.Fields(s.text) {
		name, value, hasValue := strings.Cut(item, "=")
		f := fs.Lookup(strings.ReplaceAll(name, "_", "-"))
		var field lbsim.Field
		if f != nil {
			field = f.Value.(interface{ Field() lbsim.Field }).Field()
		}
		switch {
		case f == nil || !field.Result():
			return fmt.Errorf("-%s: %s: no setting of a side is named %q; the settings are %s (e.g. %s)", s.name, item, name, strings.Join(sideSettings(), ", "), sideExamples[0])
		case !hasValue && !field.IsBool():
			return fmt.Errorf("-%s: %s: give a value, %s=VALUE (settings are name=value separated by spaces, e.g. %s)", s.name, item, name, sideExamples[0])
		case seen[f.Name]:
			return fmt.Errorf("-%s: %s given twice; give it once", s.name, f.Name)
		case f.Name == "policy" && twoPolicies:
			return fmt.Errorf("-%s: policy given beside -policy A,B, which gives both sides theirs; give -policy one value for both, or drop policy= from -%s", s.name, s.name)
		}
		seen[f.Name] = true
		if !hasValue {
			value = "true"
		}
		if err := fs.Set(f.Name, value); err != nil {
			return fmt.Errorf("-%s: %s: %v", s.name, f.Name, err)
		}
	}
	return nil
}

// sideSettings are the names a side's settings may have: the settings'
// flags that change the numbers (lbsim.Fields), not how a run is executed.
func sideSettings() []string {
	var out []string
	for _, f := range lbsim.Fields() {
		if f.Result() {
			out = append(out, f.Name)
		}
	}
	return out
}

// comparisonText is the readable summary: the set-ups (when named A and
// B), the difference with its paired and unpaired intervals, the ratio,
// the exact difference when known, the two means and the runs' warnings,
// each by its side's name.
func comparisonText(c compare.Comparison, res []lbsim.Result, names, setups []string) string {
	s := ""
	for i, setup := range setups {
		s += fmt.Sprintf("%s: %s\n", names[i], setup)
	}
	unit := fmt.Sprintf("%d %s", c.Pairs, c.Units)
	wider := "the paired differences do not vary"
	if c.DiffCI95 > 0 {
		wider = fmt.Sprintf("%.2gx wider", c.UnpairedDiffCI95/c.DiffCI95)
	}
	name := strings.ReplaceAll(c.Metric, "_", " ") // mean wait, p99 response
	if math.IsNaN(c.DiffCI95) && !math.IsNaN(c.Diff) && !strings.HasPrefix(c.Metric, "mean_") {
		s += fmt.Sprintf("%s - %s: %s difference %.6g, no 95%% CI: a run has no interval for it (%s; lbsim run on it says why); run more jobs\n",
			c.A, c.B, name, c.Diff, unit)
		return s + warningsText(res, names)
	}
	s += fmt.Sprintf("%s - %s: %s difference %.6g, paired 95%% CI ± %.3g (%s); unpaired ± %.3g (%s)\n",
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
	return s + warningsText(res, names)
}

// warningsText is the runs' warnings, a line each, by the runs' names.
func warningsText(res []lbsim.Result, names []string) string {
	s := ""
	for i, r := range res {
		for _, w := range r.Warnings {
			s += fmt.Sprintf("WARNING %s: %s\n", names[i], w)
		}
	}
	return s
}

// comparisonJSON is compare's JSON object: the difference and ratio of the
// metric (diff_mean_wait, ...; under PS and SRPT by default of the mean response,
// diff_mean_response, ...; diff_p99_response with -metric p99_response)
// with paired _ci95 half-widths, the unpaired ones, and both runs as lbsim
// run -json reports them. a and b name the sides: their labels, or
// their set-ups (compare.Setups) when these differ in more than the policy.
func comparisonJSON(c compare.Comparison, res []lbsim.Result, setups []string) map[string]any {
	m := c.Metric
	if setups != nil {
		c.A, c.B = setups[0], setups[1]
	}
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
