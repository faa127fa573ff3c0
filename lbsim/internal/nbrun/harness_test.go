package nbrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The self-test notebooks live in testdata/ (written by testdata/make_notebooks.py). They import
// the repository module like notebooks/*.ipynb, with the root at "${GONB_DIR}/../../../..".

// TestExecuteGood runs a notebook that draws a 4x3 inch gonum/plot figure and writes a CSV into
// LBSIM_OUT_DIR, then exports and checks its report.
func TestExecuteGood(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	art := artifactDir(t)
	outDir := t.TempDir()
	var progress []Progress
	res, err := Execute(context.Background(), "testdata/good.ipynb", Options{
		Env:      []string{"LBSIM_OUT_DIR=" + outDir},
		Output:   filepath.Join(art, "good.ipynb"),
		Progress: func(p Progress) { progress = append(progress, p) },
	})
	if err != nil {
		t.Fatalf("good notebook failed: %v", err)
	}
	// Progress: each code cell starts and ends, in order, with its first line.
	var ends []string
	for _, p := range progress {
		if p.Cells != 2 || p.Cell < 1 || p.Cell > 2 || p.Failed || p.Elapsed < p.CellElapsed {
			t.Errorf("progress %+v: want cell 1 or 2 of 2, not failed, within the notebook's time", p)
		}
		if p.Done {
			ends = append(ends, fmt.Sprintf("%d %s", p.Cell, p.Label))
		}
	}
	if want := []string{"1 set-up cell (imports lbsim)", "2 pts := make(plotter.XYs, 11)"}; strings.Join(ends, "|") != strings.Join(want, "|") {
		t.Errorf("cells ended: %q, want %q", ends, want)
	}
	t.Logf("good.ipynb: %d code cells in %v", res.Cells, res.Elapsed)
	if res.Cells != 2 {
		t.Errorf("Cells = %d, want 2 (the go.work cell and the plot cell)", res.Cells)
	}
	// The Go program of the notebook saw our environment.
	csv, err := os.ReadFile(filepath.Join(outDir, "squares.csv"))
	if err != nil || string(csv) != "x,y\n10,100\n" {
		t.Errorf("LBSIM_OUT_DIR/squares.csv = %q, %v; want the notebook's table", csv, err)
	}
	html := filepath.Join(art, "good.html")
	if err := ExportHTML(res.Executed, html); err != nil {
		t.Fatal(err)
	}
	figs, err := CheckReport(html, filepath.Join(art, "good.png"))
	if err != nil {
		t.Fatal(err)
	}
	// 4 x 3 inches at gonum/plot's 96 dpi (vgimg.DefaultDPI).
	if len(figs) != 1 || figs[0] != (Figure{Width: 4 * 96, Height: 3 * 96}) {
		t.Errorf("figures = %+v, want one of 384x288", figs)
	}
	checkPrunedStyles(t, res.Executed, html, art)
}

// styleBytes is the length of the text of every <style> element of the HTML file at path.
func styleBytes(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range regexp.MustCompile(`(?s)<style[^>]*>(.*?)</style>`).FindAllSubmatch(data, -1) {
		n += len(m[1])
	}
	return n
}

// checkPrunedStyles checks that the report at html (the full export of executed, code
// included), whose style sheets are pruned, is a fraction of the size of the same export with
// nbconvert's style sheets whole, and that Chromium draws the two pixel for pixel the same.
func checkPrunedStyles(t *testing.T, executed, html, art string) {
	t.Helper()
	full, err := exportFull(executed, "")
	if err != nil {
		t.Fatal(err)
	}
	fullHTML := strings.TrimSuffix(html, ".html") + "-full-css.html"
	if err := writeHTML(fullHTML, full); err != nil {
		t.Fatal(err)
	}
	pruned, whole := styleBytes(t, html), styleBytes(t, fullHTML)
	t.Logf("%s: style sheets of %d bytes, %d with nbconvert's whole", filepath.Base(html), pruned, whole)
	if pruned > whole/3 {
		t.Errorf("pruning kept %d of %d bytes of style: the lab style sheet should shrink to a fraction", pruned, whole)
	}
	var shots [2][]byte
	for i, page := range []string{html, fullHTML} {
		png := strings.TrimSuffix(page, ".html") + "-shot.png"
		if err := Screenshot(page, png); err != nil {
			t.Fatal(err)
		}
		if shots[i], err = os.ReadFile(png); err != nil {
			t.Fatal(err)
		}
	}
	if !samePixels(t, shots[0], shots[1]) {
		t.Errorf("the report with pruned styles renders differently from the full export (screenshots in %s)", art)
	}
}

// TestExecuteBad runs notebooks that fail in the three ways GoNB has: a compile error (in a
// main body and in a function declared in a cell, each named by the cell's line), a panic and
// os.Exit(3), each the cell's error output (the kernel from .ci/setup.sh; GoNB as published
// leaves the last two as stderr text in a "successful" cell, which the scan also catches).
func TestExecuteBad(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	tests := []struct {
		notebook string
		want     []string // all must appear in the error
	}{
		// GoNB names the cell's own line beside its generated main.go: "Cell[N]: Line L" is line L
		// of the cell run as In [N] (its execution count), in a main body (%%) or a declaration.
		{"compile_error.ipynb", []string{"notebook compile_error.ipynb: cell 2: error output", `cannot use "not an int"`, "Cell[3]: Line 2\n"}},
		{"compile_error_func.ipynb", []string{"notebook compile_error_func.ipynb: cell 1: error output", "2.5 (untyped float constant) truncated to int", "Cell[2]: Line 3\n"}},
		// The stack trace names the cell's line (the kernel's GOFLAGS=-ldflags=-w keeps it: the
		// runtime's own tables, not DWARF).
		{"panic.ipynb", []string{"notebook panic.ipynb: cell 1: error output: ERROR: exit status 2", "index out of range [3] with length 0", "[[ Cell [2] Line 3 ]]"}},
		{"exit.ipynb", []string{"notebook exit.ipynb: cell 1: error output: ERROR: exit status 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.notebook, func(t *testing.T) {
			t.Parallel()
			_, err := Execute(context.Background(), filepath.Join("testdata", tt.notebook), Options{
				Output: filepath.Join(artifactDir(t), tt.notebook),
			})
			if err == nil {
				t.Fatalf("Execute(%s) succeeded, want a failure naming the cell", tt.notebook)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
			// Only the failing cell is blamed.
			if n := strings.Count(err.Error(), "notebook "+tt.notebook+": cell "); n != 1 {
				t.Errorf("error blames %d cells, want 1:\n%v", n, err)
			}
		})
	}
}

// TestExecuteMust runs a cell stopped by nb.M1: the run fails on the cell's red error box, and
// the program exited with status 1 before the statement after nb.M1.
func TestExecuteMust(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	out := filepath.Join(artifactDir(t), "must.ipynb")
	_, err := Execute(context.Background(), "testdata/must.ipynb", Options{Output: out})
	if err == nil || !strings.Contains(err.Error(), "notebook must.ipynb: cell 2") || !strings.Contains(err.Error(), `error: no row has the policy "LL-3"`) {
		t.Fatalf("Execute(must.ipynb) = %v; want a failure of cell 2 showing the error", err)
	}
	executed, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if !strings.Contains(string(executed), "exit status 1") || strings.Contains(string(executed), "not reached 42") {
		t.Errorf("executed notebook lacks \"exit status 1\" or ran past nb.M1:\n%s", executed)
	}
}

func TestExecuteMissingNotebook(t *testing.T) {
	_, err := Execute(context.Background(), "testdata/nonexistent.ipynb", Options{})
	if err == nil || !strings.Contains(err.Error(), "nonexistent.ipynb") {
		t.Errorf("err = %v, want one naming the missing notebook", err)
	}
	_, err = Execute(context.Background(), "testdata/good.ipynb", Options{CellTimeout: 1})
	if err == nil || !strings.Contains(err.Error(), "CellTimeout 1ns") {
		t.Errorf("err = %v, want one naming the bad CellTimeout", err)
	}
}
