package frame

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Pivot reshapes a long table (one row per pair of keys, such as load and
// policy) into a wide one that reads like a handout table: one row per
// distinct value of the column rows, one column per distinct value of the
// column cols (both in order of first appearance), each cell from the column
// value. The row key keeps its type. With ci == "" the cells are Float and a
// missing pair is NaN (shown as Missing); with ci naming a column of 95% CI
// half-widths each cell is the text [MeanCI] of value and ci, and a missing
// pair is Missing.
func Pivot(df dataframe.DataFrame, rows, cols, value, ci string) (dataframe.DataFrame, error) {
	if df.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: the DataFrame has an error: %w", df.Err)
	}
	names := df.Names()
	need := []string{rows, cols, value}
	if ci != "" {
		need = append(need, ci)
	}
	for _, n := range need {
		if !slices.Contains(names, n) {
			return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: no column %q; the frame has %q: pass one of those", n, names)
		}
	}
	if rows == cols {
		return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: rows and cols are both %q: pick two different key columns", rows)
	}
	for _, n := range need[2:] {
		if t := df.Col(n).Type(); t != series.Float && t != series.Int {
			return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: column %q is %s: the value and CI columns must be numbers", n, t)
		}
	}
	rowKeys, colKeys := keyTexts(df.Col(rows)), keyTexts(df.Col(cols))
	rowIndex, firstRows := distinct(rowKeys)
	colIndex, firstCols := distinct(colKeys)
	for _, c := range firstCols {
		if colKeys[c] == rows {
			return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: column key %q is also the name of the row key column: rename one of them", rows)
		}
	}
	// cell[r][c] is the source row of a pair, or -1.
	cell := make([][]int, len(firstRows))
	for r := range cell {
		cell[r] = slices.Repeat([]int{-1}, len(firstCols))
	}
	for i := range rowKeys {
		r, c := rowIndex[rowKeys[i]], colIndex[colKeys[i]]
		if j := cell[r][c]; j >= 0 {
			return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: rows %d and %d both have %s=%s, %s=%s: Pivot needs one row per pair; filter the frame first",
				j, i, rows, rowKeys[i], cols, colKeys[i])
		}
		cell[r][c] = i
	}
	vals := df.Col(value).Float()
	var cis []float64
	if ci != "" {
		cis = df.Col(ci).Float()
	}
	out := []series.Series{df.Col(rows).Subset(firstRows)}
	for c, src := range firstCols {
		name := colKeys[src]
		if cis == nil {
			col := make([]float64, len(firstRows))
			for r := range col {
				col[r] = math.NaN()
				if i := cell[r][c]; i >= 0 {
					col[r] = vals[i]
				}
			}
			out = append(out, series.New(col, series.Float, name))
			continue
		}
		col := make([]string, len(firstRows))
		for r := range col {
			col[r] = Missing
			if i := cell[r][c]; i >= 0 {
				col[r] = MeanCI(vals[i], cis[i])
			}
		}
		out = append(out, series.New(col, series.String, name))
	}
	wide := dataframe.New(out...)
	if wide.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: %w", wide.Err)
	}
	return wide, nil
}

// keyTexts returns a key column's cells as text; floats in their shortest
// form (0.5, not gota's 0.500000), so that they name columns well.
func keyTexts(s series.Series) []string {
	if s.Type() != series.Float {
		return s.Records()
	}
	out := make([]string, s.Len())
	for i, f := range s.Float() {
		out[i] = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return out
}

// distinct numbers the distinct keys in order of first appearance and
// returns, for each, the index of its first row.
func distinct(keys []string) (map[string]int, []int) {
	index := make(map[string]int)
	var first []int
	for i, k := range keys {
		if _, ok := index[k]; !ok {
			index[k] = len(first)
			first = append(first, i)
		}
	}
	return index, first
}

// MeanCI formats a mean and its 95% CI half-width as "mean ± ci" with the
// half-width to two significant digits and the mean to the same decimal place:
// digits beyond the CI's second are noise. 7612.3 ± 345.6 reads "7610 ± 350",
// 0.41237 ± 0.0123 reads "0.412 ± 0.012". A NaN mean is Missing; a CI that is
// NaN, infinite or not positive (an exact or deterministic value) leaves the
// mean alone at 4 significant digits.
func MeanCI(mean, ci float64) string {
	switch {
	case math.IsNaN(mean):
		return Missing
	case math.IsInf(mean, 0):
		return fmt.Sprint(mean)
	case math.IsNaN(ci) || math.IsInf(ci, 0) || ci <= 0:
		return fmt.Sprintf("%.4g", mean)
	}
	// Decimal places that keep two significant digits of ci (negative: round
	// to tens, hundreds, ...). Rounding ci first fixes 9.96 -> 10 correctly.
	places := 1 - int(math.Floor(math.Log10(ci)))
	ci = roundTo(ci, places)
	places = min(1-int(math.Floor(math.Log10(ci))), 15)
	if places >= 0 {
		return fmt.Sprintf("%.*f ± %.*f", places, roundTo(mean, places), places, roundTo(ci, places))
	}
	return fmt.Sprintf("%.0f ± %.0f", roundTo(mean, places), roundTo(ci, places))
}

// roundTo rounds x to the given number of decimal places (negative: to tens,
// hundreds, ...).
func roundTo(x float64, places int) float64 {
	scale := math.Pow(10, float64(places))
	return math.Round(x*scale) / scale
}
