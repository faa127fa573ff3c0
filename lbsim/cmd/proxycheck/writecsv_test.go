package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWriteCSVQuotesPolicy reads the table back with encoding/csv: a policy
// with options (jsq:d=2,replace=1) is one field, and every row has the
// header's columns.
func TestWriteCSVQuotesPolicy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	rows := []row{{Setup: setups[2], K: 4, N: 100, Load: 0.5, Version: `HAProxy "2.6"`}, {Setup: setups[0], K: 4, N: 100, Load: 0.5}}
	if err := writeCSV(path, rows, time.Now()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll() // fails on a row of another length
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"jsq:d=2,replace=1", "rr"} {
		if got := recs[i+1][8]; recs[0][8] != "lbsim_policy" || got != want {
			t.Errorf("row %d: %s = %q, want %q", i+1, recs[0][8], got, want)
		}
	}
}
