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

// The result keeps each replication's mean wait and response, and the row
// carries them (out of the CSV, through gob).
func TestRepMeans(t *testing.T) {
	a := lbsim.Config{Servers: 4, Load: 0.8, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 20_000, Reps: 4, Seed: 21}
	r := run(t, a)
	if len(r.RepWait) != 4 || len(r.RepResponse) != 4 {
		t.Fatalf("RepWait %v, RepResponse %v: want 4 replication means each", r.RepWait, r.RepResponse)
	}
	var mean float64
	for _, w := range r.RepWait {
		mean += w / 4
	}
	if math.Abs(mean-r.Wait.Mean) > 1e-12*r.Wait.Mean {
		t.Errorf("mean of RepWait %v is %v, Wait.Mean %v: equal replications should agree", r.RepWait, mean, r.Wait.Mean)
	}
	one := a
	one.Reps = 1
	if r1 := run(t, one); len(r1.RepWait) != 20 {
		t.Errorf("one replication: %d unit means, want the 20 batch means (%s)", len(r1.RepWait), r1.CIMethod)
	}
	row := lbsim.NewRow(r)
	if !slices.Equal(row.RepWait, r.RepWait) || !slices.Equal(row.RepResponse, r.RepResponse) {
		t.Errorf("row RepWait %v, want %v", row.RepWait, r.RepWait)
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
	if !slices.Equal(back[0].RepWait, r.RepWait) {
		t.Errorf("gob round trip: RepWait %v, want %v", back[0].RepWait, r.RepWait)
	}
}
