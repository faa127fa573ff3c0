// Package plots draws the figures of the lbsim notebooks with gonum/plot:
// measured series with 95% confidence-interval error bars, dashed theory or
// limit curves, optional log axes, rendered to PNG for notebooks and
// reports, alone or as side-by-side panels (a Figure's WidthCm and HeightCm
// set its size).
//
// A Figure is plain data (slices of float64), so results from any source
// can be drawn: SeriesFrom and CurveFrom make a series or a curve of a
// slice of any type, and FuncCurve samples a function. rows.go reads
// lbsim's Rows (Line, ByLabel, TheoryCurve, with warned points drawn
// hollow), the package's one use of the simulator; it does not use gota.
package plots
