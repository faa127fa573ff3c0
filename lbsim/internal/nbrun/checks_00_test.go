package nbrun

import (
	"math"
	"testing"
)

func init() { notebookChecks["00-your-own-analysis.ipynb"] = checkOwnAnalysis }

// checkOwnAnalysis checks the template notebook: RND on its exact M/M/1 value, LL-2 at or above
// its mean-field limit -ln(1-rho^2)/rho^2 - 1 (both computed here), and the notebook's own
// policy, idle-of-2, between that limit and RND's exact wait at every load.
func checkOwnAnalysis(t *testing.T, outDir string) {
	rows := readCSVRows(t, outDir, "00-waits")
	if len(rows) != 12 {
		t.Fatalf("00-waits has %d rows, want 3 policies x 4 loads = 12", len(rows))
	}
	type key struct {
		policy string
		load   float64
	}
	w := map[key]csvRow{}
	for _, r := range rows {
		w[key{r.s(t, "policy"), r.f(t, "load")}] = r
	}
	for _, rho := range []float64{0.3, 0.5, 0.7, 0.9} {
		mm1, limit := rho/(1-rho), -math.Log(1-rho*rho)/(rho*rho)-1
		rnd, ll, idle := w[key{"RND", rho}], w[key{"LL-2", rho}], w[key{"idle-of-2", rho}]
		if got := rnd.f(t, "exact"); math.Abs(got-mm1) > 1e-9*mm1 {
			t.Errorf("rho=%v: RND exact %v, want M/M/1 %v", rho, got, mm1)
		}
		if m, ci := rnd.f(t, "mean_wait"), rnd.f(t, "ci95"); math.Abs(m-mm1) > 2*ci {
			t.Errorf("rho=%v: RND %v ± %v, exact %v", rho, m, ci, mm1)
		}
		if got := ll.f(t, "limit"); math.Abs(got-limit) > 1e-6*limit || !math.IsNaN(ll.f(t, "exact")) {
			t.Errorf("rho=%v: LL-2 limit %v (exact %v), want %v in the limit column only", rho, got, ll.f(t, "exact"), limit)
		}
		if m, ci := ll.f(t, "mean_wait"), ll.f(t, "ci95"); !(m > limit-ci) {
			t.Errorf("rho=%v: LL-2 at K=20 %v ± %v below its K→∞ limit %v", rho, m, ci, limit)
		}
		if m := idle.f(t, "mean_wait"); !(m > limit && m < mm1) || !math.IsNaN(idle.f(t, "exact")) {
			t.Errorf("rho=%v: idle-of-2 %v (exact %v), want between the LL-2 limit %v and RND's %v, with no exact value", rho, m, idle.f(t, "exact"), limit, mm1)
		}
	}
}
