package nbrun

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// csvRow is one CSV record by column name.
type csvRow map[string]string

func (r csvRow) s(t *testing.T, col string) string {
	t.Helper()
	v, ok := r[col]
	if !ok {
		t.Fatalf("no column %q in %v", col, r)
	}
	return v
}

// f is a numeric cell ("+Inf" and "NaN" included).
func (r csvRow) f(t *testing.T, col string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(r.s(t, col), 64)
	if err != nil {
		t.Fatalf("column %q: %v", col, err)
	}
	return x
}

// readCSVRows reads name.csv, written by the notebook with nb.Save, from outDir.
func readCSVRows(t *testing.T, outDir, name string) []csvRow {
	t.Helper()
	if _, err := os.Stat(filepath.Join(outDir, name+".csv")); err != nil {
		t.Fatalf("the notebook did not save %s.csv: %v", name, err)
	}
	return csvRowsAt(t, filepath.Join(outDir, name+".csv"))
}

// csvRowsAt reads the CSV file at path, a record a row by column name; a
// row of another length than the header fails the test.
func csvRowsAt(t *testing.T, path string) []csvRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 1 {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	var out []csvRow
	for _, rec := range recs[1:] {
		r := csvRow{}
		for i, col := range recs[0] {
			r[col] = rec[i]
		}
		out = append(out, r)
	}
	return out
}
