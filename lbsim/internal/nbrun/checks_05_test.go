package nbrun

import (
	"math"
	"os"
	"testing"
)

func init() { notebookChecks["05-processor-sharing.ipynb"] = checkProcessorSharing }

// checkProcessorSharing checks notebook 05 (issue 5): random is M/G/1-PS (10 at every SCV),
// exponential sizes give the same numbers under PS and FCFS for every count-based policy,
// and PS shrinks the advantage of the board policies over round robin at high SCV.
func checkProcessorSharing(t *testing.T, outDir string) {
	live, _ := checkLiveAndStale(t, outDir, "", []float64{1})
	for _, scv := range staleSCVs {
		// M/G/1-PS, computed here: E[X]/(1 - rho) = 1/(1 - 0.9), whatever the SCV.
		if got := live[key("random", scv)].f(t, "reference_response"); math.Abs(got-1/(1-0.9)) > 1e-9 {
			t.Errorf("random at SCV %v: reference %v, want M/G/1-PS 10", scv, got)
		}
		m := func(p string) float64 { return live[key(p, scv)].f(t, "mean_response") }
		if !(m("least loaded") < m("best of two") && m("best of two") < m("round robin") && m("round robin") < m("random")) {
			t.Errorf("SCV %v live PS: want least loaded < best of two < round robin < random, got %v %v %v %v",
				scv, m("least loaded"), m("best of two"), m("round robin"), m("random"))
		}
	}
	if v, set := os.LookupEnv("LBSIM_QUICK"); set && v != "1" {
		// Full runs: insensitivity holds at every SCV within the CI (quick runs are too short
		// for the giants of SCV 30, which stay about 300 time units under PS).
		for _, scv := range staleSCVs {
			r := live[key("random", scv)]
			if m, ci := r.f(t, "mean_response"), r.f(t, "ci95"); math.Abs(m-10) > 3*ci {
				t.Errorf("PS random at SCV %v: %v ± %v, exact 10", scv, m, ci)
			}
		}
	}

	// The control: with exponential sizes the job-count process does not depend on the
	// discipline, so count-based policies agree under PS and FCFS.
	for _, r := range staleTable(t, outDir, "control", 9) {
		if r["policy"] == "oracle" {
			continue
		}
		if d := r.f(t, "diff_in_ci"); math.Abs(d) > 2 {
			t.Errorf("SCV 1, %s T=%v: PS %v vs FCFS %v, %v combined CIs apart", r["policy"], r.f(t, "refresh"),
				r.f(t, "ps"), r.f(t, "fcfs"), d)
		}
	}

	// PS shrinks the value of queue information at high SCV, live and with a board 10 old.
	contrast := staleTable(t, outDir, "contrast", 6*len(staleSCVs))
	for _, r := range contrast {
		scv, name := r.f(t, "scv"), r["measure"]
		f, fci, p, pci := r.f(t, "fcfs"), r.f(t, "fcfs_ci95"), r.f(t, "ps"), r.f(t, "ps_ci95")
		switch {
		case scv == 1 && math.Abs(f-p) > 2*math.Hypot(fci, pci) && name != "round robin / oracle":
			t.Errorf("SCV 1, %s: FCFS %v ± %v and PS %v ± %v should agree", name, f, fci, p, pci)
		case scv == 30 && (name == "round robin / best of two (live)" || name == "round robin / best of two (T=10)") && !(p < f):
			t.Errorf("SCV 30, %s: PS %v does not shrink FCFS's %v", name, p, f)
		}
	}
	staleTable(t, outDir, "crossings_both", 2*len(boardPols)*len(staleSCVs))
}
