package plots

import (
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A legend goes outside the data area. Beside a figure alone it takes the
// side that leaves the data the larger area: the right (at most rightShare
// of the width, names wrapped), or below in as many columns as fit. A grid
// whose panels have the same entries shares one legend below all panels;
// otherwise each panel has its own below it, and every panel reserves the
// height of the tallest, so the data areas of a row stay aligned.
const rightShare = 0.3

// legendPad separates a legend from the plot beside it and from the edge.
var legendPad = vg.Points(6)

// drawAlone draws one figure over c with its legend beside or below.
func drawAlone(c draw.Canvas, pn panel) {
	rec := recorderOf(c)
	rec.addPanel(0, c.Rectangle)
	size := c.Size()
	right := pn.leg.layout(size.X*rightShare, 1)
	below := pn.leg.layout(size.X-2*legendPad, len(pn.leg.entries))
	r, b := right.size(), below.size()
	top := c.Max.Y - titleHeight(pn.p)
	rightArea := (size.X - r.X - 2*legendPad) * size.Y
	belowArea := size.X * (size.Y - b.Y - 2*legendPad)
	if r.X > 0 && r.Y <= top-c.Min.Y && rightArea > belowArea {
		pn.draw(draw.Crop(c, 0, -(r.X + 2*legendPad), 0, 0))
		rec.drawLegend(0, right, draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Max.X - r.X - legendPad, Y: top - r.Y}, Max: vg.Point{X: c.Max.X - legendPad, Y: top}}})
		return
	}
	drawBelow(c, pn, below, b.Y, 0, rec)
}

// drawBelow draws pn over c with box in a strip of height strip at the
// bottom (the strip's height may exceed the box's, to align panels).
func drawBelow(c draw.Canvas, pn panel, box legendBox, strip vg.Length, index int, rec *recorder) {
	if strip == 0 {
		pn.draw(c)
		return
	}
	pn.draw(draw.Crop(c, 0, 0, strip+2*legendPad, 0))
	size := box.size()
	top := c.Min.Y + strip + legendPad
	rec.drawLegend(index, box, draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Min.X + legendPad, Y: top - size.Y}, Max: vg.Point{X: c.Min.X + legendPad + size.X, Y: top}}})
}

// drawGrid draws panels in a grid of cols columns over c.
func drawGrid(c draw.Canvas, panels []panel, cols int) {
	rec := recorderOf(c)
	rows := (len(panels) + cols - 1) / cols
	shared := len(panels) > 1
	for _, pn := range panels[1:] {
		shared = shared && pn.leg.names() == panels[0].leg.names()
	}
	tilesC := c
	if shared {
		tilesC = drawSharedLegend(c, panels, rec)
		for i := range panels {
			panels[i].rules = nil // in the shared footnote
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	boxes := make([]legendBox, len(panels))
	var strip vg.Length
	for i, pn := range panels {
		if !shared {
			boxes[i] = pn.leg.layout(tiles.At(tilesC, 0, 0).Size().X-2*legendPad, len(pn.leg.entries))
			strip = max(strip, boxes[i].size().Y)
		}
	}
	// Each panel draws into its own tile. (plot.Align would line up the
	// data areas, but with a log axis beside a linear one it shifts titles
	// and squeezes panels.)
	for i, pn := range panels {
		tile := tiles.At(tilesC, i%cols, i/cols)
		rec.addPanel(i, tile.Rectangle)
		drawBelow(tile, pn, boxes[i], strip, i, rec)
	}
}

// drawSharedLegend draws the legend of panels, shared, at the bottom of c
// and under it one footnote for all their hollow markers; it returns the
// canvas above them for the panels.
func drawSharedLegend(c draw.Canvas, panels []panel, rec *recorder) draw.Canvas {
	width := c.Size().X - 2*legendPad
	box := panels[0].leg.layout(width, len(panels[0].leg.entries))
	size := box.size()
	sty := panels[0].p.X.Label.TextStyle
	note := strings.Join(wrap(footnote(unionRules(panels)), width, sty), "\n")
	var noteHeight vg.Length
	if note != "" {
		noteHeight = sty.Height(note) + legendPad
	}
	top := c.Min.Y + legendPad + noteHeight + size.Y
	left := c.Min.X + (c.Size().X-size.X)/2
	rec.drawLegend(-1, box, draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: left, Y: top - size.Y}, Max: vg.Point{X: left + size.X, Y: top}}})
	if note != "" {
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Min.Y + legendPad}, note)
	}
	return draw.Crop(c, 0, 0, top-c.Min.Y+legendPad, 0)
}

// titleHeight is the height the title of p takes at the top.
func titleHeight(p *plot.Plot) vg.Length {
	if p.Title.Text == "" {
		return 0
	}
	return p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
}

// recorderOf is the recorder behind c, or nil.
func recorderOf(c draw.Canvas) *recorder { return unwrap(c.Canvas) }

// addPanel starts panel i over area; what follows is drawn in it.
func (r *recorder) addPanel(i int, area vg.Rectangle) {
	if r == nil {
		return
	}
	r.panel = i
	r.panels = append(r.panels, area)
}

// drawLegend draws box over c, recording it as panel i's legend (-1: shared).
func (r *recorder) drawLegend(i int, box legendBox, c draw.Canvas) {
	if r != nil {
		prev := r.panel
		r.panel = i
		defer func() { r.panel = prev }()
		r.legends = append(r.legends, legendMark{panel: i, r: c.Rectangle})
	}
	box.draw(c)
}
