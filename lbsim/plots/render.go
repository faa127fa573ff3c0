package plots

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"

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
// FigureWidthCm x FigureHeightCm), its legend outside the data area: to the
// right, or below when the names are long.
func PNG(fig Figure) ([]byte, error) {
	d, err := figureDrawing(fig)
	if err != nil {
		return nil, err
	}
	return d.png()
}

// GridPNG renders figs as panels in a grid of cols columns (rows as needed,
// filled left to right). Every panel has the size of the largest: the
// figures' WidthCm and HeightCm (default PanelWidthCm x PanelHeightCm).
// Panels with the same legend entries share one legend below the grid;
// otherwise each panel has its legend below it.
func GridPNG(figs []Figure, cols int) ([]byte, error) {
	d, err := gridDrawing(figs, cols)
	if err != nil {
		return nil, err
	}
	return d.png()
}

// drawing is a checked figure or grid, ready to draw over a canvas of
// w x h cm.
type drawing struct {
	title string
	w, h  float64
	draw  func(draw.Canvas)
}

func figureDrawing(fig Figure) (drawing, error) {
	w, h := fig.size(FigureWidthCm, FigureHeightCm)
	if err := checkSize(w, h); err != nil {
		return drawing{}, err
	}
	pn, err := fig.build()
	if err != nil {
		return drawing{}, err
	}
	return drawing{fig.Title, w, h, func(c draw.Canvas) { drawAlone(c, pn) }}, nil
}

func gridDrawing(figs []Figure, cols int) (drawing, error) {
	if len(figs) == 0 {
		return drawing{}, errNoFigures
	}
	if cols < 1 {
		return drawing{}, fmt.Errorf("plots: GridPNG cols = %d; want at least 1 (e.g. %d for one row)", cols, len(figs))
	}
	var panelWidthCm, panelHeightCm float64
	panels := make([]panel, len(figs))
	for i := range figs {
		w, h := figs[i].size(PanelWidthCm, PanelHeightCm)
		if err := checkSize(w, h); err != nil {
			return drawing{}, fmt.Errorf("plots: GridPNG panel %d: %w", i, err)
		}
		panelWidthCm, panelHeightCm = max(panelWidthCm, w), max(panelHeightCm, h)
		pn, err := figs[i].build()
		if err != nil {
			return drawing{}, fmt.Errorf("plots: GridPNG panel %d: %w", i, err)
		}
		panels[i] = pn
	}
	cols = min(cols, len(figs))
	rows := (len(figs) + cols - 1) / cols
	return drawing{gridTitle(figs), panelWidthCm * float64(cols), panelHeightCm * float64(rows),
		func(c draw.Canvas) { drawGrid(c, panels, cols) }}, nil
}

// gridTitle names a grid in lint reports: its panels' titles.
func gridTitle(figs []Figure) string {
	titles := make([]string, len(figs))
	for i, f := range figs {
		titles[i] = f.Title
	}
	return strings.Join(titles, " | ")
}

// paint draws d over a new image; with record, through a recorder too.
func (d drawing) paint(record bool) (*vgimg.Canvas, *recorder) {
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(d.w)*vg.Centimeter, vg.Length(d.h)*vg.Centimeter), vgimg.UseDPI(DPI))
	dc := draw.New(c)
	var rec *recorder
	if record {
		rec = newRecorder(c, dc.Rectangle)
		dc.Canvas = rec
	}
	d.draw(dc)
	return c, rec
}

// png encodes d; when LBSIM_FIGURE_LINT names a file, d's lint result is
// appended to it (see Lint).
func (d drawing) png() ([]byte, error) {
	file := os.Getenv(LintEnv)
	c, rec := d.paint(file != "")
	if rec != nil {
		if err := appendLint(file, d.title, rec.defects()); err != nil {
			return nil, err
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
