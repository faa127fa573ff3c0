package plots

import (
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// recorder is a vg.Canvas that forwards every call to the real canvas and
// records, in image coordinates, what Lint measures: each text box, each
// path drawn by a tagged plotter (a point, an error bar, a curve) and the
// axis lines.
type recorder struct {
	vg.Canvas
	m     affine   // current transform
	stack []affine // saved by Push
	ink   color.Color
	owner string // what is being drawn: "series RND", legendOwner, "" (axes, grid)
	panel int    // index of the panel being drawn; -1 for a shared legend

	image   vg.Rectangle
	texts   []textMark
	marks   []dataMark
	axes    []axisLine
	panels  []vg.Rectangle // each panel's area
	legends []legendMark
}

// textMark is one line of text as drawn.
type textMark struct {
	s     string
	r     vg.Rectangle
	owner string
	panel int
}

// dataMark is one path of a data plotter: a marker, an error bar or
// (part of) a line, with the polyline through its points.
type dataMark struct {
	owner string
	panel int
	r     vg.Rectangle
	pts   []vg.Point
}

// axisLine is a panel's x (horizontal) or y axis line.
type axisLine struct {
	panel      int
	horizontal bool
	at         vg.Length // y of an x axis, x of a y axis
	from, to   vg.Length
}

// legendMark is the box of a drawn legend.
type legendMark struct {
	panel int
	r     vg.Rectangle
}

// legendOwner tags what a legend draws.
const legendOwner = "legend"

// axisInk is the colour of the axis lines, black to the eye, so that the
// recorder can tell the frame from other strokes.
var axisInk = color.RGBA{R: 1, G: 1, B: 1, A: 255}

func newRecorder(c vg.Canvas, image vg.Rectangle) *recorder {
	return &recorder{Canvas: c, image: image, m: affine{1, 0, 0, 1, 0, 0}, ink: color.Black, panel: -1}
}

// tagCanvas makes the recorder behind c (if any) attribute what is drawn
// to owner, until the returned function restores the previous owner.
func tagCanvas(c vg.Canvas, owner string) func() {
	r := unwrap(c)
	if r == nil {
		return func() {}
	}
	prev := r.owner
	r.owner = owner
	return func() { r.owner = prev }
}

// unwrap is the recorder behind c, or nil: gonum wraps canvases in
// draw.Canvas values (padX converts a draw.Canvas to a vg.Canvas).
func unwrap(c vg.Canvas) *recorder {
	for {
		switch v := c.(type) {
		case *recorder:
			return v
		case draw.Canvas:
			c = v.Canvas
		case *draw.Canvas:
			c = v.Canvas
		default:
			return nil
		}
	}
}

// affine maps (x, y) to (a x + c y + e, b x + d y + f), as in PDF.
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.c*y + m.e), Y: vg.Length(m.b*x + m.d*y + m.f)}
}

// then is m applied after the local transform n (n's coordinates first).
func (m affine) then(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

func (r *recorder) Translate(p vg.Point) {
	r.m = r.m.then(affine{1, 0, 0, 1, float64(p.X), float64(p.Y)})
	r.Canvas.Translate(p)
}

func (r *recorder) Rotate(rad float64) {
	s, c := math.Sincos(rad)
	r.m = r.m.then(affine{c, s, -s, c, 0, 0})
	r.Canvas.Rotate(rad)
}

func (r *recorder) Scale(x, y float64) {
	r.m = r.m.then(affine{x, 0, 0, y, 0, 0})
	r.Canvas.Scale(x, y)
}

func (r *recorder) Push() {
	r.stack = append(r.stack, r.m)
	r.Canvas.Push()
}

func (r *recorder) Pop() {
	if n := len(r.stack); n > 0 {
		r.m, r.stack = r.stack[n-1], r.stack[:n-1]
	}
	r.Canvas.Pop()
}

func (r *recorder) SetColor(c color.Color) {
	r.ink = c
	r.Canvas.SetColor(c)
}

func (r *recorder) Stroke(p vg.Path) { r.path(p); r.Canvas.Stroke(p) }
func (r *recorder) Fill(p vg.Path)   { r.path(p); r.Canvas.Fill(p) }

// FillString records the text's box: its width by the em square, one font
// size high from the descent line, as gonum spaces the lines of a text
// (the font's ascent also covers accents above capitals, and would make
// the lines of every label overlap).
func (r *recorder) FillString(f font.Face, pt vg.Point, s string) {
	lo := pt.Y - f.Extents().Descent
	hi := lo + f.Font.Size
	w := f.Width(s)
	corners := []vg.Point{{X: pt.X, Y: lo}, {X: pt.X + w, Y: lo}, {X: pt.X, Y: hi}, {X: pt.X + w, Y: hi}}
	for i := range corners {
		corners[i] = r.m.apply(corners[i])
	}
	r.texts = append(r.texts, textMark{s: s, owner: r.owner, panel: r.panel, r: boundsOf(corners)})
	r.Canvas.FillString(f, pt, s)
}

func (r *recorder) DrawImage(rect vg.Rectangle, img image.Image) { r.Canvas.DrawImage(rect, img) }

// path records p as a data mark when a tagged plotter draws it, or as an
// axis line when drawn in axisInk.
func (r *recorder) path(p vg.Path) {
	var pts []vg.Point
	for _, c := range p {
		switch c.Type {
		case vg.MoveComp, vg.LineComp:
			pts = append(pts, c.Pos)
		case vg.ArcComp: // its bounding box is enough for a marker
			pts = append(pts, vg.Point{X: c.Pos.X - c.Radius, Y: c.Pos.Y - c.Radius}, vg.Point{X: c.Pos.X + c.Radius, Y: c.Pos.Y + c.Radius})
		case vg.CurveComp:
			pts = append(pts, c.Control...)
			pts = append(pts, c.Pos)
		}
	}
	if len(pts) == 0 {
		return
	}
	for i := range pts {
		pts[i] = r.m.apply(pts[i])
	}
	switch {
	case r.owner == legendOwner:
	case r.owner != "":
		r.marks = append(r.marks, dataMark{owner: r.owner, panel: r.panel, r: boundsOf(pts), pts: pts})
	case sameInk(r.ink, axisInk) && len(pts) == 2:
		a, b := pts[0], pts[1]
		switch {
		case a.Y == b.Y:
			r.axes = append(r.axes, axisLine{panel: r.panel, horizontal: true, at: a.Y, from: min(a.X, b.X), to: max(a.X, b.X)})
		case a.X == b.X:
			r.axes = append(r.axes, axisLine{panel: r.panel, at: a.X, from: min(a.Y, b.Y), to: max(a.Y, b.Y)})
		}
	}
}

// boundsOf is the bounding box of pts (at least one).
func boundsOf(pts []vg.Point) vg.Rectangle {
	b := vg.Rectangle{Min: pts[0], Max: pts[0]}
	for _, p := range pts[1:] {
		b.Min.X, b.Min.Y = min(b.Min.X, p.X), min(b.Min.Y, p.Y)
		b.Max.X, b.Max.Y = max(b.Max.X, p.X), max(b.Max.Y, p.Y)
	}
	return b
}

func sameInk(a, b color.Color) bool {
	if a == nil || b == nil {
		return false
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// tagged is a plotter whose drawing the recorder attributes to owner; it
// passes on the data range and glyph boxes that gonum lays out with.
type tagged struct {
	plot.Plotter
	owner string
}

func (t tagged) Plot(c draw.Canvas, p *plot.Plot) {
	defer tagCanvas(c.Canvas, t.owner)()
	t.Plotter.Plot(c, p)
}

func (t tagged) DataRange() (xmin, xmax, ymin, ymax float64) {
	if r, ok := t.Plotter.(plot.DataRanger); ok {
		return r.DataRange()
	}
	return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
}

func (t tagged) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	if g, ok := t.Plotter.(plot.GlyphBoxer); ok {
		return g.GlyphBoxes(p)
	}
	return nil
}

// margin keeps the data away from the frame, so that a line at the
// lowest value (an oracle's) does not read as the x axis: gonum pads the
// data area to fit every glyph box. Its size is set per drawing, a share
// of the data area (see panel.draw).
type margin struct{ size vg.Length }

func (*margin) Plot(draw.Canvas, *plot.Plot) {}

func (m *margin) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	r := vg.Rectangle{Min: vg.Point{X: -m.size, Y: -m.size}, Max: vg.Point{X: m.size, Y: m.size}}
	return []plot.GlyphBox{{X: 0, Y: 0, Rectangle: r}, {X: 1, Y: 1, Rectangle: r}}
}

// marginShare is the margin's share of the panel's height, at least
// minMargin.
var (
	marginShare = 0.03
	minMargin   = vg.Points(4)
)
