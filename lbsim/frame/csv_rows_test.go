package frame_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/frame"
)

// A sweep's rows give a frame of the same column types whether it is made
// from the rows (FromStructs) or from their CSV (ReadCSV): refresh 0 and
// size_mean 1 are floats, a column of NaN only (no exact value) too.
func TestRowCSVTypesMatchFromStructs(t *testing.T) {
	h2, err := lbsim.NewH2Balanced(1, 4)
	if err != nil {
		t.Fatal(err)
	}
	var rows []lbsim.Row
	for _, pol := range []lbsim.Policy{lbsim.JSQ{D: 2}, lbsim.LeastLoaded{D: 2}} {
		r, err := lbsim.Run(lbsim.Config{Servers: 4, Load: 0.5, Sizes: h2, Policy: pol, Jobs: 2000, Reps: 2, Seed: 1, Discipline: lbsim.PS})
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, lbsim.NewRow(r))
	}
	path := filepath.Join(t.TempDir(), "sweep.csv")
	f, _ := os.Create(path)
	if err := lbsim.WriteRows(f, rows); err != nil {
		t.Fatal(err)
	}
	f.Close()
	read, err := frame.ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	made, err := frame.FromStructs(rows)
	if err != nil {
		t.Fatal(err)
	}
	names, rt, mt := made.Names(), read.Types(), made.Types()
	if len(rt) != len(mt) {
		t.Fatalf("%d columns read, %d made", len(rt), len(mt))
	}
	for i, name := range names {
		if rt[i] != mt[i] {
			t.Errorf("column %s: ReadCSV gives %s, FromStructs %s", name, rt[i], mt[i])
		}
	}
}
