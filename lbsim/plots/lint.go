package plots

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A Defect is one flaw of a drawn figure that a reader would see: a legend
// over data or text, two texts over each other, a text past its panel's
// edge, a marker cut by the frame or a line lying on it.
type Defect struct {
	Figure  string // the figure's title (a grid's: its panels' titles)
	Message string // e.g. `legend box covers 14 marks of series RND`
}

func (d Defect) String() string { return fmt.Sprintf("figure %q: %s", d.Figure, d.Message) }

// Lint draws fig as PNG does and measures what it drew: the legend box
// against every point, error bar and curve segment and against every
// text, each text box (tick labels, axis labels, titles, legend entries,
// footnotes) against every other and against its panel's edges, and each
// marker against the frame. A figure PNG draws cleanly has no defects; a
// figure of your own (drawn with Plot) can be checked the same way by
// drawing it through PNG. The error is fig's own (see Plot).
func Lint(fig Figure) ([]Defect, error) {
	d, err := figureDrawing(fig)
	if err != nil {
		return nil, err
	}
	return d.lint(), nil
}

// LintGrid is Lint for the grid GridPNG(figs, cols) draws.
func LintGrid(figs []Figure, cols int) ([]Defect, error) {
	d, err := gridDrawing(figs, cols)
	if err != nil {
		return nil, err
	}
	return d.lint(), nil
}

// LintPlot is Lint for a gonum plot of your own (drawn alone over
// widthCm x heightCm, gonum's legend inside): it checks the texts (titles,
// labels, tick labels, legend entries) against each other and the image
// edges, and the axis lines. Data under a text are found only for the
// plotters that Figure.Plot added; others are unknown to the lint.
func LintPlot(p *plot.Plot, widthCm, heightCm float64) ([]Defect, error) {
	if err := checkSize(widthCm, heightCm); err != nil {
		return nil, err
	}
	// The axis lines in axisInk for this drawing only, so the frame is found.
	xInk, yInk := p.X.LineStyle.Color, p.Y.LineStyle.Color
	p.X.LineStyle.Color, p.Y.LineStyle.Color = axisInk, axisInk
	defer func() { p.X.LineStyle.Color, p.Y.LineStyle.Color = xInk, yInk }()
	d := drawing{title: p.Title.Text, w: widthCm, h: heightCm, draw: func(c draw.Canvas) {
		recorderOf(c).addPanel(0, c.Rectangle)
		p.Draw(c)
	}}
	return d.lint(), nil
}

func (d drawing) lint() []Defect {
	_, rec := d.paint(true)
	var out []Defect
	for _, m := range rec.defects() {
		out = append(out, Defect{Figure: d.title, Message: m})
	}
	return out
}

// LintEnv names the environment variable that makes PNG and GridPNG append
// each figure's lint to the file it names: a line "ok: <title>" for a clean
// figure, else "defects: <title>" and one line per defect, indented by a
// tab (the notebook tests run every notebook so).
const LintEnv = "LBSIM_FIGURE_LINT"

func appendLint(file, title string, defects []string) error {
	var b strings.Builder
	if len(defects) == 0 {
		fmt.Fprintf(&b, "ok: %s\n", title)
	} else {
		fmt.Fprintf(&b, "defects: %s\n", title)
	}
	for _, d := range defects {
		fmt.Fprintf(&b, "\t%s\n", d)
	}
	f, err := files.OpenRegular(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644) // a FIFO would block every figure
	if err == nil {
		_, err = f.WriteString(b.String())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("plots: %s=%s: %v; name a writable file or unset it", LintEnv, file, err)
	}
	return nil
}

// tolerance is how far boxes may touch before they count as overlapping:
// half a point, a third of a pixel at DPI.
var tolerance = vg.Points(0.5)

// onFrame is how close a segment along an axis line may come before it
// reads as lying on the frame: the height of a small tick label (gonum
// keeps data 5 pt off the axis line, plus the markers' radius).
var onFrame = vg.Points(8)

// defects measures the recorded drawing.
func (r *recorder) defects() []string {
	var out []string
	out = append(out, r.legendDefects()...)
	out = append(out, r.textDefects()...)
	out = append(out, r.frameDefects()...)
	return out
}

func (r *recorder) legendDefects() []string {
	var out []string
	for _, l := range r.legends {
		covered := map[string]int{}
		for _, m := range r.marks {
			if (l.panel < 0 || m.panel == l.panel) && m.hits(l.r) {
				covered[m.owner]++
			}
		}
		for _, owner := range sortedKeys(covered) {
			out = append(out, fmt.Sprintf("legend box covers %d marks of %s", covered[owner], owner))
		}
		for _, t := range r.texts {
			if t.owner != legendOwner && overlaps(t.r, l.r) {
				out = append(out, fmt.Sprintf("legend box covers text %q", t.s))
			}
		}
	}
	return out
}

func (r *recorder) textDefects() []string {
	var out []string
	for i, a := range r.texts {
		covered := map[string]int{}
		for _, m := range r.marks {
			if m.panel == a.panel && m.hits(a.r) {
				covered[m.owner]++
			}
		}
		for _, owner := range sortedKeys(covered) {
			out = append(out, fmt.Sprintf("text %q covers %d marks of %s", a.s, covered[owner], owner))
		}
		for _, b := range r.texts[i+1:] {
			if overlaps(a.r, b.r) {
				out = append(out, fmt.Sprintf("text %q overlaps %q%s", a.s, b.s, r.where(a, b)))
			}
		}
		area := r.image
		if a.panel >= 0 && a.panel < len(r.panels) {
			area = r.panels[a.panel]
		}
		if edge, by := outside(a.r, area); by > tolerance {
			out = append(out, fmt.Sprintf("text %q runs %.1f pt past the %s edge of its panel", a.s, by.Points(), edge))
		}
	}
	return out
}

// where names the axis two overlapping texts belong to, if any.
func (r *recorder) where(a, b textMark) string {
	for _, ax := range r.axes {
		if ax.panel != a.panel || ax.panel != b.panel {
			continue
		}
		switch {
		case ax.horizontal && a.r.Max.Y <= ax.at+tolerance && b.r.Max.Y <= ax.at+tolerance:
			return " on the x axis"
		case !ax.horizontal && a.r.Max.X <= ax.at+tolerance && b.r.Max.X <= ax.at+tolerance:
			return " on the y axis"
		}
	}
	return ""
}

// frameDefects finds marks that cross an axis line (cut by the frame) or
// segments that lie along one.
func (r *recorder) frameDefects() []string {
	crossing, lying := map[string]int{}, map[string]int{}
	for _, ax := range r.axes {
		name := map[bool]string{true: "x", false: "y"}[ax.horizontal]
		for _, m := range r.marks {
			if m.panel != ax.panel {
				continue
			}
			lo, hi := m.r.Min.X, m.r.Max.X
			if !ax.horizontal {
				lo, hi = m.r.Min.Y, m.r.Max.Y
			}
			if hi < ax.from || lo > ax.to {
				continue
			}
			if ax.horizontal && m.r.Min.Y < ax.at-tolerance || !ax.horizontal && m.r.Min.X < ax.at-tolerance {
				crossing[m.owner+" crosses the "+name+" axis"]++
			}
			for k := 1; k < len(m.pts); k++ {
				p, q := m.pts[k-1], m.pts[k]
				along := ax.horizontal && abs(p.Y-ax.at) < onFrame && abs(q.Y-ax.at) < onFrame && abs(q.X-p.X) > onFrame ||
					!ax.horizontal && abs(p.X-ax.at) < onFrame && abs(q.X-ax.at) < onFrame && abs(q.Y-p.Y) > onFrame
				if along {
					lying[m.owner+" lies on the "+name+" axis"]++
					break
				}
			}
		}
	}
	var out []string
	for _, k := range sortedKeys(crossing) {
		out = append(out, fmt.Sprintf("%s (%d marks cut by the frame)", k, crossing[k]))
	}
	return append(out, sortedKeys(lying)...)
}

// hits reports whether the mark touches rectangle b: its box for a
// marker or a bar, its segments for a line.
func (m dataMark) hits(b vg.Rectangle) bool {
	if !overlaps(m.r, b) {
		return false
	}
	if len(m.pts) <= 5 { // a glyph or a bar with its caps
		return true
	}
	for k := 1; k < len(m.pts); k++ {
		if segmentHits(m.pts[k-1], m.pts[k], b) {
			return true
		}
	}
	return false
}

// segmentHits reports whether segment pq meets b (shrunk by the
// tolerance), by clipping pq to b's slab in x, then in y (Liang-Barsky).
func segmentHits(p, q vg.Point, b vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	d := vg.Point{X: q.X - p.X, Y: q.Y - p.Y}
	clip := func(den, num float64) bool {
		switch {
		case den == 0:
			return num >= 0
		case den > 0:
			t1 = min(t1, num/den)
		default:
			t0 = max(t0, num/den)
		}
		return t0 <= t1
	}
	tol := tolerance
	return clip(float64(d.X), float64(b.Max.X-tol-p.X)) && clip(float64(-d.X), float64(p.X-b.Min.X-tol)) &&
		clip(float64(d.Y), float64(b.Max.Y-tol-p.Y)) && clip(float64(-d.Y), float64(p.Y-b.Min.Y-tol))
}

// overlaps reports whether a and b share more than the tolerance each way.
func overlaps(a, b vg.Rectangle) bool {
	return min(a.Max.X, b.Max.X)-max(a.Min.X, b.Min.X) > tolerance &&
		min(a.Max.Y, b.Max.Y)-max(a.Min.Y, b.Min.Y) > tolerance
}

// outside is the edge of area that r passes most and by how much (<= 0
// when r is inside).
func outside(r, area vg.Rectangle) (string, vg.Length) {
	edge, by := "", vg.Length(0)
	for _, e := range []struct {
		name string
		by   vg.Length
	}{{"left", area.Min.X - r.Min.X}, {"right", r.Max.X - area.Max.X}, {"bottom", area.Min.Y - r.Min.Y}, {"top", r.Max.Y - area.Max.Y}} {
		if e.by > by {
			edge, by = e.name, e.by
		}
	}
	return edge, by
}

func abs(x vg.Length) vg.Length { return max(x, -x) }

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
