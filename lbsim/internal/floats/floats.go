// Package floats prints float64 values for CSV files that are read back.
package floats

import "strconv"

// Text is f in the shortest form that reads back to the same float64, with
// a decimal point or an exponent ("0.0", not "0"), so that a reader that
// guesses column types (frame.ReadCSV) reads a float column as float
// whatever its values. NaN and ±Inf print as NaN, +Inf and -Inf.
func Text(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		s += ".0"
	}
	return s
}
