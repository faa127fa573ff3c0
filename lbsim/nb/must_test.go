package nb

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/janpfeifer/must"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/plots"
)

// stopped is what the fake stop panics with, so a test can see that the
// cell's program would have ended there.
type stopped struct{}

// catchStop replaces stop for one test and runs f, reporting whether it stopped.
func catchStop(t *testing.T, f func()) (didStop bool) {
	t.Helper()
	saved := stop
	stop = func() { panic(stopped{}) }
	defer func() {
		stop = saved
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
			didStop = true
		}
	}()
	f()
	return false
}

func TestMustShowsRedBoxAndStops(t *testing.T) {
	r := fakeNotebook(t)
	if catchStop(t, func() { Must(nil) }) || len(r.shown) != 0 {
		t.Fatalf("Must(nil) stopped or displayed %q", r.shown)
	}
	if got := catchStop(t, func() { _ = M1(3, nil) }); got {
		t.Fatal("M1 with a nil error stopped")
	}
	if a, b := M2("x", 2.5, nil); a != "x" || b != 2.5 {
		t.Errorf("M2 returned %v, %v", a, b)
	}
	after := false
	if !catchStop(t, func() {
		_ = M1(lbsim.ParsePolicy("ll:d=<2>"))
		after = true
	}) || after {
		t.Fatal("M1 with an error did not stop the program before the next statement")
	}
	if len(r.shown) != 1 {
		t.Fatalf("%d displays, want one error box", len(r.shown))
	}
	box := r.shown[0]
	if !strings.Contains(box, "color:#a00") || !strings.Contains(box, "&lt;2&gt;") {
		t.Errorf("error box %q: want red, with the message HTML-escaped", box)
	}
	// The harness (lbsim/internal/nbrun) fails a run whose output has a line
	// starting "error: " once tags are stripped.
	if !strings.Contains(box, "\nerror: ") {
		t.Errorf("error box %q has no line starting \"error: \"", box)
	}
}

// GoNB's must.M, reassigned by this package, shows the same red box and
// stops, instead of panicking with a stack trace.
func TestGoNBMustShowsRedBox(t *testing.T) {
	r := fakeNotebook(t)
	if !catchStop(t, func() { _ = must.M1(lbsim.ParsePolicy("ll:d=<2>")) }) {
		t.Fatal("must.M1 with an error did not stop")
	}
	if len(r.shown) != 1 || !strings.Contains(r.shown[0], "color:#a00") || !strings.Contains(r.shown[0], "\nerror: ") {
		t.Errorf("must.M1 showed %q, want nb's red error box", r.shown)
	}
	if catchStop(t, func() { must.M(nil) }) {
		t.Error("must.M(nil) stopped")
	}
}

// A parameter override that does not parse is a failure like any other:
// the red box, and the cell stops.
func TestBadOverrideShowsRedBox(t *testing.T) {
	r := fakeNotebook(t)
	t.Setenv("LBSIM_JOBS", "1e3")
	if !catchStop(t, func() { _ = Int[int64]("jobs", 10, 10) }) {
		t.Fatal("a bad LBSIM_JOBS did not stop the cell")
	}
	if len(r.shown) != 1 || !strings.Contains(r.shown[0], "error: LBSIM_JOBS=&#34;1e3&#34; is not a whole number") {
		t.Errorf("bad override showed %q", r.shown)
	}
}

func TestTableSavesAndHidesEmptyWarnings(t *testing.T) {
	r := fakeNotebook(t)
	dir := t.TempDir()
	t.Setenv("LBSIM_OUT_DIR", dir)
	type point struct {
		Policy   string         `json:"policy"`
		Wait     float64        `json:"mean_wait"`
		Warnings lbsim.Warnings `json:"warnings"`
	}
	clean := []point{{"RND", 1.0 / 3, nil}, {"RR", 2, nil}}
	Table(clean, "Mean waits", SaveAs("waits"))
	if len(r.shown) != 1 || !strings.Contains(r.shown[0], "Mean waits</caption>") || strings.Contains(r.shown[0], ">warnings<") {
		t.Errorf("table without warnings: %q", r.shown)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "waits.csv"))
	if err != nil || !strings.HasPrefix(string(csv), "policy,mean_wait,warnings\n") {
		t.Errorf("waits.csv = %q, %v; want the three columns", csv, err)
	}
	warned := append(clean, point{"LL-2", 9, lbsim.Warnings{{Rule: "ci-not-believable", Message: "batch means correlated"}}})
	Table(warned, "With a warning")
	if len(r.shown) != 2 || !strings.Contains(r.shown[1], ">warnings<") || !strings.Contains(r.shown[1], "ci-not-believable: batch means correlated") {
		t.Errorf("table with a warning: %q", r.shown[1])
	}
	// A bad argument is a red box, not a returned error.
	if !catchStop(t, func() { Table(42, "", SaveAs("x")) }) || !strings.Contains(r.shown[2], "error: frame.FromStructs") {
		t.Errorf("Table(42) did not stop with an error box: %q", r.shown)
	}
}

func TestFigureSinkRefusesUnknownLabel(t *testing.T) {
	r := fakeNotebook(t)
	rows := []lbsim.Row{{Label: "RND", Policy: "rnd", Load: 0.5, MeanWait: 1, MeanWaitCI95: 0.1}}
	stoppedHere := catchStop(t, func() {
		Figure(plots.Figure{Series: M1(plots.ByLabel(rows, plots.MeanWait, "LL-2"))})
	})
	if !stoppedHere || r.pngs != 0 || len(r.shown) != 1 || !strings.Contains(r.shown[0], `no row has the policy &#34;LL-2&#34;; the rows have RND`) {
		t.Errorf("figure for a missing label: stopped %v, %d PNGs, shown %q", stoppedHere, r.pngs, r.shown)
	}
	Figure(plots.Figure{Series: M1(plots.ByLabel(rows, plots.MeanWait))})
	Grid([]plots.Figure{{Series: M1(plots.ByLabel(rows, plots.MeanWait, "rnd"))}}, 1)
	if r.pngs != 2 {
		t.Errorf("%d PNGs, want 2", r.pngs)
	}
}

func TestSweepValidSkipsAndReports(t *testing.T) {
	r := fakeNotebook(t)
	t.Setenv("LBSIM_NO_CACHE", "1")
	g := lbsim.Grid{
		Base:     lbsim.Config{Servers: 4, Sizes: lbsim.Exponential{M: 1}, Jobs: 20_000, Reps: 2, Seed: 3},
		Policies: []lbsim.Policy{lbsim.Random{}, lbsim.SITA{C: 9}},
		Loads:    []float64{0.3, 0.6},
	}
	rows, skipped, err := SweepValid("sweep", g)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || len(skipped) != 2 {
		t.Fatalf("%d rows and %d skipped, want 2 RND rows and the 2 SITA-9 configurations (c > K-1)", len(rows), len(skipped))
	}
	// RND with exponential sizes: each server is M/M/1, E[W] = rho/(1-rho).
	for _, row := range rows {
		if want := row.Load / (1 - row.Load); math.Abs(row.ExactWait-want) > 1e-12 || math.Abs(row.MeanWait-want) > 3*row.MeanWaitCI95 {
			t.Errorf("RND at %v: %v ± %v, exact %v (want M/M/1 %v)", row.Load, row.MeanWait, row.MeanWaitCI95, row.ExactWait, want)
		}
	}
	note := strings.Join(r.shown, "")
	if !strings.Contains(note, "skipped 2 invalid configuration(s) of 4") || !strings.Contains(note, "sita") && !strings.Contains(note, "SITA") {
		t.Errorf("note %q", note)
	}
	if strings.Contains(note, "\nerror: ") {
		t.Error("the skip note would fail a headless run")
	}
	g.Policies = []lbsim.Policy{lbsim.SITA{C: 9}}
	if _, _, err := SweepValid("none", g); err == nil || !strings.Contains(err.Error(), "every one of the 2 configurations is invalid") {
		t.Errorf("all invalid: %v", err)
	}
}

func TestFailOutsideNotebookWritesStderr(t *testing.T) {
	if frontEnd.isNotebook {
		t.Skip("inside a notebook")
	}
	if !catchStop(t, func() { Must(errors.New("boom")) }) {
		t.Error("Must(err) did not stop outside a notebook")
	}
}
