#!/usr/bin/env python3
"""Writes the harness self-test notebooks in this folder (run: python3 make_notebooks.py).

Each notebook imports the repository module the way notebooks/*.ipynb do (go doc ./lbsim/nb, "Importing lbsim in a notebook"):
a go.work in GoNB's temporary folder that uses the temporary module and the repository root.
From notebooks/ the root is "${GONB_DIR}/.."; from here (lbsim/internal/nbrun/testdata) it is
"${GONB_DIR}/../../../..".

The go.work alone is not enough: GoNB runs `go get` after every cell, and `go get` ignores go.work,
so it asks the module proxy for the latest gonb/gonum versions, which the proxy here refuses. So
the temporary module also *requires* the repository module (replaced by its folder): then the
repository's go.mod pins gonb (gonbui), gonum/plot and gota, and `go get` finds them in the
build list without asking the proxy. %goworkfix (run after the shell line) adds the replace rule
github.com/perfeval/lbsim => <repository root> that makes the requirement resolvable.
"""
import json

ROOT = '"${GONB_DIR}/../../../.."'
WORK = (
    "!*rm -f go.work && go work init && go work use . " + ROOT + " \\\n"
    "  && go mod edit -require=github.com/perfeval/lbsim@v0.0.0-00010101000000-000000000000\n"
    "%goworkfix"
)


def notebook(*cells):
    out = []
    for kind, src in cells:
        cell = {"cell_type": kind, "metadata": {}, "source": src}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)
    return {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "Go (gonb)", "language": "go", "name": "gonb"},
            "language_info": {"file_extension": ".go", "mimetype": "text/x-go", "name": "go"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write(name, *cells):
    with open(name, "w") as f:
        json.dump(notebook(*cells), f, indent=1)
        f.write("\n")


# good: draws a small gonum/plot figure and shows it as PNG with nb.PNG, as a user would (gonbui.DisplayPNG
# alone can lose the figure when the cell ends at once: GoNB reads displays asynchronously); also writes
# a CSV into LBSIM_OUT_DIR.
write(
    "good.ipynb",
    ("markdown", "# Good notebook\nDraws y = x^2 with gonum/plot and shows it inline as PNG."),
    ("code", WORK),
    ("code", '''import (
	"bytes"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perfeval/lbsim/lbsim/nb"
)

%%
pts := make(plotter.XYs, 11)
for i := range pts {
	pts[i].X = float64(i)
	pts[i].Y = float64(i * i)
}
p := plot.New()
p.Title.Text = "y = x^2"
line, err := plotter.NewLine(pts)
if err != nil {
	panic(err)
}
p.Add(line)
w, err := p.WriterTo(4*vg.Inch, 3*vg.Inch, "png")
if err != nil {
	panic(err)
}
var buf bytes.Buffer
if _, err := w.WriteTo(&buf); err != nil {
	panic(err)
}
nb.PNG(buf.Bytes())
if dir := os.Getenv("LBSIM_OUT_DIR"); dir != "" {
	if err := os.WriteFile(filepath.Join(dir, "squares.csv"), []byte("x,y\\n10,100\\n"), 0o644); err != nil {
		panic(err)
	}
}
fmt.Println("drawn")'''),
)

# compile_error: cell 2 does not compile.
write(
    "compile_error.ipynb",
    ("code", WORK),
    ("code", '%%\nfmt.Println("fine")'),
    ("code", '%%\nvar x int = "not an int"\nfmt.Println(x)'),
)

# compile_error_func: the function declared in cell 1 (In [2]) does not compile at the cell's line 3
# (GoNB as published maps a function's lines to no cell: its message names main.go only).
write(
    "compile_error_func.ipynb",
    ("code", WORK),
    ("code", '// half is declared in a cell of its own, as the notebooks declare their helpers.\nfunc half(n int) int {\n\treturn n / 2.5\n}'),
)

# panic: cell 1 panics: "panic:" on stderr and the cell's error "exit status 2" (GoNB as published
# prints "exit status 2" to stderr instead and the cell "succeeds").
write(
    "panic.ipynb",
    ("code", '%%\nfmt.Println("about to panic")'),
    ("code", '%%\nvar s []int\nfmt.Println(s[3])'),
)

# exit: cell 1 calls os.Exit(3): the cell's error "exit status 3" (GoNB as published prints it to
# stderr).
write(
    "exit.ipynb",
    ("code", '%%\nfmt.Println("ok")'),
    ("code", 'import "os"\n\n%%\nfmt.Println("leaving")\nos.Exit(3)'),
)

# must: cell 2 stops on an error through nb.M1: a red "error: ..." box and exit status 1.
write(
    "must.ipynb",
    ("code", WORK),
    ("code", '%%\nfmt.Println("fine")'),
    ("code", '''import (
	"errors"

	"github.com/perfeval/lbsim/lbsim/nb"
)

%%
x := nb.M1(42, errors.New(`no row has the policy "LL-3"`))
fmt.Println("not reached", x)'''),
)

# stop: cell 2 stops through nb.M1 when LBSIM_TEST_STOP=1 and runs through otherwise; each cell's
# program that gets to its end leaves a file named after the cell in LBSIM_OUT_DIR, so a test
# sees which cells ran even when nbconvert writes no executed notebook.
write(
    "stop.ipynb",
    ("code", WORK),
    ("code", '''import (
	"errors"
	"os"
	"path/filepath"

	"github.com/perfeval/lbsim/lbsim/nb"
)

// ran records in LBSIM_OUT_DIR that the program of the named cell got to its end.
func ran(cell string) {
	nb.Must(os.WriteFile(filepath.Join(os.Getenv("LBSIM_OUT_DIR"), cell), nil, 0o644))
}

// failure is the error cell 2 stops on when LBSIM_TEST_STOP=1.
func failure() error {
	if os.Getenv("LBSIM_TEST_STOP") == "1" {
		return errors.New(`no row has the policy "LL-3"`)
	}
	return nil
}

%%
ran("cell1")'''),
    ("code", '%%\nx := nb.M1(42, failure())\nfmt.Println("cell 2 got", x)\nran("cell2")'),
    ("code", '%%\nran("cell3")'),
)
