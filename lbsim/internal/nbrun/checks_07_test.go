package nbrun

import (
	"fmt"
	"math"
	"testing"
)

func init() { notebookChecks["07-finite-regimes.ipynb"] = checkFiniteRegimes }

func checkFiniteRegimes(t *testing.T, outDir string) {
	pts := readCSVRows(t, outDir, "finite")
	ns := map[float64]bool{}
	loads := map[float64]bool{}
	for _, r := range pts {
		ns[r.f(t, "n")] = true
		loads[r.f(t, "load")] = true
	}
	atLeast3 := 0
	for n := range ns {
		if n >= 3 {
			atLeast3++
		}
	}
	// JSQ-2, LL-2 and JSQ at every N; JSQ-3 and LL-3 where N >= 3.
	if want := len(loads) * (3*len(ns) + 2*atLeast3); len(pts) != want {
		t.Fatalf("finite.csv has %d rows, want %d", len(pts), want)
	}
	key := func(policy string, n, rho float64) string { return fmt.Sprintf("%s/%v/%v", policy, n, rho) }
	byKey := map[string]csvRow{}
	for _, r := range pts {
		byKey[key(r["policy"], r.f(t, "n"), r.f(t, "load"))] = r
	}
	for _, r := range pts {
		R, ci := r.f(t, "mean_response"), r.f(t, "mean_response_ci95")
		lo, hi := r.f(t, "lower_mmn_response"), r.f(t, "upper_random_response")
		name := key(r["policy"], r.f(t, "n"), r.f(t, "load"))
		if R+ci < lo || R-ci > hi {
			t.Errorf("%s: E[R] = %v ± %v outside the bounds [M/M/N %v, M/M/1 %v]", name, R, ci, lo, hi)
		}
		// JSQ over all servers does at least as well as JSQ-d.
		if r["policy"] == "JSQ-2" || r["policy"] == "JSQ-3" {
			all := byKey[key("JSQ", r.f(t, "n"), r.f(t, "load"))]
			if a := all.f(t, "mean_response"); a-all.f(t, "mean_response_ci95") > R+ci {
				t.Errorf("%s: JSQ over all N (%v) is worse than JSQ-d (%v)", name, a, R)
			}
		}
		// At N = 1000 and moderate load the mean-field limit is accurate.
		if r.f(t, "n") == 1000 && r.f(t, "load") <= 0.9 && r["policy"] != "JSQ" {
			if e := math.Abs(r.f(t, "excess_response")); e > 0.02+r.f(t, "excess_response_ci95") {
				t.Errorf("%s: limit off by %.1f%% at N = 1000", name, 100*e)
			}
		}
	}

	exact := readCSVRows(t, outDir, "exact")
	compared := 0
	for _, r := range exact {
		sim, ci, ex := r.f(t, "sim_response"), r.f(t, "sim_response_ci95"), r.f(t, "exact_response")
		if math.IsNaN(sim) {
			continue
		}
		compared++
		if d := math.Abs(sim - ex); d > 2*ci+0.005*ex {
			t.Errorf("JSQ-%s N=%s rho=%s: simulated %v ± %v, exact chain %v", r["d"], r["n"], r["load"], sim, ci, ex)
		}
		// The finite system is slower than its limit.
		if r.f(t, "excess_response") <= 0 {
			t.Errorf("JSQ-%s N=%s rho=%s: exact %v not above the limit %v", r["d"], r["n"], r["load"], ex, r.f(t, "limit_response"))
		}
	}
	if compared < 8 {
		t.Errorf("only %d exact chains compared with simulation, want >= 8", compared)
	}

	// The paper's point: at N = 12 the limit can be off by more than 100%, and the same gap
	// E_N - E_inf is a larger share of the waiting time than of the response time.
	over := false
	for _, r := range readCSVRows(t, outDir, "n12") {
		ew, er := r.f(t, "error_wait_pct"), r.f(t, "error_response_pct")
		if ew > 100 {
			over = true
		}
		if er > 0 && ew < er {
			t.Errorf("N=12 %s rho=%s: error in E[W] %v%% below error in E[R] %v%%", r["policy"], r["load"], ew, er)
		}
	}
	if !over {
		t.Error("no case at N = 12 where the limit misses E[W] by more than 100%")
	}

	// Starting from empty queues at rho = 0.99 underestimates E[R]; the warm-up removes the bias.
	w := readCSVRows(t, outDir, "warmup")
	if len(w) != 3 {
		t.Fatalf("warmup.csv has %d rows, want 3", len(w))
	}
	lim := w[0].f(t, "limit_response")
	if cold := w[0].f(t, "mean_response") + w[0].f(t, "mean_response_ci95"); cold >= lim {
		t.Errorf("no warm-up: E[R] up to %v, want below the limit %v (queues start empty)", cold, lim)
	}
	if warm, ci := w[2].f(t, "mean_response"), w[2].f(t, "mean_response_ci95"); math.Abs(warm-lim) > 2*ci+0.02*lim {
		t.Errorf("with warm-up: E[R] = %v ± %v, want the limit %v at N = 1000", warm, ci, lim)
	}
}
