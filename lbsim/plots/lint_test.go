package plots

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// heavyTailPanel is one of notebook 04's 2x2 panels: mean time in system
// against the board refresh period, six entries, one a long curve name.
func heavyTailPanel(scv float64) Figure {
	T := []float64{1, 2, 5, 10, 20, 50, 100, 200, 500}
	series := func(name string, f func(t float64) float64, warnFrom float64) Series {
		s := Series{Name: name, X: T, Warned: make([]string, len(T))}
		for _, t := range T {
			y := f(t)
			s.Y, s.CI = append(s.Y, y), append(s.CI, 0.08*y)
			if t >= warnFrom {
				s.Warned[len(s.Y)-1] = "drift, exact-outside-ci, few-refreshes, initial-transient"
			}
		}
		return s
	}
	rnd := 5 * (1 + scv) / 2 * 0.9 / 0.1 / 4.5
	return Figure{
		Title: "SCV " + tickLabel(scv, true) + ", fcfs", XLabel: "board refresh period T (service times)",
		YLabel: "mean time in system", LogX: true, LogY: true,
		Series: []Series{
			series("random", func(float64) float64 { return rnd }, 1000),
			series("round robin", func(float64) float64 { return rnd / 2 }, 1000),
			series("best of two", func(t float64) float64 { return 3 + 0.1*t }, 200),
			series("least loaded", func(t float64) float64 { return 4 * math.Pow(t, 0.9) }, 100),
			series("oracle", func(float64) float64 { return 1.1 }, 1000),
		},
		Curves: []Curve{{Name: "random: exact M/G/1 per server (Pollaczek-Khinchine)", Of: "random",
			X: T, Y: func() []float64 {
				y := make([]float64, len(T))
				for i := range y {
					y[i] = rnd * 1.4
				}
				return y
			}()}},
	}
}

// liveBoard is notebook 04's first figure: eight entries against the SCV,
// three of them long curve names.
func liveBoard() Figure {
	fig := heavyTailPanel(1)
	fig.Title, fig.XLabel = "Live board, K=100, load 0.9, fcfs", "SCV of job sizes"
	scv := []float64{1, 4, 10, 30}
	for i := range fig.Series {
		s := &fig.Series[i]
		s.X, s.Y, s.CI, s.Warned = scv, s.Y[:4], s.CI[:4], s.Warned[:4]
	}
	long := func(name, of string, f float64) Curve {
		return Curve{Name: name, Of: of, X: scv, Y: []float64{10 * f, 25 * f, 50 * f, 140 * f}}
	}
	fig.Curves = []Curve{long("random: exact M/G/1 per server (Pollaczek-Khinchine)", "random", 1),
		long("round robin: exact E_100/H2/1 per server (GI/H2/1 roots)", "round robin", 0.9),
		long("oracle: approx. Lee-Longton M/G/K", "oracle", 0.11)}
	return fig
}

func heavyTailGrid() []Figure {
	return []Figure{heavyTailPanel(1), heavyTailPanel(4), heavyTailPanel(10), heavyTailPanel(30)}
}

// dispatchPair is notebook 01's pair: linear and log y, legend and
// footnote, waits from a few units to thousands.
func dispatchPair() []Figure {
	rho := []float64{0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95}
	var rnd, ll, ex []float64
	warned := make([]string, len(rho))
	for i, r := range rho {
		rnd, ll, ex = append(rnd, 20+90*r/(1-r)), append(ll, 0.6+30*r*r/(1-r)), append(ex, 20+100*r/(1-r))
		if r > 0.5 {
			warned[i] = "drift, exact-outside-ci, initial-transient"
		}
	}
	lin := Figure{Title: "Mean waiting time, K=50, two-point sizes", XLabel: "load ρ", YLabel: "mean waiting time E[W]",
		Series: []Series{{Name: "RND", X: rho, Y: rnd, Warned: warned}, {Name: "LL-2", X: rho, Y: ll}},
		Curves: []Curve{{Name: "RND exact", Of: "RND", X: rho, Y: ex}}}
	log := lin
	log.Title, log.LogY = lin.Title+" (log y)", true
	return []Figure{lin, log}
}

// mustLint is the lint of figs drawn as GridPNG (one figure: as PNG).
func mustLint(t *testing.T, figs []Figure, cols int) []string {
	t.Helper()
	var ds []Defect
	var err error
	if len(figs) == 1 {
		ds, err = Lint(figs[0])
	} else {
		ds, err = LintGrid(figs, cols)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return out
}

// writePicture saves a PNG under $LBSIM_FIGURE_DIR, to look at.
func writePicture(t *testing.T, name string, b []byte, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("LBSIM_FIGURE_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLintCleanFigures(t *testing.T) {
	cases := []struct {
		name string
		figs []Figure
		cols int
	}{
		{"heavy-tail-grid", heavyTailGrid(), 2},
		{"heavy-tail-alone", heavyTailGrid()[3:], 1},
		{"dispatch-pair", dispatchPair(), 2},
		{"dispatch-alone", dispatchPair()[:1], 1},
		{"wait", []Figure{waitFigure()}, 1},
		{"live-board", []Figure{liveBoard()}, 1},
		{"panels-apart", []Figure{waitFigure(), dispatchPair()[1]}, 2},
	}
	for _, c := range cases {
		if got := mustLint(t, c.figs, c.cols); len(got) > 0 {
			t.Errorf("%s: %d defects, want none:\n%s", c.name, len(got), strings.Join(got, "\n"))
		}
		if len(c.figs) == 1 {
			b, err := PNG(c.figs[0])
			writePicture(t, c.name, b, err)
		} else {
			b, err := GridPNG(c.figs, c.cols)
			writePicture(t, c.name, b, err)
		}
	}
}

// wantDefect fails unless some defect contains every part.
func wantDefect(t *testing.T, what string, defects []string, parts ...string) {
	t.Helper()
	for _, d := range defects {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(d, p)
		}
		if ok {
			return
		}
	}
	t.Errorf("%s: no defect with %q among:\n%s", what, parts, strings.Join(defects, "\n"))
}

func TestLintFindsOldLayout(t *testing.T) {
	// Notebook 04's panels as gonum drew them before issue 22: its legend
	// inside the data area, six entries at the top left.
	fig := heavyTailPanel(30)
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	p.Legend.Top, p.Legend.Left = true, true
	ds, err := LintPlot(p, PanelWidthCm, PanelHeightCm)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Message)
	}
	wantDefect(t, "long legend entry in a narrow panel", got, `"random: exact M/G/1 per server (Pollaczek-Khinchine)" runs`, "past the right edge")
	wantDefect(t, "footnote wider than the panel", got, `"hollow markers: warned`, "past the")

	// The same legend box placed over the data area, as the old layout did.
	pn, err := fig.build()
	if err != nil {
		t.Fatal(err)
	}
	inside := drawing{title: fig.Title, w: PanelWidthCm, h: PanelHeightCm, draw: func(c draw.Canvas) {
		rec := recorderOf(c)
		rec.addPanel(0, c.Rectangle)
		pn.draw(c)
		box := pn.leg.layout(c.Size().X, 1)
		data := pn.p.DataCanvas(c)
		rec.drawLegend(0, box, draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: data.Min.X, Y: data.Max.Y - box.size().Y}, Max: vg.Point{X: data.Min.X + box.size().X, Y: data.Max.Y}}})
	}}
	var msgs []string
	for _, d := range inside.lint() {
		msgs = append(msgs, d.Message)
	}
	wantDefect(t, "legend over the data", msgs, "legend box covers", "marks of series least loaded")
}

func TestLintTickLabelsCollide(t *testing.T) {
	// The old log ticks labelled 2..9 under a decade: on a short axis the
	// labels overlap.
	fig := Figure{Title: "t", LogY: true, Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1.2, 9.5}}}}
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	p.Y.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for v := 2.0; v <= 9; v++ {
			ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v, true)})
		}
		return ts
	})
	ds, err := LintPlot(p, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	wantDefect(t, "crowded y ticks", got, `figure "t": text "`, `" overlaps "`, "on the y axis")
	// The new ticks on the same axis: 2 and 5 only, apart.
	fig.HeightCm, fig.WidthCm = 3, 8
	if got := mustLint(t, []Figure{fig}, 1); len(got) > 0 {
		t.Errorf("new ticks: %s", strings.Join(got, "\n"))
	}
}

func TestLintLineOnFrame(t *testing.T) {
	// Notebook 04's oracle line, the lowest data, lay on the bottom frame.
	fig := heavyTailPanel(1)
	fig.Series, fig.Curves = []Series{fig.Series[0], fig.Series[4]}, nil // random above the oracle
	fig.Series[0].CI, fig.Series[1].CI = nil, nil
	for i := range fig.Series[1].Y {
		fig.Series[1].Y[i] = 1 // at the frame's labelled tick
	}
	old, oldMin := marginShare, minMargin
	marginShare, minMargin = 0, 0
	got := mustLint(t, []Figure{fig}, 1)
	marginShare, minMargin = old, oldMin
	wantDefect(t, "no margin", got, "series oracle lies on the x axis")
	if got := mustLint(t, []Figure{fig}, 1); len(got) > 0 {
		t.Errorf("with the margin: %s", strings.Join(got, "\n"))
	}
}

func TestLintEnvAppendsEachFigure(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lint.txt")
	t.Setenv(LintEnv, file)
	if _, err := PNG(waitFigure()); err != nil {
		t.Fatal(err)
	}
	// A 3 x 2.5 cm figure has no room for its labels.
	if _, err := GridPNG([]Figure{sized(waitFigure(), 3, 2.5)}, 1); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "ok: Mean waiting time" || len(lines) < 3 || lines[1] != "defects: Mean waiting time" || !strings.HasPrefix(lines[2], "\t") {
		t.Errorf("lint file:\n%s\nwant an ok line, then a defects line and indented defects", b)
	}
	t.Setenv(LintEnv, filepath.Join(t.TempDir(), "no", "such", "dir", "x"))
	if _, err := PNG(waitFigure()); err == nil || !strings.Contains(err.Error(), LintEnv) {
		t.Errorf("unwritable lint file: %v, want an error naming %s", err, LintEnv)
	}
	// A FIFO is refused at once: a blocking open would hang every figure.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	t.Setenv(LintEnv, fifo)
	done := make(chan error, 1)
	go func() { _, err := PNG(waitFigure()); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe (FIFO), not a regular file") {
			t.Errorf("lint file a FIFO: %v, want a refusal", err)
		}
	case <-time.After(time.Minute):
		t.Error("lint file a FIFO: the figure blocked for a minute")
		if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil { // let it return
			f.Close()
			<-done
		}
	}
}
