// Package frame converts simulation results to gota DataFrames and back out
// again: rows of structs in, an HTML table for a notebook or a CSV file out.
//
// It depends on gota only, so it can be used without a notebook kernel or a
// plotting library.
package frame
