package main

import (
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
	trace                                                               string
	jobs, warmup                                                        int64
	reps, workers, batches                                              int
	seed                                                                uint64
	overload, tally                                                     bool
}

func newFlagSet(name string, stderr io.Writer, c *configFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("lbsim "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.servers, "servers", "50", "number of servers K")
	fs.StringVar(&c.speeds, "speeds", "1", "server speeds mu_k: one value for all, or K comma-separated values")
	fs.StringVar(&c.load, "load", "0.5", "load rho = lambda E[X] / sum(mu_k), in (0,1)")
	fs.StringVar(&c.sizes, "sizes", "twopoint:xm=1,xM=1000,beta=0.8", "job sizes: exp:mean=M det:x=X twopoint:xm=A,xM=B,beta=BETA|p=P h2:mean=M,scv=C pareto:alpha=A,mean=M[,max=X] modal:V1,V2,...")
	fs.StringVar(&c.arrivals, "arrivals", "poisson", "arrivals: poisson, det, ramp:from=RHO0,to=RHO1,over=T")
	fs.StringVar(&c.trace, "trace", "", "replay a trace CSV of arrival_time,size (replaces -arrivals and -sizes)")
	fs.StringVar(&c.policy, "policy", "rnd", policyHelp())
	fs.StringVar(&c.refresh, "refresh", "0", "board refresh period T (0 = live state)")
	fs.BoolVar(&c.tally, "tally", false, "the dispatcher adds its own sends since the last refresh to the board")
	fs.StringVar(&c.discipline, "discipline", "fcfs", "service discipline: fcfs or ps")
	fs.Int64Var(&c.jobs, "jobs", 2000000, "measured jobs N per replication")
	fs.Int64Var(&c.warmup, "warmup", 0, "jobs simulated before measuring")
	fs.IntVar(&c.reps, "reps", 1, "independent replications R (CIs over replications; R=1 uses batch means)")
	fs.Uint64Var(&c.seed, "seed", 1, "base seed")
	fs.IntVar(&c.workers, "workers", 0, "parallel workers (0 = all cores)")
	fs.IntVar(&c.batches, "batches", 0, "batch means for the CI when R=1 (0 = 20)")
	fs.BoolVar(&c.overload, "overload", false, "allow load >= 1 (unstable: results depend on N)")
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; all options are flags (see -h)", fs.Arg(0))
	}
	return nil
}

// splitList splits a comma-separated list of specs, keeping a spec's own
// comma-separated parameters with it: a piece without ':' that is not a bare
// word (rnd, rr, ...) continues the previous spec ("sita:cut=10,c=20").
func splitList(s string) []string {
	bare := map[string]bool{"rnd": true, "random": true, "rr": true, "lwl": true, "jsq": true, "poisson": true, "det": true, "fcfs": true, "ps": true}
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if len(out) > 0 && !strings.Contains(p, ":") && !bare[strings.ToLower(p)] {
			out[len(out)-1] += "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}

func parseFloats(name, s string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("-%s: %q is not a number", name, p)
		}
		out = append(out, x)
	}
	return out, nil
}

func parseInts(name, s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		x, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("-%s: %q is not a whole number", name, p)
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
	if g.Loads, err = parseFloats("load", c.load); err != nil {
		return g, err
	}
	if err := one("load", len(g.Loads)); err != nil {
		return g, err
	}
	if g.Refresh, err = parseFloats("refresh", c.refresh); err != nil {
		return g, err
	}
	if err := one("refresh", len(g.Refresh)); err != nil {
		return g, err
	}
	speeds, err := parseFloats("speeds", c.speeds)
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
		Speeds: speeds, Jobs: c.jobs, Warmup: c.warmup, Reps: c.reps, Seed: c.seed,
		Workers: c.workers, Batches: c.batches, AllowOverload: c.overload, Tally: c.tally,
	}
	if c.trace != "" {
		tr, err := lbsim.LoadTrace(c.trace)
		if err != nil {
			return g, err
		}
		b.Trace = &tr
		b.Jobs = 0
		if c.jobs != 2000000 {
			b.Jobs = c.jobs
		}
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
	}
	if c.reps < 1 {
		return g, fmt.Errorf("-reps %d is invalid: need R >= 1", c.reps)
	}
	if c.workers < 0 {
		return g, fmt.Errorf("-workers %d is invalid: need >= 0 (0 = all cores)", c.workers)
	}
	g.Base = b
	for _, cfg := range g.Configs() {
		if err := cfg.Validate(); err != nil {
			return g, err
		}
	}
	return g, nil
}

// policyHelp lists the registered policies, one per line.
func policyHelp() string {
	var b strings.Builder
	b.WriteString("policy, one of:")
	for _, t := range lbsim.Policies() {
		fmt.Fprintf(&b, "\n      %-12s %s", t.Example, t.Summary)
	}
	return b.String()
}
