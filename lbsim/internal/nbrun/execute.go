package nbrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

// Jupyter is the Jupyter launcher used: Debian's, which runs on /usr/bin/python3 with the
// nbconvert and nbclient packages, whatever python comes first on PATH.
const Jupyter = "/usr/bin/jupyter"

// Options configures [Execute]. The zero value is usable.
type Options struct {
	// Kernel is the Jupyter kernel name; default "gonb".
	Kernel string
	// CellTimeout bounds the run time of each cell; default 20 minutes.
	CellTimeout time.Duration
	// Env holds extra "KEY=VALUE" variables for nbconvert and so for the kernel and the Go
	// programs it runs (for example LBSIM_QUICK=1, LBSIM_OUT_DIR=/tmp/x).
	Env []string
	// Output is where the executed notebook is written; default a temporary file that the
	// caller may remove (Result.Executed).
	Output string
	// Progress, if not nil, is called as the notebook runs: when a code cell starts, about
	// every second while it runs, and when it ends (see [Progress]). Calls come from one
	// goroutine, one at a time.
	Progress func(Progress)
}

// Result describes one executed notebook.
type Result struct {
	Notebook string        // the source notebook
	Executed string        // the executed notebook (with outputs)
	Cells    int           // number of code cells
	Elapsed  time.Duration // wall time of the nbconvert run
	// Run is what the notebook's programs logged (see runlog): quick or not, results from the
	// cache, compute time. It is also recorded in the executed notebook's metadata.
	Run runlog.Summary
}

// Execute runs every cell of the notebook nbPath with the GoNB kernel, in the notebook's folder,
// writes the executed notebook and scans it. The cells run as `jupyter nbconvert --to notebook
// --execute --allow-errors` runs them (nbconvert's own exporter and preprocessor, in
// execute.py), with nbclient's hooks telling each cell's start and end to opts.Progress. It returns an error when nbconvert fails (kernel
// missing, cell timeout) or when any cell failed: an error output, or "panic:" / "exit status "
// in an output (see [Scan]). A failed cell does not stop the run (--allow-errors): every failed
// cell is named, and the Result is returned also when the scan fails, so that a report can
// still be exported for inspection.
func Execute(ctx context.Context, nbPath string, opts Options) (*Result, error) {
	abs, err := filepath.Abs(nbPath)
	if err != nil {
		return nil, fmt.Errorf("notebook %s: %w", nbPath, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("notebook %s: %w", nbPath, err)
	}
	if err := checkSetupCell(abs); err != nil {
		return nil, err
	}
	if opts.Kernel == "" {
		opts.Kernel = "gonb"
	}
	if opts.CellTimeout == 0 {
		opts.CellTimeout = 20 * time.Minute
	}
	if opts.CellTimeout < time.Second {
		return nil, fmt.Errorf("nbrun: CellTimeout %v is below the allowed minimum of 1s: use at least a few seconds (or 0 for the 20m default)", opts.CellTimeout)
	}
	out := opts.Output
	if out == "" {
		f, err := os.CreateTemp("", "nbrun-*-"+strings.TrimSuffix(filepath.Base(abs), ".ipynb")+".ipynb")
		if err != nil {
			return nil, fmt.Errorf("notebook %s: temporary output: %w", nbPath, err)
		}
		out = f.Name()
		f.Close()
	}
	if out, err = filepath.Abs(out); err != nil {
		return nil, fmt.Errorf("notebook %s: output %s: %w", nbPath, opts.Output, err)
	}
	// The programs log to a fresh file beside the output (runlog): a run's log is its own.
	logPath := out + ".runlog"
	if err := os.Remove(logPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("notebook %s: run log: %w", nbPath, err)
	}
	defer os.Remove(logPath)
	env := append(opts.Env[:len(opts.Env):len(opts.Env)], runlog.Env+"="+logPath)
	start := time.Now()
	if err := runCells(ctx, abs, out, opts, env, logPath); err != nil {
		return nil, fmt.Errorf("notebook %s: %w", nbPath, err)
	}
	res := &Result{Notebook: nbPath, Executed: out, Elapsed: time.Since(start)}
	if res.Run, err = runlog.Read(logPath); err != nil {
		return res, fmt.Errorf("notebook %s: %w", nbPath, err)
	}
	if err := writeRun(out, res.Run, abs); err != nil {
		return res, fmt.Errorf("notebook %s: executed copy: %w", nbPath, err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return res, fmt.Errorf("notebook %s: executed copy: %w", nbPath, err)
	}
	// The scan reads every output whole; the report then shows a runaway output's ends only.
	res.Cells, err = Scan(filepath.Base(nbPath), data)
	if cerr := cutLongOutputs(out, data); cerr != nil {
		err = errors.Join(err, fmt.Errorf("notebook %s: %w", nbPath, cerr))
	}
	return res, err
}

// jupyter runs /usr/bin/jupyter with args in dir; the error carries the end of its output.
func jupyter(ctx context.Context, dir string, env []string, args ...string) error {
	if _, err := os.Stat(Jupyter); err != nil {
		return fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's jupyter-nbconvert)", Jupyter)
	}
	cmd := exec.CommandContext(ctx, Jupyter, args...)
	cmd.Dir = dir
	// PYDEVD_DISABLE_FILE_VALIDATION silences a debugger warning of Debian's python 3.11 ipykernel.
	cmd.Env = append(append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1"), env...)
	cmd.WaitDelay = 10 * time.Second
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = errors.Join(ctxErr, err)
	}
	return fmt.Errorf("jupyter %s: %w\n%s", args[0], err, tail(buf.String(), 40))
}

// tail returns the last n lines of s: nbconvert's reason for failing is at the end of its log.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
