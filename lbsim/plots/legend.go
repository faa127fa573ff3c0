package plots

import (
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legend names a figure's series and curves beside a thumbnail of their
// style. PNG and GridPNG draw it outside the data area (layout.go), so it
// never covers data or axes; gonum's own legend is drawn inside.
type legend struct {
	entries []legendEntry
}

type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

func (l *legend) add(name string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{name: name, thumbs: thumbs})
}

// names are the entry names, in order: panels with equal names share one
// legend.
func (l legend) names() string {
	var b strings.Builder
	for _, e := range l.entries {
		b.WriteString(e.name + "\x00")
	}
	return b.String()
}

var legendStyle = text.Style{
	Color:   color.Black,
	Font:    font.From(plot.DefaultFont, 10),
	Handler: plot.DefaultTextHandler,
	XAlign:  draw.XLeft,
	YAlign:  draw.YTop,
}

// Legend spacing: the thumbnail's width, the gap before the text, between
// columns and between rows.
var (
	thumbWidth = vg.Points(22)
	thumbGap   = vg.Points(4)
	columnGap  = vg.Points(12)
	rowGap     = vg.Points(2)
)

// width is the width of l's widest entry on one line (0 for no entries).
func (l legend) width() vg.Length {
	var w vg.Length
	for _, e := range l.entries {
		w = max(w, thumbWidth+thumbGap+legendStyle.Width(e.name))
	}
	return w
}

// legendBox is a legend laid out in columns: each entry's name as lines no
// wider than the column.
type legendBox struct {
	entries []legendEntry
	lines   [][]string
	columns []vg.Length // width of each column: thumbnail, gap and text
	rows    []vg.Length // height of each row of entries
}

// layout lays l out within width, filling rows left to right in at most
// maxCols columns (as many as fit, each as wide as its widest entry):
// names longer than the width are wrapped at spaces, and a word longer
// than a line is shortened with an ellipsis, never cut at an edge.
func (l legend) layout(width vg.Length, maxCols int) legendBox {
	b := legendBox{entries: l.entries}
	if len(l.entries) == 0 {
		return b
	}
	b.columns = []vg.Length{min(l.width(), width)}
	for cols := 2; cols <= min(maxCols, len(l.entries)); cols++ {
		if w := columnWidths(l.entries, cols); sum(w)+vg.Length(cols-1)*columnGap <= width {
			b.columns = w
		}
	}
	cols := len(b.columns)
	lineHeight := legendStyle.FontExtents().Height
	b.lines = make([][]string, len(l.entries))
	for i, e := range l.entries {
		b.lines[i] = wrap(e.name, b.columns[i%cols]-thumbWidth-thumbGap, legendStyle)
		row := i / cols
		if row == len(b.rows) {
			b.rows = append(b.rows, 0)
		}
		b.rows[row] = max(b.rows[row], vg.Length(len(b.lines[i]))*lineHeight)
	}
	return b
}

// columnWidths are the widths of cols columns of entries filled row by row.
func columnWidths(entries []legendEntry, cols int) []vg.Length {
	w := make([]vg.Length, cols)
	for i, e := range entries {
		w[i%cols] = max(w[i%cols], thumbWidth+thumbGap+legendStyle.Width(e.name))
	}
	return w
}

func sum(xs []vg.Length) vg.Length {
	var s vg.Length
	for _, x := range xs {
		s += x
	}
	return s
}

// size is the box's width and height.
func (b legendBox) size() vg.Point {
	if len(b.entries) == 0 {
		return vg.Point{}
	}
	s := vg.Point{X: sum(b.columns) + vg.Length(len(b.columns)-1)*columnGap}
	for _, h := range b.rows {
		s.Y += h
	}
	s.Y += vg.Length(len(b.rows)-1) * rowGap
	return s
}

// draw draws the box with its top left corner at c's top left.
func (b legendBox) draw(c draw.Canvas) {
	defer tagCanvas(c.Canvas, legendOwner)()
	lineHeight := legendStyle.FontExtents().Height
	top := c.Max.Y
	x := c.Min.X
	cols := len(b.columns)
	for i, e := range b.entries {
		col := i % cols
		if col == 0 {
			x = c.Min.X
			if i > 0 {
				top -= b.rows[i/cols-1] + rowGap
			}
		}
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: top - lineHeight}, Max: vg.Point{X: x + thumbWidth, Y: top}}}
		for _, t := range e.thumbs {
			t.Thumbnail(&icon)
		}
		for k, line := range b.lines[i] {
			c.FillText(legendStyle, vg.Point{X: x + thumbWidth + thumbGap, Y: top - vg.Length(k)*lineHeight}, line)
		}
		x += b.columns[col] + columnGap
	}
}

// wrap breaks s at spaces into lines no wider than width in style sty; a
// word wider than width alone is shortened to fit, ending in "…".
func wrap(s string, width vg.Length, sty text.Style) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && sty.Width(line+" "+w) <= width {
			line += " " + w
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = shorten(w, width, sty)
	}
	return append(lines, line)
}

// shorten is s, or its longest prefix that fits width followed by "…".
func shorten(s string, width vg.Length, sty text.Style) string {
	if sty.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && sty.Width(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
