package plots

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette is the Okabe-Ito colour-blind-safe palette (without yellow and
// black, which read badly on white next to the axes).
var palette = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}, // blue
	color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xff}, // vermilion
	color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xff}, // bluish green
	color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xff}, // reddish purple
	color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xff}, // orange
	color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xff}, // sky blue
	color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}, // grey
}

// markers differ in shape so series stay apart in black and white; they
// are filled (or strokes), because hollow markers mean a warned point.
var markers = []draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.BoxGlyph{},
	draw.PyramidGlyph{},
	draw.CrossGlyph{},
	draw.PlusGlyph{},
}

// hollowMarkers are the warned counterparts of markers, index for index:
// the outline of the same shape (a ring around a cross or a plus).
var hollowMarkers = []draw.GlyphDrawer{
	draw.RingGlyph{},
	draw.SquareGlyph{},
	draw.TriangleGlyph{},
	draw.RingGlyph{},
	draw.RingGlyph{},
}

// seriesDashes are the line patterns of measured series: solid first, then
// patterns unlike the plain dash used for curves.
var seriesDashes = [][]vg.Length{
	nil,
	{vg.Points(1), vg.Points(2)},
	{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)},
	{vg.Points(8), vg.Points(2), vg.Points(1), vg.Points(2), vg.Points(1), vg.Points(2)},
}

// curveDashes are the dashed patterns of theory and limit curves.
var curveDashes = [][]vg.Length{
	{vg.Points(5), vg.Points(3)},
	{vg.Points(10), vg.Points(4)},
	{vg.Points(3), vg.Points(3)},
	{vg.Points(10), vg.Points(3), vg.Points(3), vg.Points(3)},
}

// pick returns element i of xs, cycling.
func pick[T any](xs []T, i int) T { return xs[i%len(xs)] }
