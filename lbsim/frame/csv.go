package frame

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/floats"
)

// WriteCSV writes df, with a header row, to the CSV file at path.
//
// It refuses to replace an existing file unless overwrite is true, creates
// the parent directory, and writes atomically (a temporary file in the same
// directory, renamed into place), so a reader never sees half a file; a
// symlink is written through to its target and a device or FIFO into
// (files.Replace), never renamed over.
// Floats are written in the shortest form that reads back to the same
// float64 (gota's own writer rounds to 6 decimals), and always with a
// decimal point or exponent so that ReadCSV reads the column back as Float.
func WriteCSV(df dataframe.DataFrame, path string, overwrite bool) (err error) {
	if df.Err != nil {
		return fmt.Errorf("frame.WriteCSV %s: the DataFrame has an error: %w", path, df.Err)
	}
	if !overwrite {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("frame.WriteCSV: %s already exists; pass overwrite=true to replace it, or choose another path", path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("frame.WriteCSV: %w", err)
		}
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("frame.WriteCSV: %w", files.Describe(err, "creating the folder of", path))
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(records(df)); err != nil {
		return fmt.Errorf("frame.WriteCSV %s: %w", path, err)
	}
	if err := files.Replace(path, b.Bytes(), nil); err != nil {
		return fmt.Errorf("frame.WriteCSV: %w", err)
	}
	return nil
}

// records returns the header and the rows of df as strings.
func records(df dataframe.DataFrame) [][]string {
	rows, cols := df.Dims()
	types := df.Types()
	out := make([][]string, 0, rows+1)
	out = append(out, df.Names())
	for r := 0; r < rows; r++ {
		rec := make([]string, cols)
		for c, t := range types {
			e := df.Elem(r, c)
			if t == series.Float && !e.IsNA() {
				rec[c] = floats.Text(e.Float())
			} else {
				rec[c] = e.String()
			}
		}
		out = append(out, rec)
	}
	return out
}

// ReadCSV reads a CSV file with a header row into a DataFrame, detecting
// column types (Int, Float, Bool, else String); "NaN" and "NA" cells are
// missing values. The types are those FromStructs gives the structs the
// file was written from (lbsim.WriteRows, WriteCSV): a column of missing
// values only is Float (a float field that is NaN in every row), and a column
// holding an integer too large for an Int is String (a uint64 field), so
// that no digit is lost.
func ReadCSV(path string) (dataframe.DataFrame, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("frame.ReadCSV: %w", err)
	}
	opts := []dataframe.LoadOption{dataframe.NaNValues(nanCells)}
	if types := fixedTypes(data); len(types) > 0 {
		opts = append(opts, dataframe.WithTypes(types))
	}
	df := dataframe.ReadCSV(bytes.NewReader(data), opts...)
	if df.Err != nil {
		return df, fmt.Errorf("frame.ReadCSV %s: %w", path, df.Err)
	}
	return df, nil
}

// nanCells are the cells ReadCSV takes for missing values (gota's default).
var nanCells = []string{"NA", "NaN", "<nil>"}

// fixedTypes are the column types ReadCSV sets instead of gota's guess: Float
// for a column of missing values only, String for one with an integer cell
// beyond an Int. A malformed file gets none (gota reports it).
func fixedTypes(data []byte) map[string]series.Type {
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(recs) < 2 {
		return nil
	}
	types := map[string]series.Type{}
	for c, name := range recs[0] {
		missing, big := true, false
		for _, rec := range recs[1:] {
			if c >= len(rec) {
				return nil
			}
			cell := rec[c]
			if !slices.Contains(nanCells, cell) {
				missing = false
			}
			if _, err := strconv.Atoi(cell); errors.Is(err, strconv.ErrRange) {
				big = true
			}
		}
		switch {
		case missing:
			types[name] = series.Float
		case big:
			types[name] = series.String
		}
	}
	return types
}
