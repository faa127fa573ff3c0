package plots

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is a measured curve: points (X[i], Y[i]) with optional 95%
// confidence-interval half-widths CI[i] (nil for none; a NaN entry draws no
// bar for that point). Use StudentT95 to compute the half-widths.
type Series struct {
	Name string
	X, Y []float64
	CI   []float64
	// Warned names, per point, the warning rules that fired for it ("" for
	// none; nil when no point has a warning). Warned points are drawn
	// hollow and the figure gets a footnote naming the rules.
	Warned []string
}

// Curve is an exact-theory or limiting curve, drawn as a dashed line without
// markers. If Of names a Series of the same Figure the curve takes that
// series' colour, so "RND" and "RND exact (M/G/1)" read as a pair;
// otherwise it gets its own colour.
type Curve struct {
	Name string
	Of   string
	X, Y []float64
}

// Figure describes one plot: measured series, theory curves and axes.
//
// Points with a non-finite coordinate are dropped (theory is often +Inf at
// rho >= 1). Curves are drawn only over the x range of the series' points,
// so a theory curve does not stretch the axes beyond the simulated data;
// around a single simulated x (the explorer's one run) they are drawn in
// full, else nothing of them would show. On a log axis, points with a coordinate <= 0 are dropped too,
// and error bars that would reach below zero are cut at a positive floor:
// a tenth of the smallest positive value drawn on that axis.
type Figure struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Series                []Series
	Curves                []Curve
	// YMin and YMax fix the y range when YMax > YMin; otherwise the range
	// follows the data.
	YMin, YMax float64
	// WidthCm and HeightCm are the image's size in cm; zero takes the
	// default (FigureWidthCm x FigureHeightCm, or in a grid PanelWidthCm x
	// PanelHeightCm).
	WidthCm, HeightCm float64
}

// Plot builds the gonum plot for f, with gonum's legend (drawn inside the
// data area, for a caller drawing the plot itself; PNG and GridPNG place
// their own legend outside). It checks f first: every Series and Curve
// needs len(X) == len(Y), a Series' CI is nil or as long as Y with no
// negative entry, and a Curve's Of must name a Series.
func (f *Figure) Plot() (*plot.Plot, error) {
	pn, err := f.build()
	if err != nil {
		return nil, err
	}
	for _, e := range pn.leg.entries {
		pn.p.Legend.Add(e.name, e.thumbs...)
	}
	if note := footnote(pn.rules); note != "" {
		pn.p.X.Label.Text += "\n" + note
	}
	return pn.p, nil
}

// build is f's panel: its plot without legend or footnote, and those two
// to lay out beside it.
func (f *Figure) build() (panel, error) {
	var l legend
	if err := f.check(); err != nil {
		return panel{}, err
	}
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	// The axis lines are drawn in axisInk, so that Lint can find the frame.
	p.X.LineStyle.Color, p.Y.LineStyle.Color = axisInk, axisInk
	m := &margin{}
	p.Add(plotter.NewGrid(), m)
	p.X.Tick.Marker, p.Y.Tick.Marker = linearTicks{}, linearTicks{}
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if f.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	floor := f.logFloor()
	colourOf := make(map[string]int, len(f.Series))
	for i, s := range f.Series {
		colourOf[s.Name] = i
		if err := f.addSeries(p, &l, s, i, floor); err != nil {
			return panel{}, err
		}
	}
	xmin, xmax := f.seriesXRange()
	for j, c := range f.Curves {
		colour := len(f.Series) + j
		if c.Of != "" {
			colour = colourOf[c.Of]
		}
		if err := f.addCurve(p, &l, c, j, colour, xmin, xmax); err != nil {
			return panel{}, err
		}
	}
	pn := panel{p: p, leg: l, title: f.Title, xlabel: f.XLabel, ylabel: f.YLabel, rules: f.warnedRules(), margin: m}
	f.setRanges(p)
	return pn, nil
}

// seriesXRange is the x range of the series' drawable points; (-Inf, +Inf)
// when the figure has no series or they have one x (curves are drawn in full).
func (f *Figure) seriesXRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range f.Series {
		for i := range s.X {
			if f.drawable(s.X[i], s.Y[i]) {
				lo, hi = math.Min(lo, s.X[i]), math.Max(hi, s.X[i])
			}
		}
	}
	if lo >= hi {
		return math.Inf(-1), math.Inf(1)
	}
	return lo, hi
}

// warnedRules are the distinct rule names of the warned drawable points, sorted.
func (f *Figure) warnedRules() []string {
	seen := map[string]bool{}
	for _, s := range f.Series {
		for i, w := range s.Warned {
			if w == "" || !f.drawable(s.X[i], s.Y[i]) {
				continue
			}
			for _, r := range strings.Split(w, ", ") {
				seen[r] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func (f *Figure) check() error {
	if len(f.Series) == 0 && len(f.Curves) == 0 {
		return fmt.Errorf("plots: figure %q has no series and no curves; add at least one", f.Title)
	}
	if f.YMax > f.YMin && f.LogY && f.YMin <= 0 {
		return fmt.Errorf("plots: figure %q has LogY with YMin = %g; a log axis needs YMin > 0", f.Title, f.YMin)
	}
	names := make(map[string]bool, len(f.Series))
	for _, s := range f.Series {
		names[s.Name] = true
		if len(s.X) == 0 {
			return fmt.Errorf("plots: series %q of figure %q has no points; was it built from rows that match nothing? (figure series: %s)", s.Name, f.Title, seriesNames(f.Series))
		}
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("plots: series %q has %d X values and %d Y values; they must be equal", s.Name, len(s.X), len(s.Y))
		}
		if s.Warned != nil && len(s.Warned) != len(s.Y) {
			return fmt.Errorf("plots: series %q has %d Warned entries for %d points; give one per point (\"\" for none) or Warned = nil", s.Name, len(s.Warned), len(s.Y))
		}
		if s.CI != nil && len(s.CI) != len(s.Y) {
			return fmt.Errorf("plots: series %q has %d CI half-widths for %d points; give one per point or CI = nil", s.Name, len(s.CI), len(s.Y))
		}
		for i, h := range s.CI {
			if h < 0 {
				return fmt.Errorf("plots: series %q has CI[%d] = %g; a half-width must be >= 0 (NaN for none)", s.Name, i, h)
			}
		}
	}
	for _, c := range f.Curves {
		if len(c.X) != len(c.Y) {
			return fmt.Errorf("plots: curve %q has %d X values and %d Y values; they must be equal", c.Name, len(c.X), len(c.Y))
		}
		if c.Of != "" && !names[c.Of] {
			return fmt.Errorf("plots: curve %q has Of = %q, which names no series of figure %q (series: %s)", c.Name, c.Of, f.Title, seriesNames(f.Series))
		}
	}
	return nil
}

func seriesNames(ss []Series) string {
	if len(ss) == 0 {
		return "none"
	}
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = fmt.Sprintf("%q", s.Name)
	}
	return strings.Join(names, ", ")
}

// drawable reports whether (x, y) can be placed on f's axes.
func (f *Figure) drawable(x, y float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
		return false
	}
	return (!f.LogX || x > 0) && (!f.LogY || y > 0)
}

func (f *Figure) addSeries(p *plot.Plot, l *legend, s Series, i int, floor float64) error {
	pts, bars := f.points(s, floor)
	if len(pts) == 0 {
		return nil
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plots: series %q: %w", s.Name, err)
	}
	colour := pick(palette, i)
	line.Color = colour
	line.Width = vg.Points(1.2)
	line.Dashes = pick(seriesDashes, i)
	p.Add(tagged{line, "series " + s.Name})
	var thumb *plotter.Scatter
	for _, part := range f.markerParts(s, i) {
		if len(part.pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(part.pts)
		if err != nil {
			return fmt.Errorf("plots: series %q: %w", s.Name, err)
		}
		sc.Color, sc.Shape, sc.Radius = colour, part.shape, part.radius
		p.Add(tagged{sc, "series " + s.Name})
		if thumb == nil || !part.hollow {
			thumb = sc
		}
	}
	l.add(s.Name, line, thumb)
	if bars.Len() > 0 {
		eb, err := plotter.NewYErrorBars(bars)
		if err != nil {
			return fmt.Errorf("plots: series %q error bars: %w", s.Name, err)
		}
		eb.Color = colour
		eb.Width = vg.Points(0.8)
		eb.CapWidth = vg.Points(4)
		p.Add(tagged{eb, "error bars of " + s.Name})
	}
	return nil
}

// markerPart is a set of points of one series drawn with one glyph.
type markerPart struct {
	pts    plotter.XYs
	shape  draw.GlyphDrawer
	radius vg.Length
	hollow bool
}

// markerParts splits the drawable points of series i into plain points
// (its filled marker) and warned points (the hollow counterpart).
func (f *Figure) markerParts(s Series, i int) [2]markerPart {
	parts := [2]markerPart{
		{shape: pick(markers, i), radius: vg.Points(2.5)},
		{shape: pick(hollowMarkers, i), radius: vg.Points(3.5), hollow: true},
	}
	for k := range s.X {
		if !f.drawable(s.X[k], s.Y[k]) {
			continue
		}
		part := &parts[0]
		if s.Warned != nil && s.Warned[k] != "" {
			part = &parts[1]
		}
		part.pts = append(part.pts, plotter.XY{X: s.X[k], Y: s.Y[k]})
	}
	return parts
}

func (f *Figure) addCurve(p *plot.Plot, l *legend, c Curve, j, colour int, xmin, xmax float64) error {
	var pts plotter.XYs
	for i := range c.X {
		if f.drawable(c.X[i], c.Y[i]) && c.X[i] >= xmin && c.X[i] <= xmax {
			pts = append(pts, plotter.XY{X: c.X[i], Y: c.Y[i]})
		}
	}
	if len(pts) == 0 {
		return nil
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plots: curve %q: %w", c.Name, err)
	}
	line.Color = pick(palette, colour)
	line.Width = vg.Points(1)
	line.Dashes = pick(curveDashes, j)
	p.Add(tagged{line, "curve " + c.Name})
	l.add(c.Name, line)
	return nil
}

// setRanges applies the fixed y range, rounds linear axes to whole tick
// steps (from 0 for positive data near it) and log axes to a labelled
// tick less than a factor 2 away, and keeps log axes positive:
// gonum's log scale panics on a range that reaches 0.
func (f *Figure) setRanges(p *plot.Plot) {
	if !f.LogX {
		p.X.Min, p.X.Max = roundRange(p.X.Min, p.X.Max)
	}
	if f.YMax > f.YMin {
		p.Y.Min, p.Y.Max = f.YMin, f.YMax
	} else if !f.LogY {
		p.Y.Min, p.Y.Max = roundRange(p.Y.Min, p.Y.Max)
	}
	for _, ax := range []struct {
		log bool
		a   *plot.Axis
	}{{f.LogX, &p.X}, {f.LogY, &p.Y}} {
		switch {
		case !ax.log:
		case !(ax.a.Min > 0 && ax.a.Max >= ax.a.Min): // nothing drawn
			ax.a.Min, ax.a.Max = 1, 10
		case ax.a.Min == ax.a.Max: // one value; gonum would widen it by +-1
			ax.a.Min, ax.a.Max = ax.a.Min/2, ax.a.Max*2
		case ax.a != &p.Y || !(f.YMax > f.YMin):
			ax.a.Min, ax.a.Max = roundLogRange(ax.a.Min, ax.a.Max)
		}
	}
}

// errNoFigures is returned by GridPNG for an empty list.
var errNoFigures = errors.New("plots: GridPNG got no figures; pass at least one")
