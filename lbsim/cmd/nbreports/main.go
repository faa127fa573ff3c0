// Command nbreports executes notebooks and writes their reports and an index.
//
// Usage (from the repository root; `make reports` runs it with -out reports):
//
//	go run ./lbsim/cmd/nbreports [-quick] [-out reports] [-check] [-force] [-cell-timeout 20m] [-parallel 2] [notebooks...]
//
// Without arguments it runs every notebooks/*.ipynb at full size; -quick runs the notebooks'
// quick versions (LBSIM_QUICK=1). For each notebook NAME it writes (see nbrun.Report)
// OUT/NAME.html (the report view: no code), OUT/NAME-code.html (with code) and OUT/NAME.pdf,
// all self-contained, and the notebook writes its CSV tables to LBSIM_OUT_DIR, by default
// OUT/NAME/. OUT/index.html lists every notebook's title, question and answer, run time and
// date, where its results came from (computed or read from the nb.Cached cache), with links to
// those files; it lists every notebook exported into OUT, by this run or an earlier or
// concurrent one (OUT/index.json keeps the entries). Every file is replaced whole: a failed
// export (a full disk) leaves the previous report's files as they were, and the index keeps
// its links, marking the latest run failed (nbrun.WriteIndex). -parallel notebooks
// (default 2) execute at once, each exported while the next ones execute; a run two notebooks
// share is computed once (nb.Cached). It prints each notebook's wall time
// (and its export's) and exits non-zero when any notebook fails (the index then says which and
// why). -check also checks each report as the tests do
// (figures, no error text, offline in Chromium, the PDF); -cell-timeout bounds one cell.
//
// A notebook with cells tagged solution also gets the students' files OUT/NAME-students.ipynb
// (no solution cells, no outputs), OUT/NAME-students.html, -students-code.html and .pdf (the
// report without the solution cells), linked from the index (nbrun.Students); a cell given to
// students that uses a name only solution cells declare is warned about (nbrun.SolutionLeaks).
//
// While notebooks run it prints why each runs, and the cells that take 2 s or more (or run
// past 10 s): the cell's number of N and first line, the results computed and read from the
// cache so far, the notebook's time; on a terminal, one status line rewritten in place.
//
// A notebook whose report is up to date is not run again: "NAME: unchanged since DATE, report
// kept". Up to date means that the notebook, the module's Go sources, data/, the mode, the
// LBSIM_ variables and the tools' versions hash as recorded in OUT/.NAME.stamp.json, which is
// written only after a whole export, and that the report's files and its index entry are as
// they were (nbrun.Kept); -force runs every notebook. With -check, only a checked report is
// kept.
//
// Notebooks must live in the repository's notebooks/ folder: their first cell imports lbsim from
// the folder above (go doc ./lbsim/nb); a notebook elsewhere is refused before it runs.
//
// It needs Jupyter, the GoNB kernel, Chromium and MathJax (Debian's libjs-mathjax) to typeset
// and print the reports, and poppler-utils for -check; .ci/setup.sh installs them all, and with
// them `make` is not needed. A report is the notebook
// executed afresh, not the state of a kernel open in Jupyter: to export a notebook you ran
// interactively, run it through nbreports. What the reports hold and what the tests check is
// in package nbrun's documentation (go doc ./lbsim/internal/nbrun).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/nbrun"
)

// config is what the flags ask of a run.
type config struct {
	out                 string
	quick, check, force bool
	cellTimeout         time.Duration
	parallel            int
	stdout              io.Writer
	terminal            bool // stdout is a terminal: progress is one line, rewritten
}

func main() {
	var c config
	flag.BoolVar(&c.quick, "quick", false, "run the notebooks' quick versions (sets LBSIM_QUICK=1)")
	flag.StringVar(&c.out, "out", "reports", "folder for the reports OUT/NAME.html, OUT/NAME-code.html, OUT/NAME.pdf, OUT/index.html (and CSV tables in OUT/NAME/ unless LBSIM_OUT_DIR is set)")
	flag.BoolVar(&c.check, "check", false, "also check each report as the tests do: figures, no error text, offline in Chromium, the PDF")
	flag.BoolVar(&c.force, "force", false, "run and export every notebook, even one whose report is up to date (unchanged notebook, code, data, mode and tools)")
	flag.DurationVar(&c.cellTimeout, "cell-timeout", 20*time.Minute, "maximum run time of one cell")
	flag.IntVar(&c.parallel, "parallel", 2, "notebooks executed at once (one compiles its cells while another simulates)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: nbreports [flags] [notebook.ipynb ...]\n\nExecutes notebooks (default notebooks/*.ipynb) and writes their reports and OUT/index.html.\nA notebook whose report is up to date is not run again (-force runs it).\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	c.stdout = os.Stdout
	if fi, err := os.Stdout.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		c.terminal = true
	}
	err := run(flag.Args(), c)
	nbrun.StopChromium() // the browser every export and check opened its pages in
	if err != nil {
		fmt.Fprintln(os.Stderr, "nbreports:", err)
		os.Exit(1)
	}
}

func run(notebooks []string, c config) error {
	out, quick, check, parallel := c.out, c.quick, c.check, c.parallel
	if len(notebooks) == 0 {
		var err error
		if notebooks, err = filepath.Glob("notebooks/*.ipynb"); err != nil {
			return err
		}
		sort.Strings(notebooks)
		if len(notebooks) == 0 {
			return fmt.Errorf("no notebooks/*.ipynb in %s: run from the repository root or name the notebooks", mustGetwd())
		}
	}
	if parallel < 1 {
		return fmt.Errorf("-parallel %d: want at least 1 notebook at a time (1 runs them one after another)", parallel)
	}
	for _, nb := range notebooks {
		if !strings.HasSuffix(nb, ".ipynb") {
			return fmt.Errorf("argument %q is not a notebook: want paths ending in .ipynb", nb)
		}
	}
	if err := nbrun.Ready(); err != nil {
		return err
	}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(outAbs, 0o755); err != nil {
		return err
	}
	var env []string
	if quick {
		env = append(env, "LBSIM_QUICK=1")
	}
	_, outDirSet := os.LookupEnv("LBSIM_OUT_DIR")
	tmp, err := os.MkdirTemp("", "nbreports-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	pr := &printer{w: c.stdout, terminal: c.terminal, status: map[string]string{}, lines: map[string]lineState{}}
	start := time.Now()
	var failed []string
	indexPath := filepath.Join(outAbs, "index.html")
	// Each notebook is exported (nbconvert, MathJax and the PDF in Chromium, mostly one core)
	// while the next ones execute. One export waits at most: the channel holds one, so a slow
	// export holds the runs back rather than piling up.
	// An index that cannot be written stops the run (ctx).
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	executed := make(chan executedNotebook, 1)
	published := make(chan struct{})
	go func() {
		defer close(published)
		for x := range executed {
			if ctx.Err() != nil {
				os.RemoveAll(x.staged) // the run stops: no report, no tables
				continue
			}
			if err := x.publish(outAbs, tmp, check, quick, indexPath, pr); err != nil {
				failed = append(failed, x.nb)
				if errors.Is(err, errIndex) {
					stop(err)
				}
			}
		}
	}()
	// Up to parallel notebooks execute at once: a notebook's cells compile (go build, mostly one
	// core) while another's simulations run. A run that two notebooks share is computed once
	// (nb.Cached locks its key): the second waits for it.
	todo := make(chan job)
	var running sync.WaitGroup
	for range parallel {
		running.Go(func() {
			for j := range todo {
				executed <- execute(ctx, j, outAbs, tmp, env, outDirSet, c.cellTimeout, pr)
			}
		})
	}
	kept, warming := 0, false
	for _, nb := range notebooks {
		if ctx.Err() != nil {
			break
		}
		j := job{nb: nb, stem: strings.TrimSuffix(filepath.Base(nb), ".ipynb")}
		// The skip rule: a report whose inputs are unchanged is kept (nbrun.Kept).
		in, err := nbrun.ReportInputs(nb, quick)
		switch {
		case err != nil:
			j.why = fmt.Sprintf("its inputs cannot be hashed: %v", err)
		default:
			j.inputs = &in
			made, why, ok := nbrun.Kept(indexPath, j.stem, in, check)
			switch {
			case ok && !c.force:
				pr.println("%s: unchanged since %s, report kept", j.stem, made.Local().Format("2006-01-02 15:04"))
				kept++
				continue
			case ok:
				j.why = "unchanged, -force"
			case why != "":
				j.why = why
			default:
				j.why = "no report yet"
			}
		}
		if err := nbrun.RemoveStamp(outAbs, j.stem); err != nil {
			return err
		}
		if !warming {
			// The exporter's Python starts while the first notebook runs (a failure shows
			// at the first export).
			warming = true
			go func() { _ = nbrun.WarmExporter() }()
		}
		if leaks, err := nbrun.SolutionLeaks(nb); err == nil {
			for _, l := range leaks {
				pr.println("%s: warning: %s: without the solution cells, the students' notebook does not compile (tag that cell solution too, or declare the name outside the solutions)", j.stem, l)
			}
		}
		todo <- j
	}
	close(todo)
	running.Wait()
	close(executed)
	<-published
	if err := context.Cause(ctx); err != nil {
		return err
	}
	if check {
		if _, err := nbrun.CheckOffline(indexPath, 0, true); err != nil {
			return err
		}
	}
	keptNote := ""
	if kept > 0 {
		keptNote = fmt.Sprintf(" (%d unchanged, kept)", kept)
	}
	pr.println("%d notebooks%s in %.1fs; index %s", len(notebooks), keptNote, time.Since(start).Seconds(), relative(indexPath))
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d notebooks failed: %s", len(failed), len(notebooks), strings.Join(failed, ", "))
	}
	return nil
}

// job is a notebook to run, and the inputs its report will be stamped with (nil when they
// could not be hashed: the report is then not stamped, and runs again next time).
type job struct {
	nb, stem, why string // why it runs
	inputs        *nbrun.Inputs
}

// execute runs the notebook with its tables staged for OUT/NAME/ (unless LBSIM_OUT_DIR is set).
func execute(ctx context.Context, j job, outAbs, tmp string, env []string, outDirSet bool, cellTimeout time.Duration, pr *printer) executedNotebook {
	nb, stem := j.nb, j.stem
	pr.println("%s: runs (%s)", stem, j.why)
	x := executedNotebook{nb: nb, stem: stem, inputs: j.inputs, entry: nbrun.IndexEntry{Notebook: nb, RanAt: time.Now()}}
	nbEnv := env[:len(env):len(env)]
	if !outDirSet {
		// A folder per notebook (notebooks name their tables freely: results.csv), written
		// afresh into a staging folder that replaces OUT/NAME/ once the report is written:
		// an export that fails before keeps the previous report and its tables together.
		x.tables = filepath.Join(outAbs, stem)
		staged, err := os.MkdirTemp(outAbs, "."+stem+".tables-")
		if err != nil {
			x.err = files.Describe(err, "creating a folder in", outAbs)
			return x
		}
		x.staged = staged
		if err := os.Chmod(staged, 0o755); err != nil {
			x.err = err
			return x
		}
		nbEnv = append(nbEnv, "LBSIM_OUT_DIR="+staged)
	}
	x.res, x.err = nbrun.Execute(ctx, nb, nbrun.Options{
		CellTimeout: cellTimeout,
		Env:         nbEnv,
		Output:      filepath.Join(tmp, stem+".ipynb"),
		Progress:    func(p nbrun.Progress) { pr.progress(stem, p) },
	})
	pr.finished(stem)
	return x
}

// executedNotebook is a notebook that Execute ran (or failed to run), waiting for its export.
type executedNotebook struct {
	nb, stem       string
	tables, staged string // OUT/NAME/ and its staging folder ("" when LBSIM_OUT_DIR is set)
	inputs         *nbrun.Inputs
	entry          nbrun.IndexEntry
	res            *nbrun.Result
	err            error
}

// errIndex marks an index that could not be updated: the run stops with it.
var errIndex = errors.New("the index was not updated (it lists the notebooks as before)")

// publish exports the executed notebook's report, checks it when asked, moves its tables into
// place, prints its line, brings the index up to date and stamps a report written whole
// (nbrun.WriteStamp); it returns the notebook's failure.
func (x executedNotebook) publish(outAbs, tmp string, check, quick bool, indexPath string, pr *printer) error {
	err, entry := x.err, x.entry
	var exported time.Duration
	if x.res != nil {
		entry.Elapsed = x.res.Elapsed
		// A failed notebook's report is still written when nbconvert got that far, to
		// show what went wrong.
		t := time.Now()
		rep, perr := nbrun.Publish(x.res.Executed, outAbs, x.stem)
		exported = time.Since(t)
		entry.Report = rep
		err = errors.Join(err, perr)
	}
	if err == nil && check {
		err = entry.Report.Check(filepath.Join(tmp, x.stem+".png"))
	}
	if x.staged != "" {
		if entry.Report != nil {
			err = errors.Join(err, files.ReplaceDir(x.tables, x.staged))
		}
		os.RemoveAll(x.staged) // the new tables of an export that wrote no report
		entry.Tables, _ = filepath.Glob(filepath.Join(x.tables, "*.csv"))
	}
	entry.Err = err
	switch {
	case err != nil:
		pr.println("%-40s FAIL\n%v", x.nb, err)
	default:
		line := fmt.Sprintf("%-40s ok  %6.1fs  %s  (export %.1fs", x.nb, x.res.Elapsed.Seconds(), relative(entry.Report.View), exported.Seconds())
		if r := x.res.Run.String(); r != "" {
			line += "; " + r
		}
		if entry.Report.Students != nil {
			line += "; students' files " + relative(entry.Report.Students.View) + ", .ipynb, .pdf"
		}
		pr.println("%s)", line)
	}
	// The index is brought up to date after each notebook (it merges what the folder
	// already lists), so a stopped run keeps the notebooks done so far.
	if ierr := nbrun.WriteIndex(indexPath, []nbrun.IndexEntry{entry}, quick); ierr != nil {
		return fmt.Errorf("%w: %w", errIndex, ierr)
	}
	if err == nil && x.inputs != nil {
		if serr := nbrun.WriteStamp(outAbs, x.stem, *x.inputs, entry.RanAt, entry.Files(), check); serr != nil {
			pr.println("%s: the report is whole but its stamp was not written (it runs again next time): %v", x.stem, serr)
		}
	}
	return err
}

// relative shortens an absolute path to one relative to the working directory when possible.
func relative(p string) string {
	if r, err := filepath.Rel(mustGetwd(), p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

func mustGetwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}
