package nbrun

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func init() { notebookChecks["06-traces-and-load-moments.ipynb"] = checkTraceMoments }

// csvRowsByName reads outDir/name.csv into one map per row, keyed by column name; numbers are
// parsed on use with rowFloat.
func csvRowsByName(t *testing.T, outDir, name string) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(outDir, name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s.csv: %v", name, err)
	}
	if len(recs) < 2 {
		t.Fatalf("%s.csv has no rows", name)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, col := range recs[0] {
			row[col] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

func rowFloat(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	s, ok := row[col]
	if !ok {
		t.Fatalf("no column %q in %v", col, row)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("column %q: %v", col, err)
	}
	return v
}

func checkTraceMoments(t *testing.T, outDir string) {
	moments := csvRowsByName(t, outDir, "moments")
	if len(moments) != 12 {
		t.Fatalf("moments.csv has %d rows, want 4 traces x 3 policies", len(moments))
	}
	for _, r := range moments {
		mean, little := rowFloat(t, r, "mean"), rowFloat(t, r, "little_mean")
		// Little's law from the per-job response times; the sampled series stop at the last
		// arrival, so jobs left over after it (overload traces) make the series a little lower.
		if rel := math.Abs(mean-little) / little; rel > 0.12 {
			t.Errorf("%s %s: sampled mean load %v vs Little's law %v (%.0f%% apart)", r["trace"], r["policy"], mean, little, 100*rel)
		}
	}
	// Trace 1 under round robin: 500 ms jobs every 60 ms on 10 workers never wait, so the mean
	// load is exactly 500/600 per worker and the workers are 0/1 busy: variance ~ p(1-p).
	rr1 := moments[1]
	if r := rowFloat(t, rr1, "mean_response_ms"); r != 500 {
		t.Errorf("trace1 round robin: mean response %v ms, want 500 (no waiting)", r)
	}
	if m := rowFloat(t, rr1, "mean"); math.Abs(m-500.0/600) > 0.01 {
		t.Errorf("trace1 round robin: mean load %v, want 0.833", m)
	}
	for i := 0; i < 12; i += 3 {
		rnd, rr, ll := moments[i], moments[i+1], moments[i+2]
		if v := rowFloat(t, rnd, "variance"); v < 3*rowFloat(t, rr, "variance") || v < 3*rowFloat(t, ll, "variance") {
			t.Errorf("%s: random's variance %v is not far above round robin's %v and least loaded's %v",
				rnd["trace"], v, rowFloat(t, rr, "variance"), rowFloat(t, ll, "variance"))
		}
	}
	results := csvRowsByName(t, outDir, "results")
	if len(results) != 4 {
		t.Fatalf("results.csv has %d rows, want 4", len(results))
	}
	for _, r := range results {
		if r["agrees"] != "true" {
			t.Errorf("%s: ours %q, document %q", r["trace"], r["ours"], r["document"])
		}
	}
	sep := csvRowsByName(t, outDir, "separation")
	avg := map[string]float64{}
	for _, r := range sep {
		avg[r["moment"]] += rowFloat(t, r, "average") / 4
	}
	if !(avg["variance"] > avg["kurtosis"]+0.2 && avg["mean"] > avg["kurtosis"]+0.2) {
		t.Errorf("separation %v: mean and variance should separate the policies far better than kurtosis", avg)
	}
}
