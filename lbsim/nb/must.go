package nb

import (
	"fmt"
	"html"
	"os"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/must"
)

// GoNB's must.M logs and panics with a stack trace. Reassigned, as its doc
// invites, must.M and must.M1 ... M9 stop a cell as nb.Must does: one way
// to fail, whichever spelling a cell uses.
func init() { must.M = Must }

// stop ends the cell's program after a failure; tests replace it. The
// kernel built by .ci/setup.sh (GoNB with .ci/gonb-v0.11.1.patch) replies
// "error" for a program's non-zero exit and shows "exit status 1" under the
// cell; GoNB as published shows the same text but replies "ok".
var stop = func() {
	if frontEnd.isNotebook {
		gonbui.Sync() // the error box must reach the notebook before we exit
	}
	os.Exit(1)
}

// Fail shows err in the cell's output and stops the cell's program with
// exit status 1, so the failure is visible in the notebook and an
// exported report, a headless run (nbconvert, make test) fails at this cell
// and Jupyter's "Run all" stops at it.
//
// In a notebook the error is a red box whose text starts "error: "; outside
// one (go test, a terminal) it is the line "error: ..." on stderr. Advice
// names Config fields, not command-line flags (FieldAdvice).
func Fail(err error) {
	msg := "error: " + FieldAdvice(err.Error())
	if frontEnd.isNotebook {
		showHTML(errorBox(msg))
	} else {
		fmt.Fprintln(os.Stderr, msg)
	}
	stop()
}

// errorBox is msg as a red HTML box; the text stays on lines of its own so
// the stripped text has a line starting "error: ".
func errorBox(msg string) string {
	return `<pre style="color:#a00;background:#fdd;border:1px solid #a00;padding:6px 8px;white-space:pre-wrap">` +
		"\n" + html.EscapeString(msg) + "\n</pre>"
}

// Must stops the cell with a visible error (see Fail) when err is not nil:
//
//	nb.Must(frame.WriteCSV(df, "out.csv", true))
func Must(err error) {
	if err != nil {
		Fail(err)
	}
}

// M1 returns v, or stops the cell with a visible error (see Fail) when err
// is not nil, in the style of GoNB's must.M1:
//
//	rows := nb.M1(nb.Sweep("loads", grid))
func M1[T any](v T, err error) T {
	Must(err)
	return v
}

// M2 is M1 for a function returning two values and an error.
func M2[T, U any](a T, b U, err error) (T, U) {
	Must(err)
	return a, b
}
