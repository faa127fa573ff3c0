package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/shard"
)

// shardFlags are the sweep flags for describing a sweep in a file and
// running one part of it.
type shardFlags struct {
	spec   string // -spec FILE.json
	shard  string // -shard i/n
	out    string // -out DIR
	quiet  bool
	showID bool // -id
}

// register adds them (-skip-invalid, part of the sweep, is a field: newFlagSet).
func (s *shardFlags) register(fs *flag.FlagSet) {
	textVar(fs, &s.spec, "spec", "a sweep file", "sweep.json", "read the sweep (grid, jobs, reps, seed, ...) from a JSON file whose keys are these flag names")
	textVar(fs, &s.shard, "shard", "part i/n", "0/4", "run only part i of n (i/n, i from 0) and write it to -out DIR; a complete part is skipped")
	textVar(fs, &s.out, "out", "a folder", "shards", "directory for shard files (merge them with lbsim merge DIR)")
	fs.BoolVar(&s.quiet, "quiet", false, "no progress on stderr")
	fs.BoolVar(&s.showID, "id", false, "print the sweep's id and number of configurations (as in its shard files), and run nothing")
}

// plannedSweep is a sweep ready to run: its grid, configurations and identity.
type plannedSweep struct {
	grid    lbsim.Grid
	configs []lbsim.Config // with -skip-invalid, the valid ones only
	skipped []error        // the invalid configurations' errors (-skip-invalid)
	id      shard.Sweep
}

// plan builds the sweep from -spec or from the flags: one lbsim.Grid, from
// which everything follows: the configurations, the sweep id
// (Grid.Canonical) and (slurm) the tasks' command line (Grid.Args), so all
// three agree.
func (s *shardFlags) plan(c *gridFlags) (*plannedSweep, error) {
	var err error
	if s.spec != "" {
		err = loadSpec(s.spec, c)
	} else {
		err = c.settle()
	}
	if err != nil {
		return nil, err
	}
	g := c.grid
	n, err := g.Count()
	if err != nil {
		return nil, err
	}
	if n > shard.MaxConfigs {
		return nil, fmt.Errorf("the grid has %d configurations: need at most %d; split it into several sweeps", n, shard.MaxConfigs)
	}
	if !g.SkipInvalid {
		if err := checkRefreshAxis(g); err != nil {
			return nil, err
		}
	}
	// The skipped points depend on the grid alone (Grid.Valid), so every
	// machine numbers and shards the same configurations.
	cfgs, skipped, err := points(g)
	if err != nil {
		return nil, err
	}
	id, err := shard.NewSweep([]byte(g.Canonical()), len(cfgs))
	if err != nil {
		return nil, err
	}
	id.Code = lbsim.CodeVersion()
	return &plannedSweep{grid: g, configs: cfgs, skipped: skipped, id: id}, nil
}

// idLine is what -id prints, and what slurm reads from another binary.
func (p *plannedSweep) idLine() string {
	return fmt.Sprintf("sweep %s configs=%d code=%s", p.id.ID, p.id.Configs, p.id.Code)
}

// reportSkipped lists the configurations -skip-invalid left out, with their
// reasons.
func (p *plannedSweep) reportSkipped(stderr io.Writer) {
	if len(p.skipped) == 0 {
		return
	}
	fmt.Fprintf(stderr, "lbsim sweep: skipped %d invalid configuration(s) of %d:\n", len(p.skipped), len(p.skipped)+len(p.configs))
	for _, err := range p.skipped {
		fmt.Fprintf(stderr, "  %v\n", err)
	}
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
// CSV on stdout, or with -shard/-out one part into a shard file. Rows are
// written as the configurations finish (lbsim.RunEach), so a sweep holds
// only the rows in flight, and a failing output stops it at once.
func (s *shardFlags) sweep(c *gridFlags, stdout, stderr io.Writer) error {
	i, n := 0, 1 // the part: checked first, as it needs no plan
	if s.shard != "" {
		var err error
		if i, n, err = parseShard(s.shard); err != nil {
			return err
		}
		if s.out == "" {
			return fmt.Errorf("-shard %s needs -out DIR, the directory that collects the shard files", s.shard)
		}
	}
	p, err := s.plan(c)
	if err != nil {
		return err
	}
	if s.showID {
		_, err := fmt.Fprintln(stdout, p.idLine())
		return err
	}
	p.reportSkipped(stderr)
	warnUnstable(stderr, "sweep", p.configs)
	if s.shard == "" && s.out == "" {
		return p.runTable(stdout, s.progress(stderr, "sweep"))
	}
	return p.runShard(s.out, i, n, s.progress(stderr, fmt.Sprintf("shard %d/%d", i, n)), stderr)
}

// outputError is a failure to write the table, as opposed to a failed run.
type outputError struct {
	written, total int
	err            error
}

func (e *outputError) Error() string {
	return fmt.Sprintf("writing the table failed after %d of %d configurations: %v", e.written, e.total, e.err)
}

func (e *outputError) Unwrap() error { return e.err }

// runTable runs the sweep as one CSV table on w: the bytes of lbsim.WriteRows.
func (p *plannedSweep) runTable(w io.Writer, progress func(done, total int)) error {
	cw := csv.NewWriter(w)
	written := 0
	write := func(record []string) error {
		cw.Write(record)
		cw.Flush()
		if err := cw.Error(); err != nil {
			return &outputError{written, len(p.configs), err}
		}
		return nil
	}
	if err := write(lbsim.RowHeader()); err != nil {
		return err
	}
	return lbsim.RunEach(p.configs, progress, func(_ int, r lbsim.Result) error {
		if err := write(lbsim.NewRow(r).Record()); err != nil {
			return err
		}
		written++
		return nil
	})
}

// runShard runs part i of n into dir unless it is already complete there. A
// partial or corrupt file is redone; a complete file of another sweep, and
// anything at the shard's name that is not a regular file, is left alone
// with an error, before anything is computed.
func (p *plannedSweep) runShard(dir string, i, n int, progress func(done, total int), stderr io.Writer) error {
	name := shard.FileName(i, n)
	path := filepath.Join(dir, name)
	// A complete shard is skipped before anything is written into dir (the
	// lock file): resubmitting a finished sweep in a read-only folder stops
	// at once.
	if shard.Verify(dir, p.id, i, n) == nil {
		fmt.Fprintf(stderr, "lbsim sweep: %s is complete (sweep %.12s); skipping shard %d/%d\n", path, p.id.ID, i, n)
		return nil
	}
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		kind := "a symlink"
		if st.IsDir() {
			kind = "a folder"
		} else if st.Mode()&os.ModeSymlink == 0 {
			kind = "a device, FIFO or socket"
		}
		return fmt.Errorf("%s is %s, not a shard file: lbsim writes its shard files itself and never through a link or into a special file; remove it and run the shard again", path, kind)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return files.Describe(err, "-out: creating the folder", dir)
	}
	unlock, err := shard.Lock(dir, i, n)
	if err != nil {
		return err
	}
	defer unlock()
	switch err := shard.Verify(dir, p.id, i, n); { // again: another run may have finished it
	case err == nil:
		fmt.Fprintf(stderr, "lbsim sweep: %s is complete (sweep %.12s); skipping shard %d/%d\n", path, p.id.ID, i, n)
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
	w, err := shard.Create(dir, p.id, i, n, append([]string{indexColumn}, lbsim.RowHeader()...))
	if err != nil {
		return err
	}
	err = lbsim.RunEach(cfgs, progress, func(k int, r lbsim.Result) error {
		return w.Row(append([]string{strconv.Itoa(members[k])}, lbsim.NewRow(r).Record()...))
	})
	if err != nil {
		w.Abort()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "lbsim sweep: wrote %s (%d of %d configurations, sweep %.12s)\n", path, len(members), len(p.configs), p.id.ID)
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
