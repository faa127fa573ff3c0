package nbrun

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func init() { notebookChecks["11-request-log-to-decision.ipynb"] = checkRequestLog }

// requestLog reads data/requests.csv by hand (not through lbsim): its
// arrival times and service times.
func requestLog(t *testing.T) (times, sizes []float64) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "data", "requests.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] { // the header arrival,size
		a, err1 := strconv.ParseFloat(rec[0], 64)
		x, err2 := strconv.ParseFloat(rec[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("data/requests.csv: %v %v", err1, err2)
		}
		times, sizes = append(times, a), append(sizes, x)
	}
	return times, sizes
}

// The notebook's backends: 20 of speed 1 and 20 of speed 1.6.
var logSpeeds = []struct{ mu, servers float64 }{{1, 20}, {1.6, 20}}

const logCapacity = 52

// randomBySpeed is the exact mean response of random dispatch in proportion
// to speed with sizes of moments m1, m2 at load rho: each backend is an M/G/1
// queue at load rho, of FCFS wait lambda_k E[S^2] / (2 (1 - rho)) with
// S = X / mu_k (Pollaczek-Khinchine), or under PS of response E[S] / (1 - rho).
func randomBySpeed(m1, m2, rho float64, ps bool) float64 {
	lambda := rho * logCapacity / m1
	t := 0.0
	for _, g := range logSpeeds {
		p := g.servers * g.mu / logCapacity // the group's share of the jobs
		lk := p * lambda / g.servers        // one backend's arrival rate
		s1, s2 := m1/g.mu, m2/(g.mu*g.mu)
		if ps {
			t += p * s1 / (1 - rho)
		} else {
			t += p * (lk*s2/(2*(1-rho)) + s1)
		}
	}
	return t
}

// checkRequestLog checks notebook 11 (issue 35): the log's moments and own
// load read by hand; random dispatch by speed against Pollaczek-Khinchine
// (FCFS) and M/G/1-PS per backend from those moments, simulated within its
// interval; own counts with one proxy are least connections bit for bit and
// lie between shared counts and random dispatch as the proxies multiply;
// the paired ratios are ratios of the table's own numbers, 1 for the best,
// which has the least p99 among the candidates.
func checkRequestLog(t *testing.T, outDir string) {
	times, sizes := requestLog(t)
	n := float64(len(sizes))
	var m1, m2, largest float64
	for _, x := range sizes {
		m1, m2, largest = m1+x/n, m2+x*x/n, max(largest, x)
	}
	own := (n - 1) / (times[len(times)-1] - times[0]) * m1 / logCapacity
	log := readCSVRows(t, outDir, "11-log")
	if len(log) != 1 {
		t.Fatalf("11-log has %d rows, want 1", len(log))
	}
	for col, want := range map[string]float64{"requests": n, "mean_ms": m1, "scv": m2/(m1*m1) - 1, "max_ms": largest, "own_load": own} {
		if got := log[0].f(t, col); math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("11-log %s = %.10g, by hand %.10g", col, got, want)
		}
	}

	for _, table := range []struct {
		name string
		ps   bool
	}{{"11-candidates", false}, {"11-ps", true}} {
		seen := 0
		for _, r := range readCSVRows(t, outDir, table.name) {
			if r.s(t, "candidate") != "random by speed" {
				continue
			}
			seen++
			rho := r.f(t, "load")
			want := randomBySpeed(m1, m2, rho, table.ps)
			if got := r.f(t, "exact_response"); math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s load %v: exact response %.10g, by hand %.10g", table.name, rho, got, want)
			}
			// Heavy tails: at 0.9 a quick run is short for FCFS, and says so.
			sim, ci := r.f(t, "mean_response"), r.f(t, "mean_response_ci95")
			if math.Abs(sim-want) > 3*ci && (rho < 0.85 || r.s(t, "warnings") == "") {
				t.Errorf("%s load %v: random by speed %.5g ± %.3g, exact %.5g (more than 3 half-widths, no warning)", table.name, rho, sim, ci, want)
			}
		}
		if seen == 0 {
			t.Errorf("%s has no row of random by speed", table.name)
		}
	}

	ownRows := readCSVRows(t, outDir, "11-own")
	byM := map[string]map[int]csvRow{}
	for _, r := range ownRows {
		c := r.s(t, "candidate")
		if byM[c] == nil {
			byM[c] = map[int]csvRow{}
		}
		byM[c][int(r.f(t, "dispatchers"))] = r
	}
	lc := byM["least connections, own counts"]
	if one, ok := lc[1]; !ok {
		t.Errorf("11-own has no row of least connections on own counts with one proxy")
	} else if one.s(t, "mean_response") != one.s(t, "shared_counts_response") {
		t.Errorf("one proxy on its own counts: %s, least connections on shared counts %s: want the same number", one.s(t, "mean_response"), one.s(t, "shared_counts_response"))
	}
	for c, rows := range byM {
		most := 0
		for m := range rows {
			most = max(most, m)
		}
		r := rows[most]
		shared, random := r.f(t, "shared_counts_response"), r.f(t, "random_by_speed_response")
		if got, ci := r.f(t, "mean_response"), r.f(t, "mean_response_ci95"); !(got-ci > shared && got+ci < random) {
			t.Errorf("%s with %d proxies: %.5g ± %.3g, not between shared counts %.5g and random dispatch %.5g", c, most, got, ci, shared, random)
		}
		if most > 1 && rows[1] != nil && !(r.f(t, "mean_response") > rows[1].f(t, "mean_response")) {
			t.Errorf("%s: %d proxies %.5g, not above one proxy's %.5g", c, most, r.f(t, "mean_response"), rows[1].f(t, "mean_response"))
		}
	}

	// The rankings (nb.Rank): at each load the candidates four proxies can run, best first by
	// p99 (and the same candidates on the mean against the same best): each value is the
	// candidates table's own, the best has the least p99, the ranks follow the values, the
	// difference and the ratio are the table's numbers against the best's, and each verdict is
	// what its paired interval says.
	for _, tc := range []struct{ ranking, metric, table, bestOf string }{
		{"11-paired", "p99_response", "11-candidates", ""},
		{"11-paired-mean", "mean_response", "11-candidates", "11-paired"},
		{"11-ps-paired", "p99_response", "11-ps", ""},
	} {
		simulated := map[string]csvRow{} // the candidates table by load and candidate
		for _, r := range readCSVRows(t, outDir, tc.table) {
			simulated[r.s(t, "load")+" "+r.s(t, "candidate")] = r
		}
		bestOf := map[string]string{} // the ranking's best by group, for tc.bestOf
		if tc.bestOf != "" {
			for _, r := range readCSVRows(t, outDir, tc.bestOf) {
				bestOf[r.s(t, "group")] = r.s(t, "best")
			}
		}
		rows := readCSVRows(t, outDir, tc.ranking)
		best := map[string]csvRow{}
		for _, r := range rows {
			if r.s(t, "rank") == "1" {
				best[r.s(t, "group")] = r
			}
		}
		prev := map[string]csvRow{}
		for _, r := range rows {
			g, n := r.s(t, "group"), r.s(t, "name")
			load, err := strconv.ParseFloat(strings.TrimPrefix(g, "load "), 64)
			if err != nil {
				t.Fatalf("%s: group %q is not a load: %v", tc.ranking, g, err)
			}
			if n == "least connections, shared counts" {
				t.Errorf("%s %s: the shared-count reference is ranked; four proxies cannot run it", tc.ranking, g)
			}
			sim, ok := simulated[strconv.FormatFloat(load, 'g', -1, 64)+" "+n]
			if !ok {
				t.Errorf("%s %s %s: no row in %s", tc.ranking, g, n, tc.table)
				continue
			}
			if r.s(t, "metric") != tc.metric || r.f(t, "value") != sim.f(t, tc.metric) || r.f(t, "ci95") != sim.f(t, tc.metric+"_ci95") && !math.IsNaN(r.f(t, "ci95")) {
				t.Errorf("%s %s %s: %s %s ± %s, %s says %s ± %s", tc.ranking, g, n, r.s(t, "metric"), r.s(t, "value"), r.s(t, "ci95"), tc.table, sim.s(t, tc.metric), sim.s(t, tc.metric+"_ci95"))
			}
			b := best[g]
			if b == nil || r.s(t, "best") != b.s(t, "name") {
				t.Errorf("%s %s %s: best %s, the rank-1 row is %v", tc.ranking, g, n, r.s(t, "best"), b)
				continue
			}
			if want, ok := bestOf[g]; tc.bestOf != "" && (!ok || r.s(t, "best") != want) {
				t.Errorf("%s %s: best %s, %s's best %s: want the same", tc.ranking, g, r.s(t, "best"), tc.bestOf, want)
			}
			if tc.bestOf == "" && r.f(t, "value") < b.f(t, "value") {
				t.Errorf("%s %s: %s has p99 %v, below the best %s's %v", tc.ranking, g, n, r.f(t, "value"), b.s(t, "name"), b.f(t, "value"))
			}
			if p, ok := prev[g]; ok && tc.bestOf == "" && (r.f(t, "value") < p.f(t, "value") || r.f(t, "rank") != p.f(t, "rank")+1) {
				t.Errorf("%s %s: %s (rank %s, %s) after %s (rank %s, %s): not in order", tc.ranking, g, n, r.s(t, "rank"), r.s(t, "value"), p.s(t, "name"), p.s(t, "rank"), p.s(t, "value"))
			}
			prev[g] = r
			v, bv := r.f(t, "value"), b.f(t, "value")
			if d := r.f(t, "diff"); math.Abs(d-(v-bv)) > 1e-9*v {
				t.Errorf("%s %s %s: diff %v, the table's values give %v", tc.ranking, g, n, d, v-bv)
			}
			if q := r.f(t, "ratio"); math.Abs(q-v/bv) > 1e-9*v/bv {
				t.Errorf("%s %s %s: ratio %v, the table's values give %v", tc.ranking, g, n, q, v/bv)
			}
			want := "not distinguishable"
			switch h := r.f(t, "diff_ci95"); {
			case n == b.s(t, "name"):
				want = "best"
			case math.IsNaN(h):
				want = "no interval"
			case r.f(t, "diff")-h > 0:
				want = "worse"
			}
			if got := r.s(t, "verdict"); got != want {
				t.Errorf("%s %s %s: verdict %q for %s ± %s against the best, want %q", tc.ranking, g, n, got, r.s(t, "diff"), r.s(t, "diff_ci95"), want)
			}
		}
		if len(best) == 0 {
			t.Errorf("%s ranks nothing", tc.ranking)
		}
	}
}
