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
//
// PNG and GridPNG lay a figure out so that nothing overlaps (layout.go,
// panel.go): the legend outside the data area, shared by the panels of a
// grid that have the same entries; titles, axis labels, footnotes and
// legend names wrapped to fit; axes from round ticks (ticks.go) and data
// kept off the frame. Lint, LintGrid and LintPlot check that on the drawn
// figure (lint.go): the drawing goes through a recording canvas
// (record.go) that keeps every text box and data path, which are then
// measured against each other, the legend box and the panel edges. A
// figure of your own that overlaps is thus found, not silently published:
// nb.Figure notes the defects under it, and LBSIM_FIGURE_LINT (LintEnv)
// appends every figure's lint to a file, which the notebook tests read.
package plots
