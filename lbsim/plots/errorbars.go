package plots

import (
	"math"

	"gonum.org/v1/plot/plotter"
)

// ciBars holds the error bars of one series: points with their lower and
// upper distances, as plotter.NewYErrorBars expects.
type ciBars struct {
	plotter.XYs
	plotter.YErrors
}

// points returns the drawable points of s and the error bars for those that
// have a finite CI. On a log y axis a bar's lower end y-h is raised to floor
// when it would not be positive, so the bar stays drawable and still shows
// that the interval reaches down past the axis.
func (f *Figure) points(s Series, floor float64) (plotter.XYs, ciBars) {
	var pts plotter.XYs
	var bars ciBars
	for i := range s.X {
		x, y := s.X[i], s.Y[i]
		if !f.drawable(x, y) {
			continue
		}
		pts = append(pts, plotter.XY{X: x, Y: y})
		if s.CI == nil {
			continue
		}
		h := s.CI[i]
		if math.IsNaN(h) || math.IsInf(h, 0) {
			continue
		}
		low := h
		if f.LogY && y-h < floor {
			low = y - floor
			if low < 0 { // y itself below the floor cannot happen; be safe
				low = 0
			}
		}
		bars.XYs = append(bars.XYs, plotter.XY{X: x, Y: y})
		bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{low, h})
	}
	return pts, bars
}

// logFloor is the lowest value an error bar may reach on a log y axis: a
// tenth of the smallest positive y (or lower interval end) in the figure.
func (f *Figure) logFloor() float64 {
	if !f.LogY {
		return math.Inf(-1)
	}
	lo := math.Inf(1)
	consider := func(v float64) {
		if v > 0 && v < lo && !math.IsInf(v, 0) {
			lo = v
		}
	}
	for _, s := range f.Series {
		for i, y := range s.Y {
			consider(y)
			if s.CI != nil && i < len(s.CI) {
				consider(y - s.CI[i])
			}
		}
	}
	for _, c := range f.Curves {
		for _, y := range c.Y {
			consider(y)
		}
	}
	if math.IsInf(lo, 1) {
		return 1
	}
	return lo / 10
}
