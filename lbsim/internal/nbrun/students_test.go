package nbrun

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The markers of testdata/solutions.ipynb's solution cells: the code cell's source (a
// function's name, a comment) and its output (a number), the markdown cell's prose and its
// number. None may reach a students' file; all are in the full report (the code in the page
// with code).
var (
	solutionText   = []string{"wombatProseAnswer", "31415", "27182.818"}
	solutionCode   = []string{"solvedWaitQuokka", "quokkaSolutionCode"}
	studentsShared = []string{"Homework with solutions", "given to students: the load is 0.5", "Write your answer here"}
)

// TestStudentsFiles exports testdata/solutions.ipynb (an executed notebook with a solution code
// cell and a solution markdown cell) and checks that no solution text, code or number is in any
// students' file (the notebook, both pages, the PDF's text) while the full report has them all,
// that the students' notebook has no outputs and is a valid notebook, and that the index links
// the students' files.
func TestStudentsFiles(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "reports")
	r, err := Publish(withFigures(t, dir), out, "hw")
	if err != nil {
		t.Fatal(err)
	}
	// Every check of -check, the students' files' too: the students' PDF holds one figure, the
	// full one two.
	if err := r.Check(filepath.Join(dir, "hw.png")); err != nil {
		t.Fatal(err)
	}
	s := r.Students
	if s == nil {
		t.Fatal("no students' files for a notebook with solution cells")
	}
	if data, err := os.ReadFile(s.View); err != nil {
		t.Fatal(err)
	} else if sum, _ := summarize(data); r.Figures != 2 || sum.Figures != 1 {
		t.Errorf("figures: %d in the report, %d in the students' report; want 2 and 1 (the solution's left out)", r.Figures, sum.Figures)
	}
	text := func(path string) string {
		t.Helper()
		if strings.HasSuffix(path, ".pdf") {
			pdf, err := ReadPDF(path)
			if err != nil {
				t.Fatal(err)
			}
			return strings.Join(pdf.Text, "\n")
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, path := range s.files() {
		got := text(path)
		for _, m := range append(append(solutionText, solutionCode...), "celltag_solution", `"solution"`) {
			if strings.Contains(got, m) {
				t.Errorf("students' file %s holds solution marker %q", filepath.Base(path), m)
			}
		}
		for _, m := range studentsShared {
			if strings.Contains(path, "-students.ipynb") && strings.HasPrefix(m, "given") {
				continue // an output: the students' notebook has none
			}
			if !strings.Contains(strings.Join(strings.Fields(got), " "), m) {
				t.Errorf("students' file %s lacks %q, which is not a solution", filepath.Base(path), m)
			}
		}
	}
	for _, path := range []string{r.View, r.Full, r.PDF} {
		got := text(path)
		want := solutionText
		if path == r.Full {
			want = append(want, solutionCode...)
		}
		for _, m := range want {
			if !strings.Contains(got, m) {
				t.Errorf("full report %s lacks solution marker %q", filepath.Base(path), m)
			}
		}
	}

	// The students' notebook: two cells fewer, no outputs, no execution counts, valid.
	var nb struct {
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal([]byte(text(s.Notebook)), &nb); err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != 3 {
		t.Errorf("students' notebook has %d cells, want 3", len(nb.Cells))
	}
	for i, c := range nb.Cells {
		if c["cell_type"] != "code" {
			continue
		}
		if outs, _ := c["outputs"].([]any); len(outs) != 0 || c["execution_count"] != nil {
			t.Errorf("students' cell %d has outputs %v, execution count %v; want none", i, c["outputs"], c["execution_count"])
		}
	}
	if got := text(s.Notebook); strings.Contains(got, "go-as-the-kernel-says") || strings.Contains(got, sourceMetaKey) {
		t.Errorf("the students' notebook is not made from the source notebook:\n%s", got)
	}
	validate := exec.Command(Python, "-c", "import sys, nbformat; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))", s.Notebook)
	if out, err := validate.CombinedOutput(); err != nil {
		t.Errorf("students' notebook is not a valid notebook: %v\n%s", err, out)
	}

	index := filepath.Join(out, "index.html")
	if err := WriteIndex(index, []IndexEntry{{Notebook: "hw.ipynb", Report: r, Elapsed: time.Second, RanAt: time.Now()}}, false); err != nil {
		t.Fatal(err)
	}
	res, err := CheckOffline(index, 0, true) // every link leads to a file
	if err != nil {
		t.Fatal(err)
	}
	page := text(index)
	for _, link := range []string{`href="hw-students.ipynb"`, `href="hw-students.html"`, `href="hw-students.pdf"`, `href="hw-students-code.html"`, `href="hw.html"`} {
		if !strings.Contains(page, link) {
			t.Errorf("index lacks the link %s", link)
		}
	}
	if !strings.Contains(res.Text, "For students") {
		t.Errorf("index text lacks the students' links:\n%s", clip(res.Text, 800))
	}

	// A notebook without solution cells has no students' files, and an export of it removes
	// those of an earlier export that had some.
	plain := smallNotebook(t, dir, "## Answer\n\nYes.")
	r2, err := Publish(plain, out, "hw")
	if err != nil {
		t.Fatal(err)
	}
	if r2.Students != nil {
		t.Errorf("students' files for a notebook without solution cells: %+v", r2.Students)
	}
	for _, path := range s.files() {
		if _, err := os.Stat(path); err == nil {
			t.Errorf("stale students' file %s kept after an export without solution cells", filepath.Base(path))
		}
	}
}

// withFigures writes testdata/solutions.ipynb into dir with a figure in the output of its given
// cell and another in its solution cell's, as the reports' checks want figures, and with the
// metadata of an executed notebook that names its source.
func withFigures(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "solutions.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	cells := nb["cells"].([]any)
	for i, size := range map[int][2]int{1: {600, 400}, 2: {500, 300}} {
		c := cells[i].(map[string]any)
		c["outputs"] = append(c["outputs"].([]any), map[string]any{"output_type": "display_data", "metadata": map[string]any{},
			"data": map[string]any{"image/png": base64.StdEncoding.EncodeToString(plotPNG(t, size[0], size[1]))}})
	}
	// As Execute leaves it: the kernel's language_info, the source named.
	source, err := filepath.Abs(filepath.Join("testdata", "solutions.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	meta := nb["metadata"].(map[string]any)
	meta["language_info"].(map[string]any)["version"] = "go-as-the-kernel-says"
	meta[sourceMetaKey] = source
	if data, err = json.Marshal(nb); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "solutions.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSolutionLeaks(t *testing.T) {
	dir := t.TempDir()
	cell := func(src string, tags ...string) map[string]any {
		meta := map[string]any{}
		if len(tags) > 0 {
			meta["tags"] = tags
		}
		return map[string]any{"cell_type": "code", "metadata": meta, "source": src, "outputs": []any{}, "execution_count": nil}
	}
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
		cell("!*rm -f go.work\n%goworkfix"),
		cell("import \"fmt\"\n\nfunc given(x float64) float64 { return x }\n\nvar shared = 1"),
		cell("func answer(rho float64) float64 { return rho / (1 - rho) }\n\ntype Solver struct{}\n\nvar shared = 2\n\n%%\nfmt.Println(answer(0.5))", "solution"),
		cell("%%\nfmt.Println(answer(0.9), given(1), shared)"),
		cell("%%\nvar s Solver\nfmt.Println(s)"),
	}}
	data, _ := json.Marshal(nb)
	path := filepath.Join(dir, "leaky.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	leaks, err := SolutionLeaks(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cell 4 uses answer, declared only in solution cell 3", "cell 5 uses Solver, declared only in solution cell 3"}
	if strings.Join(leaks, "\n") != strings.Join(want, "\n") {
		t.Errorf("SolutionLeaks = %q, want %q", leaks, want)
	}
	if has, err := HasSolutions(path); err != nil || !has {
		t.Errorf("HasSolutions = %v, %v; want true", has, err)
	}
}

// TestPublishReuses publishes one executed notebook twice into a folder, and once into
// another: the second export reuses the typeset page and both PDFs (the same bytes), and its
// pages are byte for byte those of the export made from scratch; a different notebook typesets
// and prints afresh and keeps one typeset page per report.
func TestPublishReuses(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	out, fresh := filepath.Join(dir, "r"), filepath.Join(dir, "fresh")
	nb := filepath.Join("testdata", "solutions.ipynb")
	read := func(path string) string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	first, err := Publish(nb, out, "hw")
	if err != nil {
		t.Fatal(err)
	}
	pdfs := map[string]string{first.PDF: read(first.PDF), first.Students.PDF: read(first.Students.PDF)}
	time.Sleep(1100 * time.Millisecond) // a PDF printed again would carry another date
	start := time.Now()
	second, err := Publish(nb, out, "hw")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("second export, reusing: %.2fs", time.Since(start).Seconds())
	for path, data := range pdfs {
		if read(path) != data {
			t.Errorf("%s was printed again, not reused", filepath.Base(path))
		}
	}
	kept, _ := filepath.Glob(filepath.Join(out, ".hw.typeset-*.html"))
	if len(kept) != 1 {
		t.Errorf("typeset pages kept: %q, want one", kept)
	}
	other, err := Publish(nb, fresh, "hw")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{{second.View, other.View}, {second.Full, other.Full}, {second.Students.View, other.Students.View}} {
		if read(p[0]) != read(p[1]) {
			t.Errorf("%s from the kept typeset page differs from the page typeset afresh", filepath.Base(p[0]))
		}
	}
	// Another notebook into the same report: typeset and printed afresh.
	plain := smallNotebook(t, dir, "## Answer\n\nYes.")
	third, err := Publish(plain, out, "hw")
	if err != nil {
		t.Fatal(err)
	}
	if read(third.PDF) == pdfs[first.PDF] {
		t.Error("the PDF of another notebook is the old one")
	}
	if kept, _ = filepath.Glob(filepath.Join(out, ".hw.typeset-*.html")); len(kept) != 1 {
		t.Errorf("typeset pages kept: %q, want one (the latest)", kept)
	}
}
