package plots

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"
)

func TestStudentT95AgainstTables(t *testing.T) {
	// Quantiles t_{0.975, n-1} from a printed Student-t table.
	cases := []struct {
		samples []float64
		tq      float64
	}{
		{[]float64{1, 2, 3, 4, 5}, 2.776},                 // nu = 4
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2.262}, // nu = 9
		{[]float64{3.1, 2.7}, 12.706},                     // nu = 1
		{[]float64{10, 12, 9, 11, 13, 8, 10, 12, 11, 9, 10, 12, 11, 10, 9, 13, 12, 11, 10, 9, 11, 12, 10, 9, 11, 10, 12, 11, 10, 9}, 2.045}, // nu = 29
	}
	for _, c := range cases {
		n := float64(len(c.samples))
		var sum, sq float64
		for _, x := range c.samples {
			sum += x
		}
		m := sum / n
		for _, x := range c.samples {
			sq += (x - m) * (x - m)
		}
		se := math.Sqrt(sq/(n-1)) / math.Sqrt(n)
		mean, half := StudentT95(c.samples)
		if math.Abs(mean-m) > 1e-12 {
			t.Errorf("n=%v: mean %v, want %v", n, mean, m)
		}
		if got := half / se; math.Abs(got-c.tq) > 5e-4 {
			t.Errorf("n=%v: half/se = %.5f, want t table %.3f", n, got, c.tq)
		}
	}
	if m, h := StudentT95([]float64{4}); m != 4 || !math.IsNaN(h) {
		t.Errorf("one sample: (%v, %v), want (4, NaN)", m, h)
	}
	if m, h := StudentT95(nil); !math.IsNaN(m) || !math.IsNaN(h) {
		t.Errorf("no samples: (%v, %v), want (NaN, NaN)", m, h)
	}
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

// countColour counts pixels equal to c (opaque RGB match).
func countColour(img image.Image, c color.Color) int {
	r0, g0, b0, _ := c.RGBA()
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 == r0>>8 && g>>8 == g0>>8 && b>>8 == b0>>8 {
				n++
			}
		}
	}
	return n
}

func cmPixels(cm float64) int { return int(math.Ceil(cm / 2.54 * DPI)) }

func wantPixels(t *testing.T, img image.Image, wCm, hCm float64) {
	t.Helper()
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if math.Abs(float64(w-cmPixels(wCm))) > 1 || math.Abs(float64(h-cmPixels(hCm))) > 1 {
		t.Errorf("image is %d x %d pixels, want about %d x %d", w, h, cmPixels(wCm), cmPixels(hCm))
	}
}

func waitFigure() Figure {
	rho := []float64{0.1, 0.3, 0.5, 0.7, 0.9}
	return Figure{
		Title: "Mean waiting time", XLabel: "rho", YLabel: "W",
		Series: []Series{
			{Name: "RND", X: rho, Y: []float64{0.11, 0.43, 1.0, 2.3, 9.0}, CI: []float64{0.01, 0.05, 0.1, 0.3, 2}},
			{Name: "LL-2", X: rho, Y: []float64{0.01, 0.05, 0.2, 0.6, 2.5}, CI: []float64{0.002, 0.01, 0.03, 0.1, 0.4}},
		},
		Curves: []Curve{{Name: "RND exact", Of: "RND", X: rho, Y: []float64{0.111, 0.429, 1, 2.33, 9}}},
	}
}

func TestPNGRendersSeries(t *testing.T) {
	b, err := PNG(sized(waitFigure(), 16, 10))
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, b)
	wantPixels(t, img, 16, 10)
	for i, name := range []string{"RND", "LL-2"} {
		if n := countColour(img, palette[i]); n < 200 {
			t.Errorf("series %s: %d pixels of its colour, want a drawn line (>= 200)", name, n)
		}
	}
	if n := countColour(img, palette[2]); n != 0 {
		t.Errorf("curve Of RND drew %d pixels in a third colour; want RND's colour", n)
	}
}

func TestCurveOwnColourWithoutOf(t *testing.T) {
	fig := waitFigure()
	fig.Curves[0].Of = ""
	img := decodeOf(t)(PNG(sized(fig, 16, 10)))
	if n := countColour(img, palette[2]); n < 100 {
		t.Errorf("curve without Of: %d pixels of the next palette colour, want >= 100", n)
	}
}

func TestErrorBarsFromCI(t *testing.T) {
	fig := Figure{Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}, CI: []float64{0.5, 3}}}}
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	// The y range spans the intervals [1-0.5, 1+0.5] and [2-3, 2+3].
	if p.Y.Min != -1 || p.Y.Max != 5 {
		t.Errorf("y range [%v, %v], want [-1, 5] from the CI half-widths", p.Y.Min, p.Y.Max)
	}
	without := fig
	without.Series = []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}}}
	with := countColour(decodeOf(t)(PNG(sized(fig, 12, 8))), palette[0])
	plain := countColour(decodeOf(t)(PNG(sized(without, 12, 8))), palette[0])
	if with <= plain {
		t.Errorf("error bars added no pixels: %d with CI, %d without", with, plain)
	}
}

func TestLogAxesGuardNonPositive(t *testing.T) {
	fig := Figure{LogY: true, LogX: true, Series: []Series{{
		Name: "with zeros",
		X:    []float64{0, 1, 2, 4},
		Y:    []float64{5, 0, 2, 40},
		CI:   []float64{1, 1, 3, 10},
	}}, Curves: []Curve{{Name: "theory", X: []float64{1, 2, 4, 8}, Y: []float64{1, 2, math.Inf(1), math.NaN()}}}}
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	// x=0 and y=0 are dropped, and the curve is drawn over the series' x
	// range only; the bar at y=2 (CI 3) is cut at a tenth of the smallest
	// positive value (the curve's 1): 0.1.
	// (x range [2, 4], widened to the labelled 5: roundLogRange.)
	if p.X.Min != 2 || p.X.Max != 5 {
		t.Errorf("x range [%v, %v], want [2, 5] (x = 0 dropped, curve clipped to the series)", p.X.Min, p.X.Max)
	}
	if math.Abs(p.Y.Min-0.1) > 1e-12 || p.Y.Max != 50 {
		t.Errorf("y range [%v, %v], want [0.1, 50]", p.Y.Min, p.Y.Max)
	}
	img := decodeOf(t)(PNG(sized(fig, 12, 8)))
	if n := countColour(img, palette[0]); n < 100 {
		t.Errorf("log figure with zeros drew %d series pixels, want a visible series", n)
	}
	// A single positive point, and a series with nothing drawable, still render.
	for _, ys := range [][]float64{{0.5}, {0}} {
		f := Figure{LogY: true, Series: []Series{{Name: "one", X: []float64{1}, Y: ys}}}
		if _, err := PNG(sized(f, 8, 6)); err != nil {
			t.Errorf("Y = %v on a log axis: %v", ys, err)
		}
	}
}

func TestGridPNG(t *testing.T) {
	a, b, c := waitFigure(), waitFigure(), waitFigure()
	b.LogY = true
	c.Title = "third"
	img := decodeOf(t)(GridPNG(sizedAll([]Figure{a, b, c}, 10, 7), 2))
	wantPixels(t, img, 20, 14) // 2 columns x 2 rows of 10 x 7 cm
	// Three panels draw three times the series pixels of one (roughly).
	one := countColour(decodeOf(t)(PNG(sized(a, 10, 7))), palette[0])
	three := countColour(img, palette[0])
	if three < 2*one {
		t.Errorf("grid has %d series pixels, one panel %d; want about 3x", three, one)
	}
	row := decodeOf(t)(GridPNG(sizedAll([]Figure{a, b}, 10, 7), 5))
	wantPixels(t, row, 20, 7) // cols larger than the figure count shrinks to it
}

func TestFigureErrors(t *testing.T) {
	x3 := []float64{1, 2, 3}
	cases := []struct {
		name string
		fig  Figure
		want string
	}{
		{"empty", Figure{Title: "t"}, "no series and no curves"},
		{"series lengths", Figure{Series: []Series{{Name: "RR", X: x3, Y: x3[:2]}}}, `series "RR" has 3 X values and 2 Y values`},
		{"CI length", Figure{Series: []Series{{Name: "RR", X: x3, Y: x3, CI: x3[:1]}}}, "1 CI half-widths for 3 points"},
		{"negative CI", Figure{Series: []Series{{Name: "RR", X: x3, Y: x3, CI: []float64{1, -1, 1}}}}, "CI[1] = -1"},
		{"curve lengths", Figure{Curves: []Curve{{Name: "th", X: x3, Y: nil}}}, `curve "th" has 3 X values and 0 Y values`},
		{"unknown Of", Figure{Series: []Series{{Name: "RR", X: x3, Y: x3}}, Curves: []Curve{{Name: "th", Of: "RND", X: x3, Y: x3}}}, `Of = "RND", which names no series`},
		{"log YMin", Figure{LogY: true, YMin: 0, YMax: 10, Series: []Series{{Name: "RR", X: x3, Y: x3}}}, "YMin > 0"},
	}
	for _, c := range cases {
		_, err := PNG(sized(c.fig, 10, 8))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	fig := waitFigure()
	for _, size := range [][2]float64{{-3, 8}, {10, -1}, {1600, 1000}, {math.NaN(), 5}} {
		if _, err := PNG(sized(fig, size[0], size[1])); err == nil || !strings.Contains(err.Error(), "cm") {
			t.Errorf("size %v: error %v, want one about the size in cm", size, err)
		}
	}
	if _, err := GridPNG(sizedAll(nil, 10, 7), 2); err == nil {
		t.Error("GridPNG(nil) gave no error")
	}
	if _, err := GridPNG(sizedAll([]Figure{fig}, 10, 7), 0); err == nil || !strings.Contains(err.Error(), "cols = 0") {
		t.Errorf("GridPNG cols 0: %v", err)
	}
	bad := Figure{Series: []Series{{Name: "x", X: x3}}}
	if _, err := GridPNG(sizedAll([]Figure{fig, bad}, 10, 7), 2); err == nil || !strings.Contains(err.Error(), "panel 1") {
		t.Errorf("GridPNG with a bad panel: %v, want it to name panel 1", err)
	}
}

func TestYRange(t *testing.T) {
	fig := waitFigure()
	fig.YMin, fig.YMax = 0, 5
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min != 0 || p.Y.Max != 5 {
		t.Errorf("y range [%v, %v], want [0, 5]", p.Y.Min, p.Y.Max)
	}
}

// decodeOf returns a function taking a renderer's results, so a test reads
// img := decodeOf(t)(PNG(fig)).
func decodeOf(t *testing.T) func([]byte, error) image.Image {
	return func(b []byte, err error) image.Image {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return decode(t, b)
	}
}

// sized is fig at w x h cm.
func sized(fig Figure, w, h float64) Figure {
	fig.WidthCm, fig.HeightCm = w, h
	return fig
}

// sizedAll is figs, each at w x h cm.
func sizedAll(figs []Figure, w, h float64) []Figure {
	out := make([]Figure, len(figs))
	for i, f := range figs {
		out[i] = sized(f, w, h)
	}
	return out
}
