package nbrun

import (
	"math"
	"testing"
)

func init() { notebookChecks["06-traces-and-load-moments.ipynb"] = checkTraceMoments }

func checkTraceMoments(t *testing.T, outDir string) {
	moments := readCSVRows(t, outDir, "moments")
	if len(moments) != 12 {
		t.Fatalf("moments.csv has %d rows, want 4 traces x 3 policies", len(moments))
	}
	for _, r := range moments {
		mean, little := r.f(t, "mean"), r.f(t, "little_mean")
		// Little's law from the per-job response times; the sampled series stop at the last
		// arrival, so jobs left over after it (overload traces) make the series a little lower.
		if rel := math.Abs(mean-little) / little; rel > 0.12 {
			t.Errorf("%s %s: sampled mean load %v vs Little's law %v (%.0f%% apart)", r["trace"], r["policy"], mean, little, 100*rel)
		}
	}
	// Trace 1 under round robin: 500 ms jobs every 60 ms on 10 workers never wait, so the mean
	// load is exactly 500/600 per worker and the workers are 0/1 busy: variance ~ p(1-p).
	rr1 := moments[1]
	if r := rr1.f(t, "mean_response_ms"); r != 500 {
		t.Errorf("trace1 round robin: mean response %v ms, want 500 (no waiting)", r)
	}
	if m := rr1.f(t, "mean"); math.Abs(m-500.0/600) > 0.01 {
		t.Errorf("trace1 round robin: mean load %v, want 0.833", m)
	}
	for i := 0; i < 12; i += 3 {
		rnd, rr, ll := moments[i], moments[i+1], moments[i+2]
		if v := rnd.f(t, "variance"); v < 3*rr.f(t, "variance") || v < 3*ll.f(t, "variance") {
			t.Errorf("%s: random's variance %v is not far above round robin's %v and least loaded's %v",
				rnd["trace"], v, rr.f(t, "variance"), ll.f(t, "variance"))
		}
	}
	results := readCSVRows(t, outDir, "results")
	if len(results) != 4 {
		t.Fatalf("results.csv has %d rows, want 4", len(results))
	}
	for _, r := range results {
		if r["agrees"] != "true" {
			t.Errorf("%s: ours %q, document %q", r["trace"], r["ours"], r["document"])
		}
	}
	sep := readCSVRows(t, outDir, "separation")
	avg := map[string]float64{}
	for _, r := range sep {
		avg[r["moment"]] += r.f(t, "average") / 4
	}
	if !(avg["variance"] > avg["kurtosis"]+0.2 && avg["mean"] > avg["kurtosis"]+0.2) {
		t.Errorf("separation %v: mean and variance should separate the policies far better than kurtosis", avg)
	}
}
