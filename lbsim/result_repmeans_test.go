package lbsim_test

import (
	"bytes"
	"encoding/gob"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// The result keeps each replication's value of every metric (means and
// quantiles), and the row carries them (out of the CSV, through gob).
func TestRepMeans(t *testing.T) {
	a := lbsim.Config{Servers: 4, Load: 0.8, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 20_000, Reps: 4, Seed: 21}
	r := run(t, a)
	for _, name := range lbsim.Metrics() {
		if len(r.Units[name]) != 4 {
			t.Fatalf("Units[%s] %v: want 4 replication values", name, r.Units[name])
		}
	}
	var mean float64
	for _, w := range r.Units["mean_wait"] {
		mean += w / 4
	}
	if math.Abs(mean-r.Wait.Mean) > 1e-12*r.Wait.Mean {
		t.Errorf("mean of the units %v is %v, Wait.Mean %v: equal replications should agree", r.Units["mean_wait"], mean, r.Wait.Mean)
	}
	one := a
	one.Reps = 1
	r1 := run(t, one)
	for _, name := range lbsim.Metrics() {
		if len(r1.Units[name]) != 20 {
			t.Errorf("one replication: %d units of %s, want the 20 batches (%s)", len(r1.Units[name]), name, r1.CIMethod)
		}
	}
	row := lbsim.NewRow(r)
	if !slices.Equal(row.Units["p99_response"], r.Units["p99_response"]) || !slices.Equal(row.Units["mean_wait"], r.Units["mean_wait"]) {
		t.Errorf("row units %v, want %v", row.Units, r.Units)
	}
	for _, h := range lbsim.RowHeader() {
		if strings.Contains(h, "rep_") {
			t.Errorf("CSV header has %q: the replication means are not a column", h)
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode([]lbsim.Row{row}); err != nil {
		t.Fatal(err)
	}
	var back []lbsim.Row
	if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back[0].Units["p99_wait"], r.Units["p99_wait"]) {
		t.Errorf("gob round trip: units %v, want %v", back[0].Units["p99_wait"], r.Units["p99_wait"])
	}
}
