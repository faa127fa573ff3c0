package plots

import (
	"bytes"
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// DPI is the resolution of the PNG images: sharp in a report, small enough
// to embed (a 16 x 10 cm figure is 945 x 591 pixels).
const DPI = 150

// maxCm bounds image sides, so a unit mix-up (pixels for cm) fails clearly
// instead of allocating gigabytes.
const maxCm = 200

// Default sizes, in cm: of a figure alone, and of a panel of a grid.
const (
	FigureWidthCm  = 16
	FigureHeightCm = 10
	PanelWidthCm   = 11
	PanelHeightCm  = 8
)

// size is fig's size in cm: its WidthCm and HeightCm, each defaulting to
// (w, h) when zero.
func (f *Figure) size(w, h float64) (float64, float64) {
	if f.WidthCm != 0 {
		w = f.WidthCm
	}
	if f.HeightCm != 0 {
		h = f.HeightCm
	}
	return w, h
}

// PNG renders fig as a PNG image of fig.WidthCm x fig.HeightCm (default
// FigureWidthCm x FigureHeightCm).
func PNG(fig Figure) ([]byte, error) {
	widthCm, heightCm := fig.size(FigureWidthCm, FigureHeightCm)
	if err := checkSize(widthCm, heightCm); err != nil {
		return nil, err
	}
	p, err := fig.Plot()
	if err != nil {
		return nil, err
	}
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(widthCm)*vg.Centimeter, vg.Length(heightCm)*vg.Centimeter), vgimg.UseDPI(DPI))
	p.Draw(draw.New(c))
	return encode(c)
}

// GridPNG renders figs as panels in a grid of cols columns (rows as needed,
// filled left to right), the axes of panels in a row and column aligned.
// Every panel has the size of the largest: the figures' WidthCm and HeightCm
// (default PanelWidthCm x PanelHeightCm).
func GridPNG(figs []Figure, cols int) ([]byte, error) {
	if len(figs) == 0 {
		return nil, errNoFigures
	}
	if cols < 1 {
		return nil, fmt.Errorf("plots: GridPNG cols = %d; want at least 1 (e.g. %d for one row)", cols, len(figs))
	}
	var panelWidthCm, panelHeightCm float64
	for i := range figs {
		w, h := figs[i].size(PanelWidthCm, PanelHeightCm)
		if err := checkSize(w, h); err != nil {
			return nil, fmt.Errorf("plots: GridPNG panel %d: %w", i, err)
		}
		panelWidthCm, panelHeightCm = max(panelWidthCm, w), max(panelHeightCm, h)
	}
	cols = min(cols, len(figs))
	rows := (len(figs) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
	}
	for i := range figs {
		p, err := figs[i].Plot()
		if err != nil {
			return nil, fmt.Errorf("plots: GridPNG panel %d: %w", i, err)
		}
		grid[i/cols][i%cols] = p
	}
	w := vg.Length(panelWidthCm*float64(cols)) * vg.Centimeter
	h := vg.Length(panelHeightCm*float64(rows)) * vg.Centimeter
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	// Each panel draws into its own tile. (plot.Align would line up the
	// data areas, but with a log axis beside a linear one it shifts titles
	// and squeezes panels.)
	dc := draw.New(c)
	for r := range grid {
		for k, p := range grid[r] {
			if p != nil {
				p.Draw(tiles.At(dc, k, r))
			}
		}
	}
	return encode(c)
}

func checkSize(w, h float64) error {
	for _, d := range []struct {
		name string
		v    float64
	}{{"width", w}, {"height", h}} {
		if !(d.v > 0 && d.v <= maxCm) || math.IsNaN(d.v) {
			return fmt.Errorf("plots: image %s = %g cm; want 0 < %s <= %d cm (e.g. 16 x 10)", d.name, d.v, d.name, maxCm)
		}
	}
	return nil
}

func encode(c *vgimg.Canvas) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}
