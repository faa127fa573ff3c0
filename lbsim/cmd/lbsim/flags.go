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
	"github.com/perfeval/lbsim/lbsim/internal/number"
)

var errHelp = errors.New("help requested")

// gridFlags are the settings' flags, one per field of lbsim's table
// (lbsim.Grid.Flags): each sets its field of the grid. In a sweep the axes
// (-policy, -load, -sizes, -servers, -refresh, -discipline) take
// comma-separated lists; run and compare take one value each.
type gridFlags struct {
	grid  lbsim.Grid
	given map[string]bool // the fields the command line set (lbsim.Grid.Settle)
}

// newFlagSet defines the settings' flags (for sweep and slurm also
// -skip-invalid), at the defaults of lbsim.DefaultGrid.
func newFlagSet(name string, stderr io.Writer, c *gridFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("lbsim "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.grid, c.given = lbsim.DefaultGrid(), map[string]bool{}
	c.grid.Flags(fs, name == "sweep" || name == "slurm", c.given)
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

// settle applies the rules between the given settings (lbsim.Grid.Settle):
// a trace replaces -load, -sizes and -arrivals, a ramp -load.
func (c *gridFlags) settle() error { return c.grid.Settle(c.given, false) }

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

// onceValue refuses a second Set: "-jobs 10 -jobs 20" is a mistake, not 20,
// and a blank value of any flag (the others refuse it themselves). It keeps
// the error of a value that words its own (numberValue, textValue, a field)
// as "-name: why", which parseStrict reports instead of flag's longer message.
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
	_, own := v.Value.(interface{ ownMessage() })
	own = own || isField(v.Value)
	if !own && strings.TrimSpace(s) == "" { // a flag of the flag package's (-json=)
		v.err = numberError(v.name, blankError(v.Value))
		return v.err
	}
	err := v.Value.Set(s)
	if own && err != nil {
		v.err = numberError(v.name, err)
	}
	return err
}

// blankError refuses a blank value of a flag that does not word its own
// errors, as the others do (number.Empty).
func blankError(v flag.Value) error {
	if b, ok := v.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return number.Empty("true or false", "")
	}
	return number.Empty("a value", "")
}

// isField reports whether a flag sets a field of lbsim's table
// (lbsim.Grid.Flags): its errors say all that is wrong, as a number's do.
func isField(v flag.Value) bool {
	_, ok := v.(interface{ Field() lbsim.Field })
	return ok
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

// one is the grid's configuration for run and compare, validated.
func (c *gridFlags) one() (lbsim.Config, error) {
	cfg, err := c.grid.One()
	if err != nil {
		return cfg, fmt.Errorf("-%v", err)
	}
	return cfg, cfg.Validate()
}

// points are the sweep's configurations: all of them, or with -skip-invalid
// the valid ones and the errors of the others (lbsim.Grid.Valid, as
// nb.SweepValid). Without it, the first invalid point is the error, named.
func points(g lbsim.Grid) (valid []lbsim.Config, skipped []error, err error) {
	valid, skipped = g.Valid()
	switch {
	case len(valid) == 0:
		return nil, skipped, fmt.Errorf("every one of the %d configurations is invalid; the first: %v", len(skipped), skipped[0])
	case len(skipped) > 0 && !g.SkipInvalid:
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
		if lbsim.Describe(p, g.Base).Reads == lbsim.NoState {
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
		g.Text("refresh"), strings.Join(all, ","), strings.Join(blind, ", "), reads, it)
	if len(seeing) == 0 {
		return fmt.Errorf("%s; drop -refresh (T=0) or use a policy that reads the board, e.g. ll:d=2", why)
	}
	return fmt.Errorf("%s; run two sweeps: -policy %s -refresh 0, and -policy %s -refresh %s", why, strings.Join(blind, ","), strings.Join(seeing, ","), g.Text("refresh"))
}
