package lbsim_test

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// The course handout's printed table (data/handout_2023.csv: one R run of
// 2e6 jobs per load and policy, K=50, seed 17 of R's generator) is
// reproduced with the handout's own quantity, max(V + X - A_next, 0), within
// the noise of both runs: our mean over R replications has standard error
// se (from its CI); the handout's single run has about sqrt(R) se; the
// difference must stay within 3 standard deviations, sqrt(1+R) * 3 se.
//
// rho = 0.95 is left out: there the heavy tail (SCV 160; a long job's
// backlog takes ~20,000 arrivals to clear) makes any 2e6-job run unreliable;
// the handout's 4399 for RND is 42% below the exact 7600 (notebook 01).
func TestHandoutTable(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 240 million jobs")
	}
	f, err := os.Open("../data/handout_2023.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	const reps = 4
	policies := []lbsim.Policy{lbsim.Random{}, lbsim.RoundRobin{}, lbsim.LeastLoaded{D: 2}}
	var loads []float64
	var printed [][]float64
	for _, rec := range recs[1:] {
		var row []float64
		for _, s := range rec {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("handout table: %v", err)
			}
			row = append(row, x)
		}
		if row[0] > 0.9 {
			continue
		}
		loads = append(loads, row[0])
		printed = append(printed, row[1:])
	}
	if len(loads) != 9 {
		t.Fatalf("handout table has %d loads below 0.9, want 9", len(loads))
	}
	rows, err := lbsim.Sweep(lbsim.Grid{
		Base:     lbsim.Config{Servers: 50, Sizes: handout, Jobs: 2_000_000, Reps: reps, Seed: 17},
		Policies: policies,
		Loads:    loads,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tq := 3.182 // t_{0.975, 3}
	for i, r := range rows {
		p, l := i/len(loads), i%len(loads)
		want := printed[l][p]
		se := r.HandoutWaitCI95 / tq
		tol := 3 * se * math.Sqrt(1+reps)
		if d := math.Abs(r.HandoutWait - want); d > tol {
			t.Errorf("%s rho=%.2f: handout quantity %.4g ± %.2g, handout printed %.4g: |diff| %.3g > %.3g", r.Policy, r.Load, r.HandoutWait, r.HandoutWaitCI95, want, d, tol)
		} else {
			t.Logf("%s rho=%.2f: ours %.4g ± %.2g (true wait %.4g), handout %.4g", r.Policy, r.Load, r.HandoutWait, r.HandoutWaitCI95, r.MeanWait, want)
		}
	}
}
