package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

var errHelp = errors.New("help requested")

// configFlags are the flags shared by run and sweep (the command-line
// contract: names and defaults must not change). In a sweep, -policy, -load,
// -sizes, -servers, -refresh and -discipline take comma-separated lists.
type configFlags struct {
	servers, speeds, load, sizes, arrivals, policy, refresh, discipline string
	trace, dispatcherWeights                                            string
	dispatchers                                                         int
	jobs                                                                int64
	warmup                                                              string
	precision, maxSeconds                                               float64
	maxJobs                                                             int64
	reps, workers, batches                                              int
	seed                                                                uint64
	overload, tally, controlVariates, stagger                           bool
	skipInvalid                                                         bool // sweep only: -skip-invalid

	given map[string]bool // the flags on the command line (checkReplaced)
	input *traceInput     // the trace, read once (traceInput)
}

func newFlagSet(name string, stderr io.Writer, c *configFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("lbsim "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.servers, "servers", "50", "number of servers K")
	fs.StringVar(&c.speeds, "speeds", "1", "server speeds mu_k: one value for all, K comma-separated values, or runs COUNT@SPEED (5@2,5@1: five of speed 2, then five of speed 1)")
	fs.StringVar(&c.load, "load", "0.5", "load rho = lambda E[X] / sum(mu_k), in (0,1)")
	fs.StringVar(&c.sizes, "sizes", "twopoint:xm=1,xM=1000,beta=0.8", familyHelp("job sizes", lbsim.SizeTypes()))
	fs.StringVar(&c.arrivals, "arrivals", "poisson", familyHelp("arrivals", lbsim.ArrivalTypes()))
	fs.StringVar(&c.trace, "trace", "", "replay a trace CSV of arrival_time,size (replaces -arrivals and -sizes)")
	fs.StringVar(&c.policy, "policy", "rnd", familyHelp("policy", lbsim.PolicyTypes()))
	fs.StringVar(&c.refresh, "refresh", "0", "board refresh period T (0 = live state)")
	fs.BoolVar(&c.tally, "tally", false, "each dispatcher adds its own sends since the last refresh to its board")
	numberVar(fs, &c.dispatchers, "dispatchers", 1, "dispatchers M: each arrival goes to one, which decides on its own stream, policy state and tally")
	fs.StringVar(&c.dispatcherWeights, "dispatcher-weights", "", "the dispatchers' shares of the arrivals, M comma-separated weights, e.g. 2,1,1 (empty: even)")
	fs.BoolVar(&c.stagger, "stagger", false, "refresh dispatcher i's board at T (n + i/M) instead of all at the multiples of T")
	fs.StringVar(&c.discipline, "discipline", "fcfs", "service discipline: fcfs or ps")
	numberVar(fs, &c.jobs, "jobs", 2000000, "measured jobs N per replication")
	fs.StringVar(&c.warmup, "warmup", "0", "jobs simulated before measuring, or auto (MSER truncation per replication)")
	numberVar(fs, &c.precision, "precision", 0, "run until the 95% half-width of the mean wait (PS: response) is at most this fraction of it, e.g. 0.05 (0 = fixed length)")
	numberVar(fs, &c.maxJobs, "max-jobs", 0, "with -precision: at most this many jobs in all (0 = 1e10)")
	numberVar(fs, &c.maxSeconds, "max-seconds", 0, "with -precision: stop after this many seconds (0 = no limit; makes the result machine-dependent)")
	numberVar(fs, &c.reps, "reps", 1, "independent replications R (CIs over replications; R=1 uses batch means)")
	numberVar(fs, &c.seed, "seed", 1, "base seed")
	numberVar(fs, &c.workers, "workers", 0, "parallel workers (0 = all cores)")
	numberVar(fs, &c.batches, "batches", 0, "batch means for the CI when R=1 (0 = 20)")
	fs.BoolVar(&c.overload, "overload", false, "allow load >= 1 (unstable: results depend on N)")
	fs.BoolVar(&c.controlVariates, "control-variates", false, "narrow the intervals by control variates: the sizes drawn and the interarrival gaps, of known means (Poisson or det arrivals)")
	return fs
}

// parseStrict parses args strictly: a flag given twice is an error (the
// second value would silently win), and a parse error is one line with a
// pointer to -h instead of the whole flag list.
func parseStrict(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	// Wrap the values while parsing only: -h then prints the flags' own
	// types and defaults.
	fs.VisitAll(func(f *flag.Flag) { f.Value = &onceValue{Value: f.Value, name: f.Name} })
	err := fs.Parse(args)
	var own error // a value's own message, instead of flag's "invalid value"
	fs.VisitAll(func(f *flag.Flag) {
		v := f.Value.(*onceValue)
		own = cmp.Or(own, v.err)
		f.Value = v.Value
	})
	if own != nil {
		return own
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(out)
			fmt.Fprintf(out, "usage: %s [flags]\n", fs.Name())
			fs.PrintDefaults()
			return errHelp
		}
		return fmt.Errorf("%v (%s -h lists the flags)", err, fs.Name())
	}
	return nil
}

// parseFlags is parseStrict for commands that take no arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseStrict(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; all options are flags (see -h)", fs.Arg(0))
	}
	return nil
}

// checkReplaced records which flags were given and refuses those that
// another input replaces, whose value would be ignored but reported: -load
// beside a ramp, which sets the load itself, and -load, -sizes and
// -arrivals beside a trace, which holds the arrival times and sizes. Without
// -jobs, a trace is replayed whole (-jobs 0).
func checkReplaced(fs *flag.FlagSet, c *configFlags) error {
	c.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.given[f.Name] = true })
	if c.trace != "" {
		for _, name := range []string{"load", "sizes", "arrivals"} {
			if c.given[name] {
				return fmt.Errorf("-%s has no effect with -trace %s: the trace's arrival times and sizes replace -load, -sizes and -arrivals; drop -%s", name, c.trace, name)
			}
		}
		if !c.given["jobs"] {
			c.jobs = 0
		}
		return nil
	}
	if isRamp(c.arrivals) && c.given["load"] {
		return fmt.Errorf("-load %s has no effect with -arrivals %s: the ramp's from and to are the loads; drop -load", c.load, c.arrivals)
	}
	return nil
}

// isRamp reports whether an -arrivals spec is a ramp, which sets the load.
func isRamp(arrivals string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(arrivals)), "ramp")
}

// warnUnstable warns once about every load >= 1 in cfgs (allowed with
// -overload, or reached by a ramp): the queues grow with N and the results
// are not steady-state values.
func warnUnstable(stderr io.Writer, cmd string, cfgs []lbsim.Config) {
	var loads []string
	seen := map[float64]bool{}
	for _, c := range cfgs {
		if c.Load >= 1 && !seen[c.Load] {
			seen[c.Load] = true
			loads = append(loads, strconv.FormatFloat(c.Load, 'g', -1, 64))
		}
	}
	if len(loads) > 0 {
		fmt.Fprintf(stderr, "lbsim %s: warning: load %s >= 1 is unstable; the queues grow with N and the means are not steady-state values\n", cmd, strings.Join(loads, ", "))
	}
}

// onceValue refuses a second Set: "-jobs 10 -jobs 20" is a mistake, not 20.
// It keeps the error of a value that words its own (numberValue) as
// "-name: why", which parseStrict reports instead of flag's longer message.
type onceValue struct {
	flag.Value
	name string
	set  bool
	err  error
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return fmt.Errorf("given twice (already %s); give it once", v.String())
	}
	v.set = true
	err := v.Value.Set(s)
	if _, own := v.Value.(interface{ ownMessage() }); own && err != nil {
		v.err = numberError(v.name, err)
	}
	return err
}

// String serves flag's printing of defaults, which calls it on a zero
// onceValue too.
func (v *onceValue) String() string {
	if v == nil || v.Value == nil {
		return ""
	}
	return v.Value.String()
}

// IsBoolFlag keeps "-tally" (no value) working for boolean flags.
func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// numberError names the flag of a number that lbsim's parser refused.
func numberError(name string, err error) error { return fmt.Errorf("-%s: %v", name, err) }

// splitList splits a comma-separated list of specs, keeping a spec's own
// comma-separated parameters with it: a piece without ':' that is key=value,
// looks like a number or is empty continues the previous spec
// ("sita:cut=10,c=20", "modal:100,500"; "modal:1,,2" stays one spec for its
// parser to refuse); any other piece is a spec of its own (rnd, jsq). Each
// spec is joined once from its trimmed pieces, so the work is linear in the
// length of s.
func splitList(s string) []string {
	pieces := strings.Split(s, ",")
	var out []string
	for i := 0; i < len(pieces); {
		j := i + 1
		for j < len(pieces) && continuesSpec(strings.TrimSpace(pieces[j])) {
			j++
		}
		spec := pieces[i:j]
		for k := range spec {
			spec[k] = strings.TrimSpace(spec[k])
		}
		out = append(out, strings.Join(spec, ","))
		i = j
	}
	return out
}

// continuesSpec reports whether a list piece is a parameter of the spec
// before it: "c=20", "500", "" (a number's syntax is its parser's business).
func continuesSpec(p string) bool {
	return !strings.Contains(p, ":") && (p == "" || strings.Contains(p, "=") || strings.IndexByte("0123456789+-.", p[0]) >= 0)
}

// parseFloats and parseInts read a comma-separated list flag.
// parseSpeeds reads -speeds (see lbsim.ParseSpeeds).
func parseSpeeds(s string) ([]float64, error) {
	sp, err := lbsim.ParseSpeeds(s)
	if err != nil {
		return nil, fmt.Errorf("-%v", err)
	}
	return sp, nil
}

func parseFloats(name, s string) ([]float64, error) { return parseList[float64](name, s) }

// parseWeights reads -dispatcher-weights: empty for none.
func parseWeights(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	return parseFloats("dispatcher-weights", s)
}
func parseInts(name, s string) ([]int, error) { return parseList[int](name, s) }

func parseList[T number](name, s string) ([]T, error) {
	var out []T
	for _, p := range strings.Split(s, ",") {
		x, err := parseNumber[T](p)
		if err != nil {
			return nil, numberError(name, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// grid builds the sweep grid; with single=true every list must have one value.
func (c *configFlags) grid(single bool) (lbsim.Grid, error) {
	var g lbsim.Grid
	one := func(name string, n int) error {
		if single && n != 1 {
			return fmt.Errorf("-%s has %d values; run takes one (use lbsim sweep for lists)", name, n)
		}
		return nil
	}
	var err error
	if g.Servers, err = parseInts("servers", c.servers); err != nil {
		return g, err
	}
	if err := one("servers", len(g.Servers)); err != nil {
		return g, err
	}
	if c.trace == "" && !isRamp(c.arrivals) { // a trace has its own load, a ramp sets it
		if g.Loads, err = parseFloats("load", c.load); err != nil {
			return g, err
		}
		if err := one("load", len(g.Loads)); err != nil {
			return g, err
		}
	}
	if g.Refresh, err = parseFloats("refresh", c.refresh); err != nil {
		return g, err
	}
	if err := one("refresh", len(g.Refresh)); err != nil {
		return g, err
	}
	speeds, err := parseSpeeds(c.speeds)
	if err != nil {
		return g, err
	}
	for _, p := range splitList(c.policy) {
		pol, err := lbsim.ParsePolicy(p)
		if err != nil {
			return g, err
		}
		g.Policies = append(g.Policies, pol)
	}
	if err := one("policy", len(g.Policies)); err != nil {
		return g, err
	}
	for _, d := range splitList(c.discipline) {
		disc, err := lbsim.ParseDiscipline(d)
		if err != nil {
			return g, err
		}
		g.Disciplines = append(g.Disciplines, disc)
	}
	if err := one("discipline", len(g.Disciplines)); err != nil {
		return g, err
	}
	b := lbsim.Config{
		Speeds: speeds, Jobs: c.jobs, Reps: c.reps, Seed: c.seed,
		Workers: c.workers, Batches: c.batches, AllowOverload: c.overload, Tally: c.tally,
		Dispatchers: c.dispatchers, Stagger: c.stagger,
		Precision: c.precision, MaxJobs: c.maxJobs, MaxSeconds: c.maxSeconds, ControlVariates: c.controlVariates,
	}
	if b.Warmup, b.WarmupAuto, err = parseWarmup(c.warmup); err != nil {
		return g, err
	}
	if b.DispatcherWeights, err = parseWeights(c.dispatcherWeights); err != nil {
		return g, err
	}
	if c.trace != "" {
		in, err := c.traceInput()
		if err != nil {
			return g, err
		}
		b.Trace = &in.trace // b.Jobs = 0 replays it whole
	} else {
		for _, s := range splitList(c.sizes) {
			law, err := lbsim.ParseSizes(s)
			if err != nil {
				return g, err
			}
			g.Sizes = append(g.Sizes, law)
		}
		if err := one("sizes", len(g.Sizes)); err != nil {
			return g, err
		}
		if b.Arrivals, err = lbsim.ParseArrivals(c.arrivals); err != nil {
			return g, err
		}
		if r, ok := b.Arrivals.(lbsim.Ramp); ok {
			// The ramp sets the load; the configuration reports its final one.
			g.Loads = []float64{r.To}
		}
	}
	if c.reps < 1 {
		return g, fmt.Errorf("-reps %d is invalid: need R >= 1", c.reps)
	}
	if c.workers < 0 {
		return g, fmt.Errorf("-workers %d is invalid: need >= 0 (0 = all cores)", c.workers)
	}
	g.Base = b
	if _, err := g.Count(); err != nil {
		return g, err
	}
	if single {
		cfg := g.Configs()[0]
		return g, cfg.Validate()
	}
	if c.skipInvalid {
		return g, nil // the invalid points are dropped, each with its reason (points)
	}
	return g, checkRefreshAxis(g)
}

// points are the sweep's configurations: all of them, or with -skip-invalid
// the valid ones and the errors of the others (lbsim.Grid.Valid, as
// nb.SweepValid). Without it, the first invalid point is the error, named.
func (c *configFlags) points(g lbsim.Grid) (valid []lbsim.Config, skipped []error, err error) {
	valid, skipped = g.Valid()
	switch {
	case len(valid) == 0:
		return nil, skipped, fmt.Errorf("every one of the %d configurations is invalid; the first: %v", len(skipped), skipped[0])
	case len(skipped) > 0 && !c.skipInvalid:
		return nil, skipped, fmt.Errorf("%v; skip such points with -skip-invalid", skipped[0])
	}
	return valid, skipped, nil
}

// checkRefreshAxis refuses a grid that crosses a refresh period T > 0 with
// a policy that reads no server state (rnd, rr, sita), for which only T = 0
// is meaningful (Config.Validate), saying how to sweep both: a grid is a
// full cross product, so they need two sweeps.
func checkRefreshAxis(g lbsim.Grid) error {
	var all, blind, seeing []string
	for _, p := range g.Policies {
		all = append(all, p.String())
		if lbsim.Reads(p) == 0 {
			blind = append(blind, p.String())
		} else {
			seeing = append(seeing, p.String())
		}
	}
	var stale []float64
	for _, t := range g.Refresh {
		if t > 0 {
			stale = append(stale, t)
		}
	}
	if len(blind) == 0 || len(stale) == 0 {
		return nil
	}
	reads, it := "reads", "it"
	if len(blind) > 1 {
		reads, it = "read", "them"
	}
	why := fmt.Sprintf("-refresh %s with -policy %s: %s %s no server state, so only T=0 applies to %s, and a sweep runs every policy at every T",
		joinFloats(g.Refresh), strings.Join(all, ","), strings.Join(blind, ", "), reads, it)
	if len(seeing) == 0 {
		return fmt.Errorf("%s; drop -refresh (T=0) or use a policy that reads the board, e.g. ll:d=2", why)
	}
	return fmt.Errorf("%s; run two sweeps: -policy %s -refresh 0, and -policy %s -refresh %s", why, strings.Join(blind, ","), strings.Join(seeing, ","), joinFloats(g.Refresh))
}

// familyHelp lists a registry's families by example, with their summaries.
func familyHelp[T any](what string, fams []lbsim.Family[T]) string {
	var b strings.Builder
	b.WriteString(what + ", one of:")
	for _, t := range fams {
		fmt.Fprintf(&b, "\n      %-32s %s", t.Example, t.Summary)
	}
	return b.String()
}

// parseWarmup reads -warmup: a number of jobs, or auto.
func parseWarmup(s string) (int64, bool, error) {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		return 0, true, nil
	}
	n, err := lbsim.ParseInt(s)
	if err != nil {
		return 0, false, fmt.Errorf("-warmup: %v; give a number of jobs (e.g. 100000) or auto", err)
	}
	return n, false, nil
}
