package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/nbrun"
)

// tinyNotebook is a notebook that imports nothing of lbsim (so it may live in a fake
// repository) and prints line; its answer is a solution cell.
func tinyNotebook(t *testing.T, path, line string) {
	t.Helper()
	md := func(src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": src}
	}
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "gonb", "display_name": "Go (gonb)", "language": "go"}},
		"cells": []any{
			md("# Tiny\n\n**Question.** Does it print?"),
			map[string]any{"cell_type": "code", "metadata": map[string]any{}, "execution_count": nil, "outputs": []any{},
				"source": "%%\n" + line},
			map[string]any{"cell_type": "markdown", "metadata": map[string]any{"tags": []string{"solution"}}, "source": "## Answer\n\nIt prints 42."},
		}}
	data, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSkipUnchanged runs a tiny notebook of a fake repository (go.mod, lbsim/, data/,
// notebooks/) through nbreports again and again: an unchanged notebook is kept, even after its
// files are touched; a change to data/, to lbsim's code or to the notebook makes it run again;
// a failed run leaves no stamp, so the next run is not skipped; -force runs an unchanged one.
func TestSkipUnchanged(t *testing.T) {
	if err := nbrun.Ready(); err != nil {
		if os.Getenv("LBSIM_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	defer nbrun.StopChromium()
	root := t.TempDir()
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/fake\n\ngo 1.26\n")
	write("lbsim/a.go", "package lbsim\n\nconst A = 1\n")
	write("lbsim/a_test.go", "package lbsim\n")
	write("data/x.csv", "x\n1\n")
	nb := filepath.Join(root, "notebooks", "tiny.ipynb")
	if err := os.MkdirAll(filepath.Dir(nb), 0o755); err != nil {
		t.Fatal(err)
	}
	tinyNotebook(t, nb, `fmt.Println("tiny 42")`)
	out := filepath.Join(root, "reports")
	step := func(what string, force bool, wantErr bool, want ...string) {
		t.Helper()
		var buf bytes.Buffer
		start := time.Now()
		err := run([]string{nb}, config{out: out, quick: true, force: force, cellTimeout: time.Minute, parallel: 1, stdout: &buf})
		t.Logf("%s (%.1fs):\n%s", what, time.Since(start).Seconds(), buf.String())
		if (err != nil) != wantErr {
			t.Fatalf("%s: err = %v, want an error: %v", what, err, wantErr)
		}
		for _, w := range want {
			if !regexp.MustCompile(w).MatchString(buf.String()) {
				t.Errorf("%s: output lacks %q:\n%s", what, w, buf.String())
			}
		}
	}
	const ran, kept = `tiny\.ipynb +ok `, `tiny: unchanged since \d{4}-\d\d-\d\d \d\d:\d\d, report kept`
	step("first run", false, false, `tiny: runs \(no report yet\)`, ran)
	for _, f := range []string{"tiny-students.ipynb", "tiny-students.html", "tiny-students-code.html", "tiny-students.pdf"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("students' file: %v", err)
		}
	}
	step("unchanged", false, false, kept)
	// A students' file changed or removed is not a whole report: it runs again.
	if err := os.Remove(filepath.Join(out, "tiny-students.pdf")); err != nil {
		t.Fatal(err)
	}
	step("students' PDF removed", false, false, `tiny: runs \(tiny-students.pdf changed or is missing\)`, ran)
	// Touched, not changed: same bytes, newer times.
	later := time.Now().Add(time.Hour)
	for _, p := range []string{nb, filepath.Join(root, "data/x.csv"), filepath.Join(root, "lbsim/a.go")} {
		if err := os.Chtimes(p, later, later); err != nil {
			t.Fatal(err)
		}
	}
	write("lbsim/a_test.go", "package lbsim\n\n// tests do not make reports\n")
	step("touched", false, false, kept)
	write("data/x.csv", "x\n2\n")
	step("data changed", false, false, `tiny: runs \(data/ changed\)`, ran)
	step("unchanged after data", false, false, kept)
	write("lbsim/a.go", "package lbsim\n\nconst A = 2\n")
	step("code changed", false, false, `tiny: runs \(lbsim's code changed\)`, ran)
	tinyNotebook(t, nb, `fmt.Println("tiny", undefinedName)`)
	step("notebook broken", false, true, `tiny: runs \(the notebook changed\)`, `FAIL`)
	if _, err := os.Stat(filepath.Join(out, ".tiny.stamp.json")); err == nil {
		t.Error("a failed run left a stamp")
	}
	tinyNotebook(t, nb, `fmt.Println("tiny 42")`)
	step("notebook restored after a failure", false, false, `tiny: runs \(its last report is not stamped whole`, ran)
	step("unchanged again", false, false, kept)
	step("forced", true, false, `tiny: runs \(unchanged, -force\)`, ran)
	if view, err := os.ReadFile(filepath.Join(out, "tiny.html")); err != nil || !strings.Contains(string(view), "tiny 42") {
		t.Errorf("report view: %v; want the notebook's output", err)
	}
}
