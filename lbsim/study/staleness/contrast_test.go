package staleness

import (
	"math"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

func TestContrastRatios(t *testing.T) {
	row := func(p lbsim.Policy, T, mean float64) lbsim.Row {
		return lbsim.Row{Policy: p.String(), SCV: 30, Refresh: T, MeanResponse: mean, MeanResponseCI95: 0.01 * mean}
	}
	mk := func(rnd, rr, b2, b2T10, b2T100, llT10, or float64) Evidence {
		s := Document()
		s.SCVs = []float64{30}
		return Evidence{Setup: s, Results: NewResults([]lbsim.Row{
			row(lbsim.Random{}, 0, rnd), row(lbsim.RoundRobin{}, 0, rr), row(lbsim.JSQ{D: 2}, 0, b2),
			row(lbsim.JSQ{D: 2}, 10, b2T10), row(lbsim.JSQ{D: 2}, 100, b2T100), row(lbsim.JSQ{}, 10, llT10),
			row(lbsim.LeastLoaded{}, 0, or)})}
	}
	rows, err := Contrast(mk(140, 132, 15, 18.5, 40, 24, 1.2), mk(10, 8, 4, 5, 7, 9, 2))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		measure string
		f, p    float64
	}{
		{"random / round robin", 140.0 / 132, 10.0 / 8},
		{"round robin / best of two (live)", 132.0 / 15, 2},
		{"round robin / best of two (T=10)", 132 / 18.5, 8.0 / 5},
		{"round robin / best of two (T=100)", 132.0 / 40, 8.0 / 7},
		{"round robin / least loaded (T=10)", 132.0 / 24, 8.0 / 9},
		{"round robin / oracle", 132 / 1.2, 4},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		r := rows[i]
		if r.Measure != w.measure || math.Abs(r.FCFS-w.f) > 1e-12 || math.Abs(r.PS-w.p) > 1e-12 {
			t.Errorf("row %d: %s %v %v, want %s %v %v", i, r.Measure, r.FCFS, r.PS, w.measure, w.f, w.p)
		}
		// two 1% half-widths combine to sqrt(2)%
		if math.Abs(r.FCFSCI/r.FCFS-0.01*math.Sqrt2) > 1e-12 {
			t.Errorf("row %d: relative CI %v, want %v", i, r.FCFSCI/r.FCFS, 0.01*math.Sqrt2)
		}
	}
}
