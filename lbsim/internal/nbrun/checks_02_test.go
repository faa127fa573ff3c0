package nbrun

import (
	"math"
	"testing"
)

func init() { notebookChecks["02-exponential-sizes.ipynb"] = checkExponentialSizes }

// eK1Wait is the E_K/M/1 mean wait (mean size 1) from the GI/M/1 root, solved here by fixed-point
// iteration sigma <- (K rho / (K rho + 1 - sigma))^K, independently of the theory package.
func eK1Wait(k int, rho float64) float64 {
	sigma := rho
	for range 10000 {
		sigma = math.Pow(float64(k)*rho/(float64(k)*rho+1-sigma), float64(k))
	}
	return sigma / (1 - sigma)
}

// checkExponentialSizes checks notebook 02 (issue 4): RND on M/M/1 and RR on E_50/M/1 within
// their CIs, LL-2 at or just above its mean-field limit, and the ratios at rho = 0.5 and 0.9:
// RR clearly beats RND, LL-2 beats RR.
func checkExponentialSizes(t *testing.T, outDir string) {
	waits := readCSVRows(t, outDir, "02-waits")
	if len(waits) != 30 {
		t.Fatalf("02-waits has %d rows, want 3 policies x 10 loads = 30", len(waits))
	}
	for _, r := range waits {
		rho, w, ci, exact := r.f(t, "load"), r.f(t, "mean_wait"), r.f(t, "ci95"), r.f(t, "theory")
		switch p := r.s(t, "policy"); p {
		case "RND":
			if mm1 := rho / (1 - rho); math.Abs(exact-mm1) > 1e-9*mm1 {
				t.Errorf("RND exact at %v = %v, want M/M/1 %v", rho, exact, mm1)
			}
		case "RR":
			if ek := eK1Wait(50, rho); math.Abs(exact-ek) > 1e-6*ek+1e-12 {
				t.Errorf("RR exact at %v = %v, want E_50/M/1 %v", rho, exact, ek)
			}
		case "LL-2":
			limit := -math.Log(1-rho*rho)/(rho*rho) - 1
			if math.Abs(exact-limit) > 1e-6*limit {
				t.Errorf("LL-2 limit at %v = %v, want %v", rho, exact, limit)
			}
			// Finite K=50 waits at least the limit (within noise) and at most about 15% more.
			if rho <= 0.9 && !(w > limit-ci && w < 1.15*limit+ci) {
				t.Errorf("LL-2 at %v: %v ± %v, limit %v", rho, w, ci, limit)
			}
			continue
		default:
			t.Fatalf("unexpected policy %q", p)
		}
		// Light tails: the exact value lies within two CI half-widths at every load up to 0.85
		// (two, not one: 20 intervals are checked, and each misses 5% of the time).
		if rho <= 0.85 && exact > 1e-3 && math.Abs(w-exact) > 2*ci {
			t.Errorf("%s at %v: %v ± %v, exact %v", r.s(t, "policy"), rho, w, ci, exact)
		}
	}

	ratios := readCSVRows(t, outDir, "02-ratios")
	if len(ratios) != 12 {
		t.Fatalf("02-ratios has %d rows, want 2 size laws x 2 loads x 3 ratios", len(ratios))
	}
	got := map[string]float64{}
	for _, r := range ratios {
		got[r.s(t, "sizes")+" "+r.s(t, "ratio")+" "+r.s(t, "load")] = r.f(t, "simulated")
		if r.s(t, "sizes") == "exponential" {
			if th, s, ci := r.f(t, "theory"), r.f(t, "simulated"), r.f(t, "ci95"); r.s(t, "ratio") == "RND/RR" && math.Abs(s-th) > 2*ci {
				t.Errorf("exponential RND/RR at %v: %v ± %v, exact %v", r.f(t, "load"), s, ci, th)
			}
		}
	}
	for _, rho := range []string{"0.5", "0.9"} {
		// With exponential sizes RR clearly beats RND; with the two-point sizes they are within 20%.
		if v := got["exponential RND/RR "+rho]; !(v > 1.5) {
			t.Errorf("exponential RND/RR at %s = %v, want > 1.5", rho, v)
		}
		if v := got["two-point RND/RR "+rho]; !(v > 0.8 && v < 1.2) {
			t.Errorf("two-point RND/RR at %s = %v, want about 1", rho, v)
		}
		// LL-2 is still best, and its margin over RR is smaller with exponential sizes at rho=0.5.
		if v := got["exponential RR/LL-2 "+rho]; !(v > 1) {
			t.Errorf("exponential RR/LL-2 at %s = %v, want > 1", rho, v)
		}
	}
	if e, tp := got["exponential RR/LL-2 0.5"], got["two-point RR/LL-2 0.5"]; !(e < tp) {
		t.Errorf("RR/LL-2 at 0.5: exponential %v, two-point %v: want LL-2's margin smaller with exponential sizes", e, tp)
	}
}
