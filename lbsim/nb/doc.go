// Package nb shows lbsim results in a GoNB Jupyter notebook: DataFrames as
// HTML tables, figures as PNG images, a progress bar for long sweeps, and a
// cache that keeps expensive results across cell executions (GoNB recompiles
// and re-runs the whole program for every cell).
//
// Explorer is an interactive view for a live notebook: sliders and menus
// (GoNB widgets) that re-run lbsim and redraw a figure and a table; without a
// browser it draws them once, statically.
//
// It is the only lbsim package that imports GoNB. Outside a notebook (for
// example under go test or in the command-line tool) displays are no-ops and
// progress goes to a terminal on stderr, or nowhere.
package nb
