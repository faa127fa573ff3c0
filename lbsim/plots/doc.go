// Package plots draws the figures of the lbsim notebooks with gonum/plot:
// measured series with 95% confidence-interval error bars, dashed theory or
// limit curves, optional log axes, rendered to PNG for notebooks and
// reports, alone or as side-by-side panels (a Figure's WidthCm and HeightCm
// set its size).
//
// A Figure is plain data (slices of float64), so results from any source
// can be drawn: SeriesFrom and CurveFrom make a series or a curve of a
// slice of any type, and FuncCurve samples a function. rows.go reads
// lbsim's Rows (Line, ByLabel, TheoryCurve, TheoryCurveOf, with warned points drawn
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
//
// # Drawing lbsim rows
//
// [ByLabel](rows, [MeanWait], "RND", "LL-2") gives one series per policy
// against the load (a label no row has is an error naming those there are; a
// series with no points is refused), [TheoryCurve](rows, "RND") the theory
// (exact value, or a limit or bound, named after its formula: "LL-2 limit
// K→∞") over the simulated loads, and [TheoryCurveOf](rows,
// "mean_response", "RND") the exact value of any metric (PS's or SRPT's
// mean response, a percentile) at the rows' loads; put them in a
// Figure{Series: ..., Curves: ..., LogY: true} and show it with nb.Figure.
// Points with a warning are drawn hollow and the rules are named under the x
// axis; curves stop at the data's x range. For a table of your own type,
// [SeriesFrom](name, pts, func(p Point) (x, y, ci float64, ok bool) {...})
// and [CurveFrom] make the series and curves (ok filters the rows), and
// [FuncCurve] samples a function: no series is built by hand.
//
// # Layout rules
//
// The legend is drawn outside the data (right or below; a grid whose panels
// have the same entries shares one, with one footnote); long names and labels
// are wrapped; log axes are labelled at powers of ten (and 2 and 5 under two
// decades) in one format per axis; linear axes run between round ticks (from
// 0 for positive data near it). [Lint] and [LintGrid] measure a drawn figure
// (legend over data, overlapping or clipped texts, markers cut by or lines on
// the frame) and [LintPlot] the texts of a gonum plot of your own. nb.Figure
// and nb.Grid note any defect under the figure, and with
// LBSIM_FIGURE_LINT=file ([LintEnv]) every figure's lint is appended to file;
// the notebook tests fail on any defect.
package plots
