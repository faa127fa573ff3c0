package lbsim

import (
	"fmt"
	"strings"
)

// Grid is a sweep: every combination of its axes applied to Base is one
// configuration (an empty axis keeps Base's value), in gridAxes' order. All
// share Base's seed, so every policy and load sees the same sizes and
// (scaled) arrivals: common random numbers, as in the course's R code. The
// command line, sweep files and Slurm scripts write it as text (run_sweep_spec.go).
type Grid struct {
	Base        Config
	Sizes       []SizeLaw
	Servers     []int
	Disciplines []Discipline
	Refresh     []float64
	Dispatchers []int
	Views       []ViewKind
	Delays      []float64
	Policies    []Policy
	Loads       []float64
	// SkipInvalid drops the invalid configurations (Valid) instead of
	// failing: lbsim sweep -skip-invalid (nb.SweepValid in a notebook).
	SkipInvalid bool
}

// gridAxes are the axes in the order they expand, the first outermost.
var gridAxes = []string{"sizes", "servers", "discipline", "refresh", "dispatchers", "view", "delay", "policy", "load"}

// axes are the grid's axis fields in gridAxes order.
func axes() []*Field {
	out := make([]*Field, len(gridAxes))
	for i, name := range gridAxes {
		out[i], _ = fieldNamed(name)
	}
	return out
}

// Configs lists the grid's configurations in sweep order.
func (g Grid) Configs() []Config {
	cfgs := []Config{g.Base}
	for _, f := range axes() {
		n := f.ops.axis.n(&g)
		if n == 0 {
			continue
		}
		out := make([]Config, 0, len(cfgs)*n)
		for _, c := range cfgs {
			for i := range n {
				f.ops.axis.apply(&g, i, &c)
				out = append(out, c)
			}
		}
		cfgs = out
	}
	return cfgs
}

// One is the grid's only configuration (lbsim run): an error names an
// axis that has several values.
func (g Grid) One() (Config, error) {
	for _, f := range axes() {
		if n := f.ops.axis.n(&g); n > 1 {
			return Config{}, fmt.Errorf("%s has %d values; give one, or sweep them (lbsim sweep, nb.Sweep)", f.Name, n)
		}
	}
	return g.Configs()[0], nil
}

// Valid is ValidConfigs of the grid's configurations.
func (g Grid) Valid() (valid []Config, invalid []error) { return ValidConfigs(g.Configs()) }

// ValidConfigs splits cfgs into those that pass Config.Validate, in
// order, and the errors of the others, naming each by its position from 1
// (Grid.Valid, nb.SweepValid and nb.RunAllValid). A configuration is judged
// on one worker: whether it fits in memory on all cores depends on the
// machine, and every machine must keep the same points (a sharded sweep's
// shards must agree).
func ValidConfigs(cfgs []Config) (valid []Config, invalid []error) {
	for i, c := range cfgs {
		one := c
		one.Workers = 1
		if err := one.Validate(); err != nil {
			invalid = append(invalid, fmt.Errorf("configuration %d (%s): %w", i+1, c.String(), err))
			continue
		}
		valid = append(valid, c)
	}
	return valid, invalid
}

// String names the configuration by what a grid varies, for errors: policy,
// K, load (or trace), sizes, and arrivals, board, dispatchers, view and
// discipline when not the defaults.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(policyName(c))
	fmt.Fprintf(&b, ", K=%d", c.Servers)
	if c.Trace != nil {
		fmt.Fprintf(&b, ", trace %s (load %s", traceName(c.Trace), loadText(c.offeredLoad()))
		if c.Load != 0 {
			fmt.Fprintf(&b, ", arrival times x%.4g", c.traceScale())
		}
		b.WriteString(")")
	} else {
		fmt.Fprintf(&b, ", load %s", fmtNum(c.Load))
		if c.Sizes != nil {
			b.WriteString(", sizes " + sizesName(c.Sizes))
		}
		if c.Arrivals != nil && c.Arrivals.String() != (Poisson{}).String() {
			b.WriteString(", " + c.Arrivals.String() + " arrivals")
		}
	}
	if c.Refresh != 0 {
		fmt.Fprintf(&b, ", refresh %s", fmtNum(c.Refresh))
		if c.Tally {
			b.WriteString(" with tally")
		}
		if c.Stagger {
			b.WriteString(", staggered")
		}
	}
	if c.Dispatchers > 1 {
		fmt.Fprintf(&b, ", %d dispatchers", c.Dispatchers)
	}
	if c.View != LiveView {
		b.WriteString(", " + c.View.String() + " view")
	}
	if c.Discipline != FCFS {
		b.WriteString(", " + c.Discipline.String())
	}
	return b.String()
}

// Sweep runs every configuration of the grid (all replications of all
// configurations spread over the cores) and returns one row each, in order.
func Sweep(g Grid, progress func(done, total int)) ([]Row, error) {
	res, err := RunAll(g.Configs(), progress)
	if err != nil {
		return nil, err
	}
	return Rows(res), nil
}
