package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/shard"
)

// shardFlags are the sweep flags for describing a sweep in a file and
// running one part of it.
type shardFlags struct {
	spec  string // -spec FILE.json
	shard string // -shard i/n
	out   string // -out DIR
	quiet bool
}

func (s *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "spec", "", "read the sweep (grid, jobs, reps, seed, ...) from a JSON file whose keys are these flag names")
	fs.StringVar(&s.shard, "shard", "", "run only part i of n (i/n, i from 0) and write it to -out DIR; a complete part is skipped")
	fs.StringVar(&s.out, "out", "", "directory for shard files (merge them with lbsim merge DIR)")
	fs.BoolVar(&s.quiet, "quiet", false, "no progress on stderr")
}

// plannedSweep is a sweep ready to run: its grid, configurations and identity.
type plannedSweep struct {
	spec    sweepSpec
	grid    lbsim.Grid
	configs []lbsim.Config
	id      shard.Sweep
}

// plan builds the sweep from -spec or from the flags; both give the same
// sweep id for the same grid.
func (s *shardFlags) plan(c *configFlags, fs *flag.FlagSet) (*plannedSweep, error) {
	var spec sweepSpec
	var err error
	if s.spec != "" {
		spec, err = loadSpec(s.spec, c, fs)
	} else {
		spec, err = specOf(c)
	}
	if err != nil {
		return nil, err
	}
	spec.flags(c)
	g, err := c.grid(false)
	if err != nil {
		return nil, err
	}
	canon, err := spec.canonical()
	if err != nil {
		return nil, err
	}
	configs := g.Configs()
	if len(configs) > shard.MaxConfigs {
		return nil, fmt.Errorf("the grid has %d configurations: need at most %d; split it into several sweeps", len(configs), shard.MaxConfigs)
	}
	id, err := shard.NewSweep(canon, len(configs))
	if err != nil {
		return nil, err
	}
	id.Code = lbsim.CodeVersion()
	return &plannedSweep{spec: spec, grid: g, configs: configs, id: id}, nil
}

// parseShard reads "i/n".
func parseShard(v string) (i, n int, err error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := parseNumber[int](a)
	n, err2 := parseNumber[int](b)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("-shard %q is not i/n; write e.g. -shard 0/8 for the first of 8 parts", v)
	}
	if n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("-shard %s: need n >= 1 and i in 0..n-1 (parts are numbered from 0, like $SLURM_ARRAY_TASK_ID with --array=0-%d)", v, max(n-1, 0))
	}
	return i, n, nil
}

// sweep runs the sweep command after its flags are parsed: the whole grid as
// CSV on stdout, or with -shard/-out one part into a shard file.
func (s *shardFlags) sweep(fs *flag.FlagSet, c *configFlags, stdout, stderr io.Writer) error {
	p, err := s.plan(c, fs)
	if err != nil {
		return err
	}
	warnUnstable(stderr, "sweep", p.configs)
	if s.shard == "" && s.out == "" {
		rows, err := lbsim.Sweep(p.grid, s.progress(stderr, "sweep"))
		if err != nil {
			return err
		}
		return lbsim.WriteRows(stdout, rows)
	}
	i, n := 0, 1
	if s.shard != "" {
		if i, n, err = parseShard(s.shard); err != nil {
			return err
		}
	}
	if s.out == "" {
		return fmt.Errorf("-shard %s needs -out DIR, the directory that collects the shard files", s.shard)
	}
	return p.runShard(s.out, i, n, s.progress(stderr, fmt.Sprintf("shard %d/%d", i, n)), stderr)
}

// runShard runs part i of n into dir unless it is already complete there. A
// partial or corrupt file is redone; a complete file of another sweep is
// left alone with an error.
func (p *plannedSweep) runShard(dir string, i, n int, progress func(done, total int), stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	unlock, err := shard.Lock(dir, i, n)
	if err != nil {
		return err
	}
	defer unlock()
	name := shard.FileName(i, n)
	switch err := shard.Verify(dir, p.id, i, n); {
	case err == nil:
		fmt.Fprintf(stderr, "lbsim sweep: %s/%s is complete (sweep %.12s); skipping shard %d/%d\n", dir, name, p.id.ID, i, n)
		return nil
	case errors.Is(err, os.ErrNotExist):
	default:
		var bad *shard.InvalidFileError
		if !errors.As(err, &bad) {
			return err
		}
		if f, rerr := shard.ReadFile(bad.Path); rerr == nil && f.Sweep.ID != p.id.ID {
			what := "another sweep"
			if f.Sweep.Code != p.id.Code {
				what = fmt.Sprintf("a sweep run by another build of lbsim (code %s, this binary is %s)", f.Sweep.Code, p.id.Code)
			}
			return fmt.Errorf("%s holds shard %d/%d of %s (%.12s, this is %.12s); it is never overwritten: use a separate -out directory per sweep and build", bad.Path, f.I, f.N, what, f.Sweep.ID, p.id.ID)
		}
		fmt.Fprintf(stderr, "lbsim sweep: redoing shard %d/%d: %v\n", i, n, err)
		// Only this process holds the shard's lock: the invalid file can go.
		if err := os.Remove(bad.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("cannot remove the invalid %s: %w", bad.Path, err)
		}
	}
	members, err := shard.Shard(i, n, len(p.configs))
	if err != nil {
		return err
	}
	cfgs := make([]lbsim.Config, len(members))
	for k, c := range members {
		cfgs[k] = p.configs[c]
	}
	results, err := lbsim.RunAll(cfgs, progress)
	if err != nil {
		return err
	}
	rows := make([][]string, len(results))
	for k, r := range results {
		rows[k] = append([]string{strconv.Itoa(members[k])}, lbsim.NewRow(r).Record()...)
	}
	header := append([]string{indexColumn}, lbsim.RowHeader()...)
	if err := shard.Write(dir, p.id, i, n, header, rows); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "lbsim sweep: wrote %s/%s (%d of %d configurations, sweep %.12s)\n", dir, name, len(rows), len(p.configs), p.id.ID)
	return nil
}

// indexColumn is the shard files' first column, the configuration's position
// in the sweep; lbsim merge drops it so the merged table is byte for byte
// what lbsim sweep prints.
const indexColumn = "config"

// progress returns the sweep's progress callback on stderr (nil if -quiet).
func (s *shardFlags) progress(stderr io.Writer, label string) func(done, total int) {
	if s.quiet {
		return nil
	}
	p := newProgress(stderr, label)
	return p.update
}
