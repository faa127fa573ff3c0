package nbrun

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The PDF checks of printed text (issue 22, item 6), run on every notebook's report.
func init() { reportChecks = append(reportChecks, checkPageFill, checkPrintedLines) }

// minPageLines is the fewest text lines a PDF page may hold, unless it is the last page or holds
// a figure: a page break must not strand a line or two of a cell (notebook 04's page 3 once held
// only a progress line) while the rest moved on to the next page.
const minPageLines = 3

// checkPageFill fails on a page, other than the last, that holds no figure and fewer than
// minPageLines lines of text.
func checkPageFill(t *testing.T, _ string, r *Report, pdf PDF) {
	for i := 0; i < pdf.Pages-1; i++ {
		if pdf.Images[i] > 0 {
			continue
		}
		if n := len(textLines(pdf.Text[i])); n < minPageLines {
			t.Errorf("%s: page %d of %d holds %d lines of text and no figure, want at least %d (the rest of its cell moved to the next page?):\n%s",
				r.PDF, i+1, pdf.Pages, n, minPageLines, clip(strings.TrimSpace(pdf.Text[i]), 300))
		}
	}
}

// textLines returns the non-blank lines of a page's text, each as its words.
func textLines(page string) [][]string {
	var lines [][]string
	for _, l := range strings.Split(page, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines = append(lines, f)
		}
	}
	return lines
}

// checkPrintedLines compares every line the notebook printed (its stdout and stderr, as the
// report shows them in <pre> blocks) with the PDF's text: each must appear whole, on one PDF
// line or wrapped over several at spaces, never broken inside a word or number ("T grid [1 2 5
// 10 20 5" then "0 100 200 500]").
func checkPrintedLines(t *testing.T, executed string, r *Report, pdf PDF) {
	printed, err := printedLines(executed)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]string
	for _, p := range pdf.Text {
		lines = append(lines, textLines(p)...)
	}
	var broken, missing []string
	for _, want := range printed {
		switch findPrinted(lines, want) {
		case printedBroken:
			broken = append(broken, strings.Join(want, " "))
		case printedMissing:
			missing = append(missing, strings.Join(want, " "))
		}
	}
	if len(broken) > 0 {
		t.Errorf("%s: %d of %d printed lines are broken inside a word or number, the first: %q", r.PDF, len(broken), len(printed), broken[0])
	}
	if len(missing) > 0 {
		t.Errorf("%s: %d of %d printed lines are not in the PDF's text, the first: %q", r.PDF, len(missing), len(printed), missing[0])
	}
	t.Logf("%s: %d printed lines, %d broken, %d missing", r.PDF, len(printed), len(broken), len(missing))
}

// printedLines returns the words of each non-blank line of the stream outputs (stdout, stderr)
// of the executed notebook's code cells, except the module set-up cell that the report hides
// (see hideCode).
func printedLines(executed string) ([][]string, error) {
	data, err := os.ReadFile(executed)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []struct {
			CellType string    `json:"cell_type"`
			Source   multiline `json:"source"`
			Outputs  []output  `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", executed, err)
	}
	var lines [][]string
	for _, c := range nb.Cells {
		if c.CellType != "code" || strings.Contains(string(c.Source), "%goworkfix") {
			continue
		}
		for _, o := range c.Outputs {
			if o.OutputType == "stream" {
				lines = append(lines, textLines(string(o.Text))...)
			}
		}
	}
	return lines, nil
}

// How a printed line appears in a PDF's text.
type printedMatch int

const (
	printedWhole   printedMatch = iota // on consecutive lines, each holding whole words
	printedBroken                      // only with a word split over two lines
	printedMissing                     // not at all
)

// findPrinted looks for the words want on consecutive lines of lines, from any line on.
func findPrinted(lines [][]string, want []string) printedMatch {
	best := printedMissing
	for i := range lines {
		switch matchFrom(lines[i:], want) {
		case printedWhole:
			return printedWhole
		case printedBroken:
			best = printedBroken
		}
	}
	return best
}

// matchFrom matches want against the words of lines[0], lines[1], ...: a word of want may be
// split at a line end (printedBroken), and the match must start at the first word of lines[0]
// and end at the last word of a line.
func matchFrom(lines [][]string, want []string) printedMatch {
	k, partial, broken := 0, "", false
	for _, line := range lines {
		for j, w := range line {
			if k == len(want) {
				return printedMissing // the line goes on past the printed line's end
			}
			cand := partial + w
			partial = ""
			switch {
			case cand == want[k]:
				k++
			case j == len(line)-1 && strings.HasPrefix(want[k], cand):
				partial, broken = cand, true
			default:
				return printedMissing
			}
		}
		if k == len(want) && partial == "" {
			if broken {
				return printedBroken
			}
			return printedWhole
		}
	}
	return printedMissing
}

// TestFindPrinted: the matcher tells a line wrapped at a space from one broken inside a number.
func TestFindPrinted(t *testing.T) {
	want := strings.Fields("T grid [1 2 5 10 20 50 100 200 500]")
	pdf := func(s string) [][]string { return textLines(s) }
	for _, tt := range []struct {
		name, text string
		want       printedMatch
	}{
		{"one line", "heading\nT grid [1 2 5 10 20 50 100 200 500]\nnext", printedWhole},
		{"wrapped at a space", "T grid [1 2 5 10 20\n50 100 200 500]", printedWhole},
		{"broken inside 50", "T grid [1 2 5 10 20 5\n0 100 200 500]", printedBroken},
		{"absent", "T grid [1 2 5]", printedMissing},
		{"other text on the line", "x T grid [1 2 5 10 20 50 100 200 500]", printedMissing},
	} {
		if got := findPrinted(pdf(tt.text), want); got != tt.want {
			t.Errorf("%s: findPrinted = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestPrintedText publishes a notebook whose cell printed a line wider than the PDF's text
// width and kept a progress bar (as a cell stopped before the bar's Done does): the PDF keeps the
// line whole, and no page shows the bar.
func TestPrintedText(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	nb := smallNotebook(t, dir, "**Answer.** Yes.")
	grid := "K = 100 servers, load 0.90, fcfs, SCVs [1 4 10 30], T grid [1 2 5 10 20 50 100 200 500 1000 2000 5000 10000]; 4 replications x 100000 jobs"
	addCell(t, nb, map[string]any{"cell_type": "code", "metadata": map[string]any{}, "execution_count": 2,
		"source": "sweep()",
		"outputs": []any{
			map[string]any{"output_type": "display_data", "metadata": map[string]any{},
				"data": map[string]any{"text/html": `<div class="lbsim-progress" style="font-family:sans-serif">sweep 3/9 (33%), elapsed 1.2s, about 2.4s left</div>`}},
			map[string]any{"output_type": "stream", "name": "stdout", "text": grid + "\nshort line 0.4797\n"},
		}})
	r, err := Publish(nb, filepath.Join(dir, "r"), "small")
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := ReadPDF(r.PDF)
	if err != nil {
		t.Fatal(err)
	}
	checkPrintedLines(t, nb, r, pdf)
	// At 138 characters the line fits the text width in smaller type: one PDF line, not two.
	one := false
	for _, l := range textLines(strings.Join(pdf.Text, "\n")) {
		one = one || strings.Join(l, " ") == strings.Join(strings.Fields(grid), " ")
	}
	if !one {
		t.Errorf("%s: the %d-character line is not on one line of the PDF (its type should shrink to fit)", r.PDF, len(grid))
	}
	checkNoProgress(t, nb, r, pdf)
	checkPageFill(t, nb, r, pdf)
}

// addCell appends a cell to the notebook at path.
func addCell(t *testing.T, path string, cell map[string]any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	nb["cells"] = append(nb["cells"].([]any), cell)
	if data, err = json.Marshal(nb); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
