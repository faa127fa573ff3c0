package nbrun

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The tests here run testdata/stop.ipynb the two ways a user runs a notebook, with cell 2
// stopped by nb.M1 (LBSIM_TEST_STOP=1) and without: each cell's program that gets to its end
// leaves a file named after the cell in LBSIM_OUT_DIR.

// cellsRan lists the cells whose programs got to their end, by the files they left in dir.
func cellsRan(t *testing.T, dir string) []string {
	t.Helper()
	var ran []string
	for _, cell := range []string{"cell1", "cell2", "cell3"} {
		if _, err := os.Stat(filepath.Join(dir, cell)); err == nil {
			ran = append(ran, cell)
		}
	}
	return ran
}

// TestNbconvertStopsAtFailedCell runs `jupyter nbconvert --to notebook --execute` as a user
// would (no --allow-errors): a cell stopped by nb.M1 fails the run, with the exit status in
// the message, and the cell after it does not run; the same notebook without the failure passes
// and runs every cell.
func TestNbconvertStopsAtFailedCell(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	nb, err := filepath.Abs("testdata/stop.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	for _, stop := range []bool{false, true} {
		outDir := t.TempDir()
		env := []string{"LBSIM_OUT_DIR=" + outDir}
		if stop {
			env = append(env, "LBSIM_TEST_STOP=1")
		}
		err := jupyter(context.Background(), filepath.Dir(nb), env, "nbconvert", "--to", "notebook",
			"--execute", "--ExecutePreprocessor.kernel_name=gonb", "--output-dir", outDir, nb)
		ran := cellsRan(t, outDir)
		switch {
		case !stop && (err != nil || len(ran) != 3):
			t.Errorf("without a failure: nbconvert error %v, cells ran %v; want no error and cells 1-3", err, ran)
		case stop && err == nil:
			t.Errorf("cell 2 stopped by nb.M1 but nbconvert exited 0 (cells ran %v): the kernel replied \"ok\" to a failed cell", ran)
		case stop && !slices.Equal(ran, []string{"cell1"}):
			t.Errorf("cell 2 stopped by nb.M1: cells ran %v, want only cell1 (nbconvert must stop at the failed cell)", ran)
		case stop && !strings.Contains(err.Error(), "exit status 1"):
			t.Errorf("nbconvert's failure does not give the cell's exit status 1:\n%v", err)
		}
	}
}

// TestRunAllStopsAtFailedCell runs the notebook as Jupyter Notebook's "Run all" does
// (testdata/runall.py: every execute_request sent at once with stop_on_error): the kernel must
// reply "error" to the cell stopped by nb.M1 and "aborted" to the cells sent after it, without
// running them; without the failure every cell replies "ok".
func TestRunAllStopsAtFailedCell(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	for _, stop := range []bool{false, true} {
		outDir := t.TempDir()
		cmd := exec.Command("/usr/bin/python3", "testdata/runall.py", "testdata/stop.ipynb")
		cmd.Env = append(os.Environ(), "LBSIM_OUT_DIR="+outDir, "PYDEVD_DISABLE_FILE_VALIDATION=1")
		if stop {
			cmd.Env = append(cmd.Env, "LBSIM_TEST_STOP=1")
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("runall.py: %v\n%s", err, tail(stderr.String(), 40))
		}
		var status []string
		if err := json.Unmarshal(out, &status); err != nil {
			t.Fatalf("runall.py printed %q: %v", out, err)
		}
		want, wantRan := []string{"ok", "ok", "ok", "ok"}, []string{"cell1", "cell2", "cell3"}
		if stop {
			want, wantRan = []string{"ok", "ok", "error", "aborted"}, []string{"cell1"}
		}
		if ran := cellsRan(t, outDir); !slices.Equal(status, want) || !slices.Equal(ran, wantRan) {
			t.Errorf("LBSIM_TEST_STOP=%v: replies %v, cells ran %v; want %v and %v", stop, status, ran, want, wantRan)
		}
	}
}
