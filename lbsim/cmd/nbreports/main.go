// Command nbreports executes notebooks and writes their reports and an index.
//
// Usage (from the repository root; `make reports` runs it with -out reports):
//
//	go run ./lbsim/cmd/nbreports [-quick] [-out reports] [-check] [-cell-timeout 20m] [-parallel 2] [notebooks...]
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
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/nbrun"
)

func main() {
	quick := flag.Bool("quick", false, "run the notebooks' quick versions (sets LBSIM_QUICK=1)")
	out := flag.String("out", "reports", "folder for the reports OUT/NAME.html, OUT/NAME-code.html, OUT/NAME.pdf, OUT/index.html (and CSV tables in OUT/NAME/ unless LBSIM_OUT_DIR is set)")
	check := flag.Bool("check", false, "also check each report as the tests do: figures, no error text, offline in Chromium, the PDF")
	cellTimeout := flag.Duration("cell-timeout", 20*time.Minute, "maximum run time of one cell")
	parallel := flag.Int("parallel", 2, "notebooks executed at once (one compiles its cells while another simulates)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: nbreports [flags] [notebook.ipynb ...]\n\nExecutes notebooks (default notebooks/*.ipynb) and writes their reports and OUT/index.html.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	err := run(flag.Args(), *out, *quick, *check, *cellTimeout, *parallel)
	nbrun.StopChromium() // the browser every export and check opened its pages in
	if err != nil {
		fmt.Fprintln(os.Stderr, "nbreports:", err)
		os.Exit(1)
	}
}

func run(notebooks []string, out string, quick, check bool, cellTimeout time.Duration, parallel int) error {
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
			if err := x.publish(outAbs, tmp, check, quick, indexPath); err != nil {
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
	todo := make(chan string)
	var running sync.WaitGroup
	for range parallel {
		running.Go(func() {
			for nb := range todo {
				executed <- execute(ctx, nb, outAbs, tmp, env, outDirSet, cellTimeout)
			}
		})
	}
	for _, nb := range notebooks {
		if ctx.Err() != nil {
			break
		}
		todo <- nb
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
	fmt.Printf("%d notebooks in %.1fs; index %s\n", len(notebooks), time.Since(start).Seconds(), relative(indexPath))
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d notebooks failed: %s", len(failed), len(notebooks), strings.Join(failed, ", "))
	}
	return nil
}

// execute runs the notebook nb with its tables staged for OUT/NAME/ (unless LBSIM_OUT_DIR is set).
func execute(ctx context.Context, nb, outAbs, tmp string, env []string, outDirSet bool, cellTimeout time.Duration) executedNotebook {
	stem := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
	x := executedNotebook{nb: nb, stem: stem, entry: nbrun.IndexEntry{Notebook: nb, RanAt: time.Now()}}
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
	})
	return x
}

// executedNotebook is a notebook that Execute ran (or failed to run), waiting for its export.
type executedNotebook struct {
	nb, stem       string
	tables, staged string // OUT/NAME/ and its staging folder ("" when LBSIM_OUT_DIR is set)
	entry          nbrun.IndexEntry
	res            *nbrun.Result
	err            error
}

// errIndex marks an index that could not be updated: the run stops with it.
var errIndex = errors.New("the index was not updated (it lists the notebooks as before)")

// publish exports the executed notebook's report, checks it when asked, moves its tables into
// place, prints its line and brings the index up to date; it returns the notebook's failure.
func (x executedNotebook) publish(outAbs, tmp string, check, quick bool, indexPath string) error {
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
	fmt.Printf("%-40s ", x.nb)
	switch {
	case err != nil:
		fmt.Printf("FAIL\n%v\n", err)
	default:
		fmt.Printf("ok  %6.1fs  %s  (export %.1fs", x.res.Elapsed.Seconds(), relative(entry.Report.View), exported.Seconds())
		if r := x.res.Run.String(); r != "" {
			fmt.Printf("; %s", r)
		}
		fmt.Println(")")
	}
	// The index is brought up to date after each notebook (it merges what the folder
	// already lists), so a stopped run keeps the notebooks done so far.
	if ierr := nbrun.WriteIndex(indexPath, []nbrun.IndexEntry{entry}, quick); ierr != nil {
		return fmt.Errorf("%w: %w", errIndex, ierr)
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
