// Package frame converts simulation results to gota DataFrames and back out
// again: rows of structs in, an HTML table for a notebook or a CSV file out.
//
// It depends on gota only, so it can be used without a notebook kernel or a
// plotting library.
//
// # Tables
//
// [FromStructs] makes a DataFrame of a slice of structs ([]lbsim.Row, or a
// table of the notebook's own type), keeping every float at full precision;
// nb.Table shows one through [HTML]. Tables show a dash ([Missing]) where
// there is no value (for example no exact value for RR), numbers to 4
// significant digits ([Precision]), and a mean with its interval as
// "mean ± ci" with the half-width to two significant digits and the mean to
// the same decimal place ([MeanCI]). Tables keep their columns: numbers and
// labels never wrap (a long text cell wraps at spaces, a header after _), a
// wide table scrolls sideways on screen and prints in smaller type, and
// warnings show as markers (¹ ², one per rule) with each message listed once
// under the table, naming its rows ([Footnotes]).
//
// [Pivot] turns a long table (one row per load and policy) into a wide one,
// loads down and policies across, as notebook 01 shows the handout's table:
//
//	frame.Pivot(nb.M1(frame.FromStructs(waits)), "load", "policy", "mean_wait", "ci95")
//
// gives cells "mean ± ci" (pass "" as the last argument for plain numbers);
// the frame, and its CSV, hold each policy's mean and half-width as two
// numbers at full precision (columns RND and "RND ci95", [CISuffix]), which
// HTML shows as one.
//
// # CSV files
//
// [WriteCSV] writes floats in the shortest form that reads back to the same
// float64, always with a decimal point or exponent, as lbsim sweep and
// lbsim.WriteRows do; [ReadCSV] reads such a file (a sweep's CSV, or a merged
// sharded sweep) with the column types [FromStructs] gives the rows: NaN cells
// are missing values, a column of NaN only is Float, and an integer too large
// for an Int is read as String, so no digit is lost.
//
//	df := nb.M1(frame.ReadCSV("stale.csv"))
//	nb.Table(df.Select([]string{"policy", "refresh", "load", "mean_wait", "mean_wait_ci95"}), "stale boards")
package frame
