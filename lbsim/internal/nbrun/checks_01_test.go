package nbrun

import (
	"math"
	"testing"

	"github.com/perfeval/lbsim/lbsim/study/course"
	"github.com/perfeval/lbsim/lbsim/theory"
)

func init() { notebookChecks["01-dispatching.ipynb"] = checkDispatching }

// checkDispatching checks the numbers of the course notebook (issue 3): all 30 rows, LL-2 beats
// RR and RND at every load above 0.1, RND within its CI of the exact P-K value at moderate load,
// the handout's printed numbers beside ours, and the heavy-tail run-length table.
func checkDispatching(t *testing.T, outDir string) {
	waits := readCSVRows(t, outDir, "01-waits")
	if len(waits) != 30 {
		t.Fatalf("01-waits has %d rows, want 3 policies x 10 loads = 30", len(waits))
	}
	wait := map[string]map[float64]csvRow{}
	for _, r := range waits {
		p := r.s(t, "policy")
		if wait[p] == nil {
			wait[p] = map[float64]csvRow{}
		}
		wait[p][r.f(t, "load")] = r
	}
	loads := course.MidpointLoads(10)
	for _, p := range []string{"RND", "RR", "LL-2"} {
		if len(wait[p]) != len(loads) {
			t.Fatalf("policy %s has %d loads, want %d", p, len(wait[p]), len(loads))
		}
	}
	sizes := course.TheHandout().Sizes()
	for _, rho := range loads {
		ll, rr, rnd := wait["LL-2"][rho].f(t, "mean_wait"), wait["RR"][rho].f(t, "mean_wait"), wait["RND"][rho].f(t, "mean_wait")
		if rho > 0.1 && !(ll < rr && ll < rnd) {
			t.Errorf("rho=%v: LL-2 %v does not beat RR %v and RND %v", rho, ll, rr, rnd)
		}
		// The exact column is P-K, computed here independently of the notebook.
		exact := rho * sizes.SecondMoment() / (2 * sizes.Mean() * (1 - rho))
		if got := wait["RND"][rho].f(t, "theory"); math.Abs(got-exact) > 1e-9*exact {
			t.Errorf("rho=%v: exact RND %v, want P-K %v", rho, got, exact)
		}
	}
	// Moderate load: the exact value lies within the run's 95% CI.
	for _, rho := range []float64{0.25, 0.35, 0.45, 0.55} {
		r := wait["RND"][rho]
		w, ci, exact := r.f(t, "mean_wait"), r.f(t, "ci95"), r.f(t, "theory")
		if !(ci > 0) || math.Abs(w-exact) > ci {
			t.Errorf("rho=%v: RND %v ± %v does not cover the exact %v", rho, w, ci, exact)
		}
	}
	// The wide table's CSV keeps mean and half-width as two numbers at full precision: the very
	// floats of the long table (01-waits), not the rounded "mean ± ci" text the page shows.
	wide := readCSVRows(t, outDir, "01-waits-wide")
	if len(wide) != len(loads) {
		t.Fatalf("01-waits-wide has %d rows, want one per load (%d)", len(wide), len(loads))
	}
	for _, r := range wide {
		rho := r.f(t, "load")
		for _, p := range []string{"RND", "RR", "LL-2"} {
			long := wait[p][rho]
			if r.s(t, p) != long.s(t, "mean_wait") || r.s(t, p+" ci95") != long.s(t, "ci95") {
				t.Errorf("01-waits-wide at load %v: %s %q, %s ci95 %q; want 01-waits' %q and %q", rho, p, r.s(t, p), p, r.s(t, p+" ci95"), long.s(t, "mean_wait"), long.s(t, "ci95"))
			}
		}
	}

	beside := readCSVRows(t, outDir, "01-handout")
	if len(beside) != 30 {
		t.Fatalf("01-handout has %d rows, want 30 (every printed number)", len(beside))
	}
	for _, r := range beside {
		// Ours of the handout's measure exceeds our true wait (by E[(X-A)^+] > 0 at least when idle).
		if h, w := r.f(t, "our_handout_measure"), r.f(t, "our_mean_wait"); !(h > w) {
			t.Errorf("%s %v: handout measure %v <= wait %v", r.s(t, "policy"), r.f(t, "load"), h, w)
		}
		if r.s(t, "policy") == "RND" && r.f(t, "load") == 0.95 {
			if got := r.f(t, "handout_printed"); got != 4398.69389561897 {
				t.Errorf("printed RND at 0.95 = %v, want the handout's 4398.69389561897", got)
			}
		}
	}

	// Heavy tail: at rho = 0.95 every run length stays below the exact value, and longer runs
	// get closer (the estimate increases with N).
	rl := readCSVRows(t, outDir, "01-runlength")
	if len(rl) != 3 {
		t.Fatalf("01-runlength has %d rows, want 3 run lengths", len(rl))
	}
	pk, err := theory.MG1{Lambda: 50 * 0.95 / sizes.Mean() / 50, Size: sizes, Mu: 1}.FCFS()
	if err != nil {
		t.Fatal(err)
	}
	prev := 0.0
	for _, r := range rl {
		w := r.f(t, "mean_wait")
		if math.Abs(r.f(t, "exact_pk")-pk.Wait) > 1e-9*pk.Wait || !(w < pk.Wait) || !(w > prev) {
			t.Errorf("run length %v: mean %v (previous %v), exact %v (P-K %v)", r.f(t, "jobs_per_replication"), w, prev, r.f(t, "exact_pk"), pk.Wait)
		}
		prev = w
	}
}
