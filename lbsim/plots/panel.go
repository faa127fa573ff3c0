package plots

import (
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// panel is a figure ready to draw: its plot, and what panel.draw lays
// out at the size it gets: the title, the y label and the footnote
// naming the warning rules of hollow markers, each wrapped to fit.
type panel struct {
	p                     *plot.Plot
	leg                   legend
	title, xlabel, ylabel string
	rules                 []string // of the warned points, sorted
	margin                *margin
}

// labelGap separates an axis label from the tick labels.
var labelGap = vg.Points(4)

// footnote is the line under the x label that explains hollow markers.
func footnote(rules []string) string {
	if len(rules) == 0 {
		return ""
	}
	return "hollow markers: warned (" + strings.Join(rules, ", ") + ")"
}

// unionRules are the distinct rules of panels, sorted.
func unionRules(panels []panel) []string {
	seen := map[string]bool{}
	for _, pn := range panels {
		for _, r := range pn.rules {
			seen[r] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// draw draws pn over c. gonum's own axis labels are not used: it places a
// label's box at the arithmetic mid-range, which on a log axis is near the
// end, and then shrinks the data area to fit it (notebook 01's log panel
// was shorter than its linear one). The labels are drawn here instead,
// centred on the data area, the x label with the footnote under it.
func (pn panel) draw(c draw.Canvas) {
	p := pn.p
	pn.margin.size = max(minMargin, vg.Length(marginShare)*c.Size().Y)
	p.Title.Text = strings.Join(wrap(pn.title, c.Size().X, p.Title.TextStyle), "\n")
	p.X.Label.Text, p.Y.Label.Text = "", ""
	full := c
	ysty := p.Y.Label.TextStyle
	ysty.Rotation, ysty.XAlign, ysty.YAlign = math.Pi/2, draw.XCenter, draw.YTop
	xsty := p.X.Label.TextStyle
	xsty.XAlign, xsty.YAlign = draw.XCenter, draw.YBottom
	var xlabel, ylabel string
	if pn.ylabel != "" {
		ylabel = strings.Join(wrap(pn.ylabel, p.DataCanvas(c).Size().Y, ysty), "\n")
		c = draw.Crop(c, ysty.Height(ylabel)+labelGap, 0, 0, 0)
	}
	var lines []string
	for _, s := range []string{pn.xlabel, footnote(pn.rules)} {
		if s != "" {
			lines = append(lines, wrap(s, p.DataCanvas(c).Size().X, xsty)...)
		}
	}
	if xlabel = strings.Join(lines, "\n"); xlabel != "" {
		c = draw.Crop(c, 0, 0, xsty.Height(xlabel)+labelGap, 0)
	}
	p.Draw(c)
	data := p.DataCanvas(c)
	if ylabel != "" {
		full.FillText(ysty, vg.Point{X: full.Min.X, Y: data.Center().Y}, ylabel)
	}
	if xlabel != "" {
		// Half the gap below too: gonum aligns the bottom of the font's
		// descent, and the lint's em box reaches 1.3 pt lower.
		full.FillText(xsty, vg.Point{X: data.Center().X, Y: full.Min.Y + labelGap/2}, xlabel)
	}
}
