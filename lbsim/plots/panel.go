package plots

import (
	"math"
	"sort"
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

// yLabelGap separates the y label from the tick labels.
var yLabelGap = vg.Points(4)

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
	rules := make([]string, 0, len(seen))
	for r := range seen {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	return rules
}

// draw draws pn over c. gonum's own y label is not used: it places the
// label's box at the arithmetic mid-range, which on a log axis is near the
// top, and then shrinks the data area to fit it (notebook 01's log panel
// was shorter than its linear one). The label is drawn here instead,
// centred on the data area.
func (pn panel) draw(c draw.Canvas) {
	p := pn.p
	pn.margin.size = max(minMargin, vg.Length(marginShare)*c.Size().Y)
	p.Title.Text = strings.Join(wrap(pn.title, c.Size().X, p.Title.TextStyle), "\n")
	p.Y.Label.Text = ""
	p.X.Label.Text = pn.xlabel
	full := c
	sty := p.Y.Label.TextStyle
	sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/2, draw.XCenter, draw.YTop
	var ylabel string
	if pn.ylabel != "" {
		ylabel = strings.Join(wrap(pn.ylabel, p.DataCanvas(c).Size().Y, sty), "\n")
		c = draw.Crop(c, sty.Height(ylabel)+yLabelGap, 0, 0, 0)
	}
	if note := footnote(pn.rules); note != "" {
		lines := wrap(note, p.DataCanvas(c).Size().X, p.X.Label.TextStyle)
		p.X.Label.Text = strings.TrimPrefix(pn.xlabel+"\n"+strings.Join(lines, "\n"), "\n")
	}
	p.Draw(c)
	if ylabel != "" {
		data := p.DataCanvas(c)
		full.FillText(sty, vg.Point{X: full.Min.X, Y: data.Center().Y}, ylabel)
	}
}
