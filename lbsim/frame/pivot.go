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
// value. The row key keeps its type and the cells are Float, NaN for a missing
// pair (shown as Missing). With ci naming a column of 95% CI half-widths, each
// column key K is followed by the column K+[CISuffix] of its half-widths: the
// CSV keeps both numbers at full precision and [HTML] shows the pair as one
// column K of [MeanCI] texts.
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
		if _, taken := colIndex[colKeys[c]+CISuffix]; ci != "" && (taken || colKeys[c]+CISuffix == rows) {
			return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: the half-widths of column key %q would be named %q, which is taken: rename that key", colKeys[c], colKeys[c]+CISuffix)
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
		out = append(out, pivotColumn(cell, c, vals, name))
		if cis != nil {
			out = append(out, pivotColumn(cell, c, cis, name+CISuffix))
		}
	}
	wide := dataframe.New(out...)
	if wide.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("frame.Pivot: %w", wide.Err)
	}
	return wide, nil
}

// CISuffix ends the name of a column of 95% CI half-widths: "RND ci95" holds the
// half-widths of column "RND", which [HTML] shows as "mean ± ci".
const CISuffix = " ci95"

// pivotColumn is column c of the wide table: from[i] for each row's source row
// i (cell[r][c]), NaN where the pair is missing.
func pivotColumn(cell [][]int, c int, from []float64, name string) series.Series {
	col := make([]float64, len(cell))
	for r := range col {
		col[r] = math.NaN()
		if i := cell[r][c]; i >= 0 {
			col[r] = from[i]
		}
	}
	return series.New(col, series.Float, name)
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
// infinite or not positive (an exact or deterministic value) leaves the
// mean alone at 4 significant digits, and a NaN one (no interval: a single
// unit, or a percentile with too few excursions beyond it) marks it: "805.4 (no CI)".
func MeanCI(mean, ci float64) string {
	switch {
	case math.IsNaN(mean):
		return Missing
	case math.IsInf(mean, 0):
		return fmt.Sprint(mean)
	case math.IsNaN(ci):
		return fmt.Sprintf("%.4g", mean) + noCI
	case math.IsInf(ci, 0) || ci <= 0:
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

// noCI marks a mean without an interval (MeanCI).
const noCI = " (no CI)"

// roundTo rounds x to the given number of decimal places (negative: to tens,
// hundreds, ...).
func roundTo(x float64, places int) float64 {
	scale := math.Pow(10, float64(places))
	return math.Round(x*scale) / scale
}
