// Package plots draws the figures of the lbsim notebooks with gonum/plot:
// measured series with 95% confidence-interval error bars, dashed theory or
// limit curves, optional log axes, rendered to PNG for notebooks and
// reports, alone or as side-by-side panels.
//
// A Figure is plain data (slices of float64), so results from any source
// can be drawn; the package depends on neither the simulator nor gota.
package plots
