package nb

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
)

// nb.Compare pairs a sweep's two policies at each load, from a fresh run
// and from the cache alike (the replication means survive gob), and shows a
// table and a figure of the differences with the exact one.
func TestNbCompare(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	t.Setenv("LBSIM_NO_CACHE", "")
	r := fakeNotebook(t)
	g := lbsim.Grid{Base: lbsim.Config{Servers: 4, Sizes: lbsim.Exponential{M: 1}, Jobs: 20_000, Reps: 4, Seed: 3},
		Policies: []lbsim.Policy{lbsim.Random{}, lbsim.RoundRobin{}}, Loads: []float64{0.5, 0.8}}
	for pass := range 2 { // the second from the cache
		rows, err := Sweep("RND and RR", g)
		if err != nil {
			t.Fatal(err)
		}
		shown, pngs := len(r.shown), r.pngs
		cs := Compare(rows, "RND", "RR", "RND - RR")
		if len(cs) != 2 || cs[1].Load != 0.8 || cs[1].Pairs != 4 || math.IsNaN(cs[1].DiffCI95) {
			t.Fatalf("pass %d: comparisons %+v: want RND - RR at loads 0.5 and 0.8 over 4 pairs", pass, cs)
		}
		if math.Abs(cs[1].Diff-cs[1].ExactDiff) > 2*cs[1].DiffCI95 {
			t.Errorf("pass %d: RND - RR at 0.8 is %v ± %v, exact %v", pass, cs[1].Diff, cs[1].DiffCI95, cs[1].ExactDiff)
		}
		table := strings.ReplaceAll(strings.Join(r.shown[shown:], ""), "<wbr>", "") // headers may wrap after "_"
		for _, col := range []string{"RND - RR</caption>", ">diff_ci95<", ">unpaired_diff_ci95<", ">ratio<"} {
			if !strings.Contains(table, col) {
				t.Errorf("pass %d: the table lacks %q: %s", pass, col, table)
			}
		}
		if r.pngs != pngs+1 {
			t.Errorf("pass %d: %d figures shown, want 1", pass, r.pngs-pngs)
		}
	}
	fig := differenceFigure([]compare.Comparison{{A: "RND", B: "RR", Metric: "mean_wait", Load: 0.5, Diff: 1, DiffCI95: 0.1, ExactDiff: 1.1}}, "t")
	if fig.YLabel != "mean wait, RND − RR" || len(fig.Series) != 1 || fig.Series[0].CI[0] != 0.1 || len(fig.Curves) != 2 || fig.Curves[0].Y[0] != 1.1 {
		t.Errorf("figure %+v: want the difference with its paired CI, the exact difference and zero", fig)
	}
	if !catchStop(t, func() { Compare(nil, "RND", "RR", "none") }) {
		t.Error("Compare of no rows did not stop with an error box")
	}
}
