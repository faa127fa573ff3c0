package nbrun

import (
	"fmt"
	"math"
	"os"
	"testing"
)

func init() {
	notebookChecks["04-heavy-tails-and-stale-information.ipynb"] = checkHeavyTailsStale
}

// staleTable reads name.csv (saved by notebook 04 or 05 with nb.Save) and checks that it has
// wantRows rows (any number if wantRows < 0).
func staleTable(t *testing.T, outDir, name string, wantRows int) []csvRow {
	t.Helper()
	rows := readCSVRows(t, outDir, name)
	if wantRows >= 0 && len(rows) != wantRows {
		t.Fatalf("%s.csv has %d rows, want %d", name, len(rows), wantRows)
	}
	return rows
}

// byKey indexes rows by policy and SCV (and refresh when withT).
func byKey(t *testing.T, rows []csvRow, withT bool) map[string]csvRow {
	out := map[string]csvRow{}
	for _, r := range rows {
		k := fmt.Sprintf("%s|%g", r["policy"], r.f(t, "scv"))
		if withT {
			k += fmt.Sprintf("|%g", r.f(t, "refresh"))
		}
		out[k] = r
	}
	return out
}

func key(policy string, scv float64, T ...float64) string {
	k := fmt.Sprintf("%s|%g", policy, scv)
	for _, x := range T {
		k += fmt.Sprintf("|%g", x)
	}
	return k
}

var (
	staleSCVs = []float64{1, 4, 10, 30}
	staleT    = []float64{1, 2, 5, 10, 20, 50, 100, 200, 500}
	boardPols = []string{"best of two", "least loaded"}
)

// checkLiveAndStale checks what notebooks 04 and 05 share: the live table (exact references where
// the discipline has them, the ordering of the policies), the staleness sweep and its crossings.
// exactAt lists the SCVs at which the exact rows must cover their reference in quick mode.
func checkLiveAndStale(t *testing.T, outDir, prefix string, exactAt []float64) (live, stale map[string]csvRow) {
	liveRows := staleTable(t, outDir, prefix+"live", 20)
	live = byKey(t, liveRows, false)
	v, set := os.LookupEnv("LBSIM_QUICK")
	quick := !set || v == "1" // TestNotebooks runs quick unless the caller set LBSIM_QUICK
	for _, r := range liveRows {
		if r["exact"] != "true" {
			continue
		}
		scv := r.f(t, "scv")
		m, ci, ref := r.f(t, "mean_response"), r.f(t, "ci95"), r.f(t, "reference_response")
		check := !quick
		for _, s := range exactAt {
			check = check || s == scv
		}
		if check && !(ci > 0 && math.Abs(m-ref) <= 3*ci) {
			t.Errorf("%s live %s at SCV %v: %v ± %v, exact %s %v", prefix, r["policy"], scv, m, ci, r["reference_method"], ref)
		}
	}
	staleRows := staleTable(t, outDir, prefix+"stale", len(boardPols)*len(staleSCVs)*len(staleT))
	stale = byKey(t, staleRows, true)
	for _, scv := range staleSCVs {
		for _, p := range boardPols {
			fresh, old := stale[key(p, scv, 1)].f(t, "mean_response"), stale[key(p, scv, 500)].f(t, "mean_response")
			if !(old > fresh) {
				t.Errorf("%s %s at SCV %v: a board 500 old (%v) is not worse than one 1 old (%v)", prefix, p, scv, old, fresh)
			}
		}
	}
	cross := byKey(t, staleTable(t, outDir, prefix+"crossings", len(boardPols)*len(staleSCVs)), false)
	for _, scv := range staleSCVs {
		b2, ll := cross[key("best of two", scv)].f(t, "hi"), cross[key("least loaded", scv)].f(t, "hi")
		if b2 < ll {
			t.Errorf("%s SCV %v: best of two crosses round robin at T <= %v, before least loaded (%v)", prefix, scv, b2, ll)
		}
	}
	return live, stale
}

// checkHeavyTailsStale checks notebook 04 (issue 5) against the document and exact values.
func checkHeavyTailsStale(t *testing.T, outDir string) {
	for _, r := range staleTable(t, outDir, "sizes", 4) {
		if r.f(t, "scv") == 30 {
			// The document: "about 1 job in 61 is a giant averaging 30 service times".
			if n, g := r.f(t, "one_job_in"), r.f(t, "giant_mean"); math.Abs(n-61) > 0.5 || math.Abs(g-30.5) > 0.05 {
				t.Errorf("SCV 30: one job in %v is a giant of mean %v; the document says 61 and about 30", n, g)
			}
		}
	}
	live, stale := checkLiveAndStale(t, outDir, "", []float64{1})
	for _, scv := range staleSCVs {
		// Random's exact value is Pollaczek-Khinchine, computed here: 1 + 0.9 (1 + SCV) / 0.2.
		if got, want := live[key("random", scv)].f(t, "reference_response"), 1+0.9*(1+scv)/0.2; math.Abs(got-want) > 1e-9 {
			t.Errorf("random at SCV %v: reference %v, want P-K %v", scv, got, want)
		}
		m := func(p string) float64 { return live[key(p, scv)].f(t, "mean_response") }
		if !(m("oracle") < m("least loaded") && m("least loaded") < m("best of two") && m("best of two") < m("round robin")) {
			t.Errorf("SCV %v live: want oracle < least loaded < best of two < round robin, got %v %v %v %v",
				scv, m("oracle"), m("least loaded"), m("best of two"), m("round robin"))
		}
	}
	gain := func(scv float64) float64 {
		return live[key("round robin", scv)].f(t, "mean_response") / live[key("random", scv)].f(t, "mean_response")
	}
	if g1, g30 := gain(1), gain(30); !(g1 > 0.4 && g1 < 0.65 && g30 > g1+0.2) {
		t.Errorf("round robin / random: %v at SCV 1 (document: halves), %v at SCV 30 (document: saves 5%%)", g1, g30)
	}
	// The staleness budget stretches with the SCV (the document: by more than an order of magnitude).
	cross := byKey(t, staleTable(t, outDir, "crossings", 8), false)
	if b1, b30 := cross[key("best of two", 1)].f(t, "hi"), cross[key("best of two", 30)].f(t, "hi"); !(b30 >= 10*b1) {
		t.Errorf("best of two crosses round robin at T <= %v (SCV 1) and T <= %v (SCV 30): less than 10 times later", b1, b30)
	}

	// The Pareto trap: exact values, and run length matters for the Lomax law only.
	trap := staleTable(t, outDir, "trap", -1)
	byLaw := map[string][]csvRow{}
	for _, r := range trap {
		byLaw[r["law"]] = append(byLaw[r["law"]], r)
	}
	exact := map[string]float64{
		"Lomax (Pareto II) a=2.2": 55,                              // 1 + 0.9 * 12 / 0.2
		"Pareto I a=2.2":          1 + 0.9*(1.2*1.2/(2.2*0.2))/0.2, // E[X^2] = (a-1)^2/(a(a-2))
		"H2 SCV 30":               140.5,
	}
	for law, want := range exact {
		rows := byLaw[law]
		if len(rows) < 3 {
			t.Fatalf("trap has %d run lengths for %s, want at least 3", len(rows), law)
		}
		for _, r := range rows {
			if got := r.f(t, "exact"); math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s: exact %v, want %v", law, got, want)
			}
		}
	}
	lomax, h2 := byLaw["Lomax (Pareto II) a=2.2"], byLaw["H2 SCV 30"]
	// The document's point: 2e6 jobs fall well short of the exact value; shorter runs fall shorter.
	first, last := lomax[0], lomax[len(lomax)-1]
	if !(first.f(t, "ratio") < last.f(t, "ratio")) {
		t.Errorf("Lomax: simulated/exact %v at N=%v, %v at N=%v; want it to grow with N",
			first.f(t, "ratio"), first.f(t, "jobs"), last.f(t, "ratio"), last.f(t, "jobs"))
	}
	for _, r := range lomax {
		if r.f(t, "jobs") == 2e6 && !(r.f(t, "ratio") < 1) {
			t.Errorf("Lomax at N=2e6: simulated/exact %v, want below 1 (the document: 38 against 55)", r.f(t, "ratio"))
		}
	}
	if r := h2[len(h2)-1]; math.Abs(r.f(t, "mean_response")-140.5) > 3*r.f(t, "ci95") {
		t.Errorf("H2 SCV 30 at N=%v: %v ± %v misses the exact 140.5", r.f(t, "jobs"), r.f(t, "mean_response"), r.f(t, "ci95"))
	}

	// The tally removes least loaded's herd: better than without at every SCV for T >= 5.
	tally := byKey(t, staleTable(t, outDir, "tally", 72), true)
	for _, scv := range staleSCVs {
		for _, T := range staleT[2:] {
			with, without := tally[key("least loaded", scv, T)].f(t, "mean_response"), stale[key("least loaded", scv, T)].f(t, "mean_response")
			if !(with < without) {
				t.Errorf("least loaded SCV %v T=%v: %v with tally, %v without", scv, T, with, without)
			}
		}
	}
	for _, r := range staleTable(t, outDir, "tally_crossings", 16) {
		if r["tally"] != "true" {
			continue
		}
		plain := cross[key(r["policy"], r.f(t, "scv"))]
		if r.f(t, "hi") < plain.f(t, "hi") {
			t.Errorf("%s SCV %v: the tally crosses round robin earlier (T <= %v) than without (T <= %v)",
				r["policy"], r.f(t, "scv"), r.f(t, "hi"), plain.f(t, "hi"))
		}
	}

	// The document's formula values are reproduced exactly.
	quotes := staleTable(t, outDir, "quotes", 25)
	for _, q := range quotes {
		switch q["id"] {
		case "random-30-exact", "random-10-exact", "trap-exact":
			if q["agrees"] != "true" {
				t.Errorf("quote %s: ours %v, document %v", q["id"], q.f(t, "ours"), q["document"])
			}
		}
	}
}
