package lbsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Settings. Every setting of a configuration is one row of the table
// fields below: its name (the flag -name; with '_' for '-' its sweep-file
// key and result column), its label in a notebook's controls, the Go field
// it sets, its doc, its default, its text form and its part of Config.Key.
// The flags and help, sweep files, Config.Key, the sweep id, the result
// columns, nb.FieldAdvice and the explorer's controls all come from it:
// adding a setting is a row here and the code that uses it.

// A Field is one setting of a configuration (or of a sweep), as the table
// declares it; its value is text in the command line's syntax (Set).
type Field struct {
	Name    string // the command-line flag -Name; Column() is its sweep-file key and result column
	Label   string // in a notebook's controls, with its symbol: "servers K", "load rho"
	Go      string // the Config field it sets, as a notebook writes it ("Servers"); Grid's for skip-invalid
	Doc     string // one line
	Default string // the command line's default, and a sweep file's for a key left out
	// Axis marks a grid axis: comma-separated values on the command line
	// of lbsim sweep, a JSON list in a sweep file, a slice of Grid.
	Axis  bool
	Alias string // how messages also write it ("-warmup auto"), for nb.FieldAdvice

	kind  kind
	scope scope
	ops   fieldOps
	check func(c *Config) error // its own check, in Validate (config.go)
}

// kind is a field's value type in sweep files and result columns.
type kind uint8

const (
	kindText kind = iota // a JSON string; a text column
	kindInt
	kindFloat
	kindBool
	kindList // numbers or runs COUNT@VALUE separated by commas (parseRuns): a JSON list of numbers, or a string
)

// scope says where a field belongs.
type scope uint8

const (
	scopeResult scope = iota // it changes the numbers: Config.Key, a column, the sweep id
	scopeRun                 // how a run is executed (workers): a flag only
	scopeSweep               // which rows a sweep has (skip-invalid): a flag and the sweep id
)

// fieldOps read and write a field's value in a Grid: its Base, or an axis's slice.
type fieldOps struct {
	get     func(g *Grid) string             // the base value as text, read back by set
	set     func(g *Grid, text string) error // the base value from text
	key     func(c *Config) string           // its part of Config.Key (default: get)
	column  func(c *Config) any              // its column value: int, int64, uint64, float64, bool or string
	axis    *axisOps                         // the grid's values, for an axis
	choices func() []Choice                  // the values to choose from, for a menu
}

// axisOps are an axis's values in a Grid: none means the base value.
type axisOps struct {
	n     func(g *Grid) int
	apply func(g *Grid, i int, c *Config) // c's value = the axis's i-th
	texts func(g *Grid) []string
	set   func(g *Grid, texts []string) error
}

// Choice is one value a menu offers for a field: a spec and what it is.
type Choice struct{ Example, Summary string }

// value builds the operations of a field held in p(c) of type T, read by
// parse and written by format; list (may be nil) is the grid's axis.
func value[T any](p func(c *Config) *T, list func(g *Grid) *[]T, parse func(string) (T, error), format func(T) string) fieldOps {
	o := fieldOps{
		get: func(g *Grid) string { return format(*p(&g.Base)) },
		set: func(g *Grid, text string) error {
			v, err := parse(text)
			if err == nil {
				*p(&g.Base) = v
			}
			return err
		},
		column: func(c *Config) any {
			switch v := any(*p(c)).(type) {
			case int, int64, uint64, float64, bool, string:
				return v
			}
			return format(*p(c))
		},
	}
	if list != nil {
		o.axis = &axisOps{
			n:     func(g *Grid) int { return len(*list(g)) },
			apply: func(g *Grid, i int, c *Config) { *p(c) = (*list(g))[i] },
			texts: func(g *Grid) []string {
				var out []string
				for _, v := range *list(g) {
					out = append(out, format(v))
				}
				return out
			},
			set: func(g *Grid, texts []string) error {
				vs := make([]T, len(texts))
				for i, t := range texts {
					v, err := parse(t)
					if err != nil {
						return err
					}
					vs[i] = v
				}
				*list(g) = vs
				return nil
			},
		}
	}
	return o
}

// fields is the table, in the order of the flags in help texts, of a Row's
// setting columns and of Validate's checks (filled by init, as Validate,
// which a field's key may call, reads it).
var fields []Field

func init() {
	fields = []Field{
		{Name: "policy", check: (*Config).checkPolicy, Label: "policy", Go: "Policy", Default: "rnd", Axis: true,
			Doc: "dispatching policy",
			ops: with(value(func(c *Config) *Policy { return &c.Policy }, func(g *Grid) *[]Policy { return &g.Policies },
				ParsePolicy, func(p Policy) string { return specText(p) }),
				func(o *fieldOps) {
					o.key = func(c *Config) string { return policyKey(*c) }
					o.choices = func() []Choice { return choices(policyRegistry.families()) }
				})},
		{Name: "servers", check: (*Config).checkServers, Label: "servers K", Go: "Servers", Default: "50", Axis: true, kind: kindInt,
			Doc: "number of servers K",
			ops: value(func(c *Config) *int { return &c.Servers }, func(g *Grid) *[]int { return &g.Servers },
				parseInt, strconv.Itoa)},
		{Name: "speeds", check: (*Config).checkSpeeds, Label: "speeds", Go: "Speeds", Default: "1", kind: kindList,
			Doc: "server speeds mu_k: one value for all, K comma-separated values, or runs COUNT@SPEED (5@2,5@1: five of speed 2, then five of speed 1)",
			ops: with(value(func(c *Config) *[]float64 { return &c.Speeds }, nil, ParseSpeeds, speedsSpec),
				func(o *fieldOps) {
					o.key = (*Config).speedsKey
					o.column = func(c *Config) any { return c.speedsKey() }
				})},
		{Name: "load", check: (*Config).checkLoad, Label: "load rho", Go: "Load", Default: "0.5", Axis: true, kind: kindFloat,
			Doc: "load rho = lambda E[X] / sum(mu_k), in (0,1); with -trace, the load its arrival times are scaled to (0 or not given: the trace's own)",
			ops: with(value(func(c *Config) *float64 { return &c.Load }, func(g *Grid) *[]float64 { return &g.Loads },
				number.Float, fmtNum),
				func(o *fieldOps) { o.column = func(c *Config) any { return c.offeredLoad() } })},
		{Name: "sizes", check: (*Config).checkSizes, Label: "job sizes", Go: "Sizes", Default: "twopoint:xm=1,xM=1000,beta=0.8", Axis: true,
			Doc: "job size law",
			ops: with(value(func(c *Config) *SizeLaw { return &c.Sizes }, func(g *Grid) *[]SizeLaw { return &g.Sizes },
				ParseSizes, func(s SizeLaw) string { return specText(s) }),
				func(o *fieldOps) {
					o.key = func(c *Config) string { return nameOr(c.Sizes, sizesKey) }
					o.column = func(c *Config) any { return traceOr(c, nameOr(c.Sizes, sizesName)) }
					o.choices = func() []Choice { return choices(sizeRegistry.families()) }
				})},
		{Name: "arrivals", check: (*Config).checkArrivals, Label: "arrivals", Go: "Arrivals", Default: "poisson",
			Doc: "arrival process",
			ops: with(value(func(c *Config) *ArrivalProcess { return &c.Arrivals }, nil,
				arrivalRegistry.parse, func(a ArrivalProcess) string { return specText(a) }),
				func(o *fieldOps) {
					o.key = func(c *Config) string { return c.arrivals().String() }
					o.column = func(c *Config) any { return traceOr(c, c.arrivals().String()) }
					o.choices = func() []Choice { return choices(arrivalRegistry.families()) }
				})},
		{Name: "trace", check: (*Config).checkTrace, Label: "trace", Go: "Trace",
			Doc: "replay a trace CSV of arrival_time,size (replaces -arrivals and -sizes; -load scales its arrival times)",
			ops: with(value(func(c *Config) **Trace { return &c.Trace }, nil, readTraceFile, traceSource),
				func(o *fieldOps) { o.key, o.column = traceKey, func(c *Config) any { return traceName(c.Trace) } })},
		{Name: "discipline", check: (*Config).checkDiscipline, Label: "discipline", Go: "Discipline", Default: "fcfs", Axis: true,
			Doc: "service discipline: " + disciplineNames(),
			ops: with(value(func(c *Config) *Discipline { return &c.Discipline }, func(g *Grid) *[]Discipline { return &g.Disciplines },
				parseDiscipline, Discipline.String),
				func(o *fieldOps) {
					o.choices = func() []Choice {
						var out []Choice
						for _, d := range disciplines {
							out = append(out, Choice{d.name, d.doc})
						}
						return out
					}
				})},
		{Name: "refresh", check: (*Config).checkRefresh, Label: "refresh T", Go: "Refresh", Default: "0", Axis: true, kind: kindFloat,
			Doc: "board refresh period T (0 = live state)",
			ops: value(func(c *Config) *float64 { return &c.Refresh }, func(g *Grid) *[]float64 { return &g.Refresh },
				number.Float, fmtNum)},
		{Name: "tally", check: (*Config).checkTally, Label: "tally", Go: "Tally", Default: "false", kind: kindBool,
			Doc: "each dispatcher adds its own sends since the last refresh to its board",
			ops: flagValue(func(c *Config) *bool { return &c.Tally })},
		{Name: "dispatchers", check: (*Config).checkDispatchers, Label: "dispatchers M", Go: "Dispatchers", Default: "1", Axis: true, kind: kindInt,
			Doc: "dispatchers M: each arrival goes to one, which decides on its own stream, policy state and tally",
			ops: with(value(func(c *Config) *int { return &c.Dispatchers }, func(g *Grid) *[]int { return &g.Dispatchers }, parseInt, strconv.Itoa),
				func(o *fieldOps) {
					o.get = func(g *Grid) string { return strconv.Itoa(g.Base.dispatchers()) }
					o.key = func(c *Config) string { return strconv.Itoa(c.dispatchers()) }
					o.column = func(c *Config) any { return c.dispatchers() }
				})},
		{Name: "dispatcher-weights", check: (*Config).checkDispatcherWeights, Label: "dispatcher weights", Go: "DispatcherWeights", kind: kindList,
			Doc: "the dispatchers' shares of the arrivals, M comma-separated weights or runs COUNT@WEIGHT, e.g. 2,1,1 or 1@2,2@1 (not given: even)",
			ops: with(value(func(c *Config) *[]float64 { return &c.DispatcherWeights }, nil, parseWeights, joinFloats),
				func(o *fieldOps) {
					o.key = (*Config).dispatcherWeightsKey
					o.column = func(c *Config) any { return c.dispatcherWeightsKey() }
				})},
		{Name: "stagger", check: (*Config).checkStagger, Label: "stagger", Go: "Stagger", Default: "false", kind: kindBool,
			Doc: "refresh dispatcher i's board at T (n + i/M) instead of all at the multiples of T",
			ops: flagValue(func(c *Config) *bool { return &c.Stagger })},
		{Name: "view", check: (*Config).checkView, Label: "view", Go: "View", Default: "live", Axis: true,
			Doc: "what a dispatcher sees of job counts: live (the servers', or the board with -refresh) or own (its own jobs still at each server: a proxy counting its connections; no messages)",
			ops: with(value(func(c *Config) *ViewKind { return &c.View }, func(g *Grid) *[]ViewKind { return &g.Views },
				parseView, ViewKind.String),
				func(o *fieldOps) {
					o.choices = func() []Choice {
						return []Choice{{"live", "the servers' state, or the board with -refresh"}, {"own", "each dispatcher's own jobs at each server"}}
					}
				})},
		{Name: "delay", check: (*Config).checkDelay, Label: "delay D", Go: "Delay", Default: "0", Axis: true, kind: kindFloat,
			Doc: "how long after a departure a dispatcher reading job counts learns of it (live or own view; 0 = at once), as a proxy sees a response late",
			ops: value(func(c *Config) *float64 { return &c.Delay }, func(g *Grid) *[]float64 { return &g.Delays }, number.Float, fmtNum)},
		{Name: "jobs", check: (*Config).checkJobs, Label: "jobs N", Go: "Jobs", Default: "2000000", kind: kindInt,
			Doc: "measured jobs N per replication (a trace: 0 = all its jobs)",
			ops: with(value(func(c *Config) *int64 { return &c.Jobs }, nil, number.Int, itoa64),
				func(o *fieldOps) { o.column = func(c *Config) any { return c.jobs() } })},
		{Name: "warmup", check: (*Config).checkWarmup, Label: "warm-up", Go: "Warmup", Default: "0", kind: kindInt,
			Doc: "jobs simulated before measuring, or auto (MSER truncation per replication)",
			ops: with(value(func(c *Config) *int64 { return &c.Warmup }, nil, number.Int, itoa64),
				func(o *fieldOps) {
					int64Set := o.set
					o.set = func(g *Grid, text string) error {
						if strings.EqualFold(strings.TrimSpace(text), "auto") {
							g.Base.Warmup, g.Base.WarmupAuto = 0, true
							return nil
						}
						if err := int64Set(g, text); err != nil {
							return fmt.Errorf("%v; give a number of jobs (e.g. 100000) or auto", err)
						}
						return nil
					}
				})},
		{Name: "warmup-auto", check: (*Config).checkWarmupAuto, Label: "auto warm-up", Go: "WarmupAuto", Default: "false", kind: kindBool, Alias: "warmup auto",
			Doc: "choose each replication's warm-up by MSER (the same as -warmup auto)",
			ops: flagValue(func(c *Config) *bool { return &c.WarmupAuto })},
		{Name: "reps", check: (*Config).checkReps, Label: "replications R", Go: "Reps", Default: "1", kind: kindInt,
			Doc: "independent replications R (CIs over replications; R=1 uses batch means)",
			ops: with(value(func(c *Config) *int { return &c.Reps }, nil, parseReps, strconv.Itoa),
				func(o *fieldOps) {
					o.get = func(g *Grid) string { return strconv.Itoa(g.Base.reps()) }
					o.key = func(c *Config) string { return strconv.Itoa(c.reps()) }
					o.column = func(c *Config) any { return c.reps() }
				})},
		{Name: "seed", Label: "seed", Go: "Seed", Default: "1", kind: kindInt,
			Doc: "base seed: replication r draws from streams derived from (seed, r)",
			ops: value(func(c *Config) *uint64 { return &c.Seed }, nil, number.Uint, func(s uint64) string { return strconv.FormatUint(s, 10) })},
		{Name: "batches", check: (*Config).checkBatches, Label: "batches", Go: "Batches", Default: "0", kind: kindInt,
			Doc: "batch means for the CI when R=1 (0 = 20)",
			ops: value(func(c *Config) *int { return &c.Batches }, nil, parseInt, strconv.Itoa)},
		{Name: "precision", check: (*Config).checkPrecision, Label: "precision", Go: "Precision", Default: "0", kind: kindFloat,
			Doc: "run until the 95% half-width of the mean wait (PS, SRPT: response) is at most this fraction of it, e.g. 0.05 (0 = fixed length)",
			ops: value(func(c *Config) *float64 { return &c.Precision }, nil, number.Float, fmtNum)},
		{Name: "max-jobs", check: (*Config).checkBudget, Label: "max jobs", Go: "MaxJobs", Default: "0", kind: kindInt,
			Doc: "with -precision: at most this many jobs in all (0 = 1e10)",
			ops: value(func(c *Config) *int64 { return &c.MaxJobs }, nil, number.Int, itoa64)},
		{Name: "max-seconds", Label: "max seconds", Go: "MaxSeconds", Default: "0", kind: kindFloat,
			Doc: "with -precision: stop after this many seconds (0 = no limit; makes the result machine-dependent)",
			ops: value(func(c *Config) *float64 { return &c.MaxSeconds }, nil, number.Float, fmtNum)},
		{Name: "control-variates", check: (*Config).checkControls, Label: "control variates", Go: "ControlVariates", Default: "false", kind: kindBool,
			Doc: "narrow the intervals by control variates: the sizes drawn and the interarrival gaps, of known means (Poisson or det arrivals)",
			ops: flagValue(func(c *Config) *bool { return &c.ControlVariates })},
		{Name: "overload", Label: "allow overload", Go: "AllowOverload", Default: "false", kind: kindBool,
			Doc: "allow load >= 1 (unstable: results depend on N)",
			ops: flagValue(func(c *Config) *bool { return &c.AllowOverload })},
		{Name: "sample-every", check: (*Config).checkSampleEvery, Label: "sample period", Go: "SampleEvery", Default: "0", kind: kindFloat,
			Doc: "record the jobs at every server every this many time units in replication 0 (0 = no time series)",
			ops: value(func(c *Config) *float64 { return &c.SampleEvery }, nil, number.Float, fmtNum)},
		{Name: "workers", check: (*Config).checkWorkers, Label: "workers", Go: "Workers", Default: "0", kind: kindInt, scope: scopeRun,
			Doc: "parallel workers (0 = all cores); the results do not depend on it",
			ops: value(func(c *Config) *int { return &c.Workers }, nil, parseInt, strconv.Itoa)},
		{Name: "skip-invalid", Label: "skip invalid", Go: "SkipInvalid", Default: "false", kind: kindBool, scope: scopeSweep,
			Doc: "skip the grid's invalid configurations (listed with their reasons) instead of stopping at the first",
			ops: fieldOps{
				get: func(g *Grid) string { return strconv.FormatBool(g.SkipInvalid) },
				set: func(g *Grid, text string) (err error) { g.SkipInvalid, err = parseBool(text); return err },
			}},
	}
	for i := range fields {
		refuseEmpty(&fields[i])
	}
}

// refuseEmpty makes f's setters refuse a blank value (a flag, a sweep-file
// value or an axis's item), as the number parser refuses one: an empty
// shell variable ("-view $VIEW") or "" in a sweep file is a mistake, not the
// default, which leaving the setting out gives.
func refuseEmpty(f *Field) {
	if f.kind == kindInt || f.kind == kindFloat {
		return // number.Int and number.Float refuse it, in these words
	}
	empty := func() error {
		if f.kind == kindBool {
			return number.Empty("true or false", "")
		}
		return number.Empty("the "+f.Label, f.example())
	}
	set := f.ops.set
	f.ops.set = func(g *Grid, text string) error {
		if strings.TrimSpace(text) == "" {
			return empty()
		}
		return set(g, text)
	}
	if f.ops.axis != nil {
		axis := *f.ops.axis
		f.ops.axis = &axis
		set := axis.set
		axis.set = func(g *Grid, texts []string) error {
			for _, t := range texts {
				if strings.TrimSpace(t) == "" {
					return empty()
				}
			}
			return set(g, texts)
		}
	}
}

// example is a value of f as the command line writes it, for messages: its
// default, or for a field without one (trace, dispatcher-weights) a value.
func (f *Field) example() string {
	switch {
	case f.Default != "":
		return f.Default
	case f.kind == kindList: // dispatcher-weights
		return "2,1"
	}
	return "data/trace1.csv" // trace
}

// with applies edit to o: a field's operations that differ from value's.
func with(o fieldOps, edit func(o *fieldOps)) fieldOps {
	edit(&o)
	return o
}

// flagValue are the operations of a boolean setting.
func flagValue(p func(c *Config) *bool) fieldOps {
	return value(p, nil, parseBool, strconv.FormatBool)
}

// Fields lists the settings, in the table's order.
func Fields() []Field { return slices.Clone(fields) }

// fieldNamed is the field of a name, a column name or a Go field name.
func fieldNamed(name string) (*Field, bool) {
	for i := range fields {
		f := &fields[i]
		if f.Name == name || f.Column() == name || f.Go == name {
			return f, true
		}
	}
	return nil, false
}

// Column is the field's sweep-file key and result column: "dispatcher_weights".
func (f Field) Column() string { return strings.ReplaceAll(f.Name, "-", "_") }

// IsBool reports whether the field is a switch (-tally sets it, no value).
func (f Field) IsBool() bool { return f.kind == kindBool }

// Set sets the field of c from text in the command line's syntax
// (one value, also for an axis), as the explorer's controls do.
func (f Field) Set(c *Config, text string) error {
	g := Grid{Base: *c}
	if err := f.ops.set(&g, text); err != nil {
		return err
	}
	*c = g.Base
	return nil
}

// Choices are the values a menu of the field offers (the registered
// families, the disciplines), nil for a field of free values.
func (f Field) Choices() []Choice {
	if f.ops.choices == nil {
		return nil
	}
	return f.ops.choices()
}

// Result reports whether the field changes the numbers: a part of
// Config.Key, a Row column and a sweep-file key (not workers, skip-invalid).
func (f Field) Result() bool { return f.scope == scopeResult }

// Sweep reports whether the field describes a sweep (skip-invalid): a flag
// of lbsim sweep and a sweep-file key, no column.
func (f Field) Sweep() bool { return f.scope == scopeSweep }

// key is the field's part of c's key: its text, or a hash of a long value.
func (f *Field) key(c *Config) string {
	if f.ops.key != nil {
		return f.ops.key(c)
	}
	g := Grid{Base: *c}
	return f.ops.get(&g)
}

// Key is a canonical text naming every setting that affects the numbers of
// a run, for caches (nb.Cached, nb.RunAll), short at any K: speeds as runs
// ("5@2,5@1"), traces and long specs or lists by a hash, a policy of one's
// own by what it does (policyKey; see KeyUnfinished).
func (c Config) Key() string {
	var b strings.Builder
	for i := range fields {
		if f := &fields[i]; f.Result() {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f.Column() + "=" + f.key(&c))
		}
	}
	return b.String()
}

// The text forms of values that are not plain numbers.

func parseInt(s string) (int, error) {
	n, err := number.Int(s)
	if err == nil && int64(int(n)) != n {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return int(n), err
}

// parseReps reads a number of replications as a user writes it: Config's 0
// (= 1) is the Go zero value, but a 0 written out is a mistake, not 1.
func parseReps(s string) (int, error) {
	n, err := parseInt(s)
	if err == nil && n < 1 {
		return 0, fmt.Errorf("R=%d is invalid: replications must be at least 1 (one takes its CI from batch means); give 1 or more, e.g. 10", n)
	}
	return n, err
}

func parseBool(s string) (bool, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", s)
	}
	return b, nil
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// parseWeights reads the dispatchers' weights as speeds (parseRuns); none
// (an even split) is the field left out.
func parseWeights(s string) ([]float64, error) {
	return parseRuns("dispatcher weights", "WEIGHT", maxDispatchers, s)
}

func joinFloats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmtNum(x)
	}
	return strings.Join(parts, ",")
}

// speedsSpec writes speeds as given: one value, or runs "5@2,5@1".
func speedsSpec(sp []float64) string {
	if len(sp) == 1 {
		return fmtNum(sp[0])
	}
	return speedRuns(sp, 1<<62)
}

// specText is a spec-valued setting's text, "" for none.
func specText[T fmt.Stringer](v T) string {
	if any(v) == nil {
		return ""
	}
	return v.String()
}

// nameOr is name(v), "none" for no value.
func nameOr[T any](v T, name func(T) string) string {
	if any(v) == nil {
		return "none"
	}
	return name(v)
}

// traceOr is a sizes or arrivals column: "trace" when a trace replaces them.
func traceOr(c *Config, s string) string {
	if c.Trace != nil {
		return "trace"
	}
	return s
}

// choices are a registry's families as a menu's values, but those whose text
// names a file (NewText), whose example need not exist where the menu runs.
func choices[T any](fams []Family[T]) []Choice {
	var out []Choice
	for _, f := range fams {
		if f.NewText == nil {
			out = append(out, Choice{f.Example, f.Summary})
		}
	}
	return out
}
