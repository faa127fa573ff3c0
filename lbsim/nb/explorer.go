package nb

import (
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/frame"
	"github.com/perfeval/lbsim/lbsim/plots"
)

// Explorer re-runs lbsim whenever one of its controls changes and redraws two
// views: the chosen configuration (its mean wait with CI on the exact curve
// over the load, and a table beside theory), and a sweep of one numeric
// control with the others fixed. A notebook declares one in a few lines:
//
//	ex := nb.Explorer{
//		Base:      nb.FastSettings(),
//		Controls:  []nb.Control{nb.PolicyMenu("ll:d=2"), nb.ServersSlider(100), nb.LoadSlider(0.5)},
//		SweepOver: "load rho",
//	}
//	must.M(ex.Show())
//
// Without a front-end (nbconvert, make reports, go test) Show draws both views
// once for the default values.
type Explorer struct {
	// Base holds everything the controls do not set: run length (Jobs,
	// Warmup, Reps), Seed, and defaults such as Sizes and Policy.
	Base     lbsim.Config
	Controls []Control
	// SweepOver names the numeric control swept in the second view at
	// first ("" = the first numeric control); the view has a menu to change it.
	SweepOver string
	// SweepPoints is the number of values swept (0 = 8), spread evenly over
	// the control's Values.
	SweepPoints int
}

// FastSettings are run lengths that give a result in well under a second
// at K = 100 on one core: 2 replications of 2e5 measured jobs after 2e4
// warm-up jobs (the CI says how precise that is).
func FastSettings() lbsim.Config {
	return lbsim.Config{Servers: 100, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{},
		Jobs: 200_000, Warmup: 20_000, Reps: 2, Seed: 1}
}

// check says what is wrong with the explorer's declaration, if anything.
func (e *Explorer) check() error {
	if len(e.Controls) == 0 {
		return errors.New("explorer has no Controls: add some, e.g. nb.LoadSlider(0.5)")
	}
	seen := map[string]bool{}
	for _, c := range e.Controls {
		if err := c.check(); err != nil {
			return err
		}
		if seen[c.Name] {
			return fmt.Errorf("explorer: two controls are named %q: names must differ (they label the sweep menu)", c.Name)
		}
		seen[c.Name] = true
	}
	if len(e.sweepable()) == 0 {
		return errors.New("explorer: no numeric control to sweep: add a slider, e.g. nb.LoadSlider(0.5)")
	}
	if e.SweepOver != "" && e.sweepIndex(e.SweepOver) < 0 {
		return fmt.Errorf("explorer: SweepOver %q is not a numeric control; use one of %q", e.SweepOver, e.sweepNames())
	}
	if e.SweepPoints < 0 || e.SweepPoints == 1 {
		return fmt.Errorf("explorer: SweepPoints = %d: need at least 2 points (or 0 for 8)", e.SweepPoints)
	}
	return nil
}

// sweepable returns the indices of the numeric controls.
func (e *Explorer) sweepable() []int {
	var out []int
	for i, c := range e.Controls {
		if c.Numbers != nil {
			out = append(out, i)
		}
	}
	return out
}

func (e *Explorer) sweepNames() []string {
	var out []string
	for _, i := range e.sweepable() {
		out = append(out, e.Controls[i].Name)
	}
	return out
}

// sweepIndex is the control index of the numeric control named name, or -1.
func (e *Explorer) sweepIndex(name string) int {
	for _, i := range e.sweepable() {
		if e.Controls[i].Name == name {
			return i
		}
	}
	return -1
}

// defaults are the controls' initial choices.
func (e *Explorer) defaults() []int {
	ch := make([]int, len(e.Controls))
	for i, c := range e.Controls {
		ch[i] = c.Default
	}
	return ch
}

// Config is the configuration for the given choices (an index into each
// control's Values): Base with every control's Set applied in order.
func (e *Explorer) Config(choices []int) (lbsim.Config, error) {
	if len(choices) != len(e.Controls) {
		return lbsim.Config{}, fmt.Errorf("explorer: %d choices for %d controls", len(choices), len(e.Controls))
	}
	cfg := e.Base
	for i, c := range e.Controls {
		if choices[i] < 0 || choices[i] >= len(c.Values) {
			return cfg, fmt.Errorf("explorer control %q: choice %d is outside 0..%d", c.Name, choices[i], len(c.Values)-1)
		}
		if err := c.Set(&cfg, c.Values[choices[i]]); err != nil {
			return cfg, fmt.Errorf("%s = %s: %w", c.Name, c.Values[choices[i]], err)
		}
	}
	return cfg, cfg.Validate()
}

// view is the first view of one redraw: the configuration's figure and
// table as HTML fragments ready for the notebook, and its run.
type view struct {
	Figure, Table string
	Result        lbsim.Result
}

// drawSingle runs the configuration of choices and renders the first view.
// A bad configuration is not an error here: the table states it, so a live
// explorer shows it and stays usable.
func (e *Explorer) drawSingle(choices []int) view {
	v := view{}
	cfg, err := e.Config(choices)
	if err == nil {
		v.Result, err = lbsim.Run(cfg)
	}
	if err != nil {
		v.Table = errorHTML(err)
		v.Figure = `<p>(no figure: see the message below)</p>`
	} else {
		v.Figure, v.Table = e.single(cfg, v.Result)
	}
	v.Figure, v.Table = wrap("figure", v.Figure), wrap("table", v.Table)
	return v
}

// drawSweep renders the second view: the sweep over control sweep.
func (e *Explorer) drawSweep(choices []int, sweep int) string {
	return wrap("sweep", e.sweep(choices, sweep))
}

// wrap marks a view's HTML with a class, so that a test (or a style sheet)
// can find it.
func wrap(part, body string) string {
	return fmt.Sprintf(`<div class="lbsim-explorer-%s">%s</div>`, part, body)
}

func errorHTML(err error) string {
	return fmt.Sprintf(`<p style="color:#a00;font-family:sans-serif">%s</p>`, html.EscapeString(FieldAdvice(err.Error())))
}

// dispatchersNote is ", M dispatchers" for several, else "".
func dispatchersNote(cfg lbsim.Config) string {
	if cfg.Dispatchers > 1 {
		return fmt.Sprintf(", %d dispatchers", cfg.Dispatchers)
	}
	return ""
}

// describe is a one-line summary of cfg, as the table's caption.
func describe(cfg lbsim.Config) string {
	return fmt.Sprintf("%s (size SCV %.3g)", cfg, lbsim.SCV(cfg.Sizes))
}

// theoryRow is one row of the single view's table.
type theoryRow struct {
	Quantity  string  `frame:"quantity"`
	Simulated float64 `frame:"simulated"`
	CI95      float64 `frame:"± 95% CI"`
	Theory    float64 `frame:"theory"`
	Method    string  `frame:"theory method"`
}

// single renders the chosen configuration: its mean wait with CI on the
// theory curve over the load, and a table of mean wait and response.
func (e *Explorer) single(cfg lbsim.Config, r lbsim.Result) (figure, table string) {
	ref, ok := r.Theory()
	rows := []theoryRow{
		{Quantity: "mean wait", Simulated: r.Wait.Mean, CI95: r.Wait.CI95, Theory: math.NaN()},
		{Quantity: "mean response", Simulated: r.Response.Mean, CI95: r.Response.CI95, Theory: math.NaN()},
	}
	if ok {
		rows[0].Theory, rows[1].Theory = ref.Wait, ref.Response
		m := fmt.Sprintf("%s (%s)", ref.Method, ref.Kind)
		rows[0].Method, rows[1].Method = m, m
	}
	df, err := frame.FromStructs(rows)
	if err != nil {
		return "", errorHTML(err)
	}
	row := lbsim.NewRow(r)
	caption := fmt.Sprintf("%s: %d × %d jobs in %.0f ms", describe(cfg), row.Reps, row.Jobs, 1000*r.Seconds)
	table = frame.HTML(df, frame.Caption(caption), frame.Precision(4))
	if len(r.Warnings) > 0 {
		table += "<ul style=\"color:#a60;font-family:sans-serif;font-size:13px\">"
		for _, w := range r.Warnings {
			table += "<li>warning " + html.EscapeString(FieldAdvice(w.String())) + "</li>"
		}
		table += "</ul>"
	}

	fig := plots.Figure{
		Title:  fmt.Sprintf("%s, K=%d, %s sizes (SCV %.3g), %s%s", cfg.Policy, cfg.Servers, sizeFamily(cfg.Sizes), lbsim.SCV(cfg.Sizes), cfg.Discipline, dispatchersNote(cfg)),
		XLabel: plots.LoadLabel, YLabel: "mean wait",
		Series: []plots.Series{{Name: "simulated", X: []float64{cfg.Load}, Y: []float64{r.Wait.Mean}, CI: []float64{r.Wait.CI95}}},
	}
	top := r.Wait.Mean + r.Wait.CI95
	if ok && !math.IsInf(ref.Wait, 0) {
		top = max(top, ref.Wait)
	}
	fig.YMin, fig.YMax = 0, 2*top+1e-9
	if curve, ok := e.loadCurve(cfg, fig.YMax); ok {
		fig.Curves = []plots.Curve{curve}
	}
	img, err := pngHTML(fig)
	if err != nil {
		return errorHTML(err), table
	}
	return img, table
}

// loadCurve is theory's mean wait of cfg over the load, up to where it
// leaves the figure (ymax); ok is false when theory knows nothing.
func (e *Explorer) loadCurve(cfg lbsim.Config, ymax float64) (plots.Curve, bool) {
	var c plots.Curve
	for i := 1; i < 100; i++ {
		at := cfg
		at.Load = float64(i) / 100
		ref, ok := lbsim.Theory(at)
		if !ok || math.IsInf(ref.Wait, 0) {
			continue
		}
		if ref.Wait > ymax {
			break
		}
		c.X, c.Y = append(c.X, at.Load), append(c.Y, ref.Wait)
		c.Name = fmt.Sprintf("theory (%s)", ref.Kind)
	}
	return c, len(c.X) > 1
}

// sizeFamily is the law's name without its parameters ("h2" for "h2:mean=1,scv=4").
func sizeFamily(s lbsim.SizeLaw) string {
	name, _, _ := strings.Cut(fmt.Sprint(s), ":")
	return name
}

// sweepValues are the indices into a control's Values visited by a sweep:
// n of them, spread evenly, first and last included.
func sweepValues(nValues, n int) []int {
	if n >= nValues {
		n = nValues
	}
	if n < 2 {
		return []int{0}
	}
	out := make([]int, 0, n)
	for j := range n {
		i := int(math.Round(float64(j) * float64(nValues-1) / float64(n-1)))
		if len(out) == 0 || out[len(out)-1] != i {
			out = append(out, i)
		}
	}
	return out
}

// sweep renders the mean wait over the values of control ctl with the other
// controls as chosen: simulated points with CIs and theory where known.
// Values giving an invalid configuration are left out and named.
func (e *Explorer) sweep(choices []int, ctl int) string {
	c := e.Controls[ctl]
	points := e.SweepPoints
	if points == 0 {
		points = 8
	}
	var cfgs []lbsim.Config
	var xs []float64
	var skipped []string
	for _, i := range sweepValues(len(c.Values), points) {
		ch := append([]int(nil), choices...)
		ch[ctl] = i
		cfg, err := e.Config(ch)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s = %s: %v", c.Name, c.Values[i], err))
			continue
		}
		cfgs, xs = append(cfgs, cfg), append(xs, c.Numbers[i])
	}
	var b strings.Builder
	if len(cfgs) > 0 {
		res, err := lbsim.RunAll(cfgs, nil)
		if err != nil {
			return errorHTML(err)
		}
		sim := plots.Series{Name: "simulated"}
		th := plots.Curve{Of: "simulated"}
		for i, r := range res {
			sim.X, sim.Y, sim.CI = append(sim.X, xs[i]), append(sim.Y, r.Wait.Mean), append(sim.CI, r.Wait.CI95)
			if ref, ok := r.Theory(); ok && !math.IsInf(ref.Wait, 0) {
				th.X, th.Y = append(th.X, xs[i]), append(th.Y, ref.Wait)
				th.Name = fmt.Sprintf("theory (%s)", ref.Kind)
			}
		}
		fig := plots.Figure{
			Title:  fmt.Sprintf("sweep over %s: %s", c.Name, describeExcept(cfgs[0], c.Name)),
			XLabel: c.Name, YLabel: "mean wait", LogX: c.LogX && xs[0] > 0,
			Series: []plots.Series{sim},
		}
		if len(th.X) > 1 {
			fig.Curves = []plots.Curve{th}
		}
		img, err := pngHTML(fig)
		if err != nil {
			return errorHTML(err)
		}
		b.WriteString(img)
	}
	for _, s := range skipped {
		b.WriteString(errorHTML(fmt.Errorf("left out of the sweep: %s", s)))
	}
	return b.String()
}

// describeExcept is the sweep title's list of the fixed settings.
func describeExcept(cfg lbsim.Config, swept string) string {
	parts := []string{cfg.Policy.String()}
	if swept != "servers K" {
		parts = append(parts, fmt.Sprintf("K=%d", cfg.Servers))
	}
	if swept != "load rho" {
		parts = append(parts, fmt.Sprintf("load %g", cfg.Load))
	}
	parts = append(parts, sizeFamily(cfg.Sizes))
	if cfg.Dispatchers > 1 && swept != "dispatchers M" {
		parts = append(parts, fmt.Sprintf("%d dispatchers", cfg.Dispatchers))
	}
	return strings.Join(parts, ", ")
}

// pngHTML renders fig as an <img> with the PNG inline, so it survives export
// to an HTML report.
func pngHTML(fig plots.Figure) (string, error) {
	png, err := plots.PNG(fig)
	if err != nil {
		return "", err
	}
	return `<img src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(png) + `"/>`, nil
}
