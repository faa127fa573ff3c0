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

	for _, name := range []string{"11-paired", "11-ps-paired"} {
		rows := readCSVRows(t, outDir, name)
		least := map[string]float64{}
		for _, r := range rows {
			if l := r.s(t, "load"); r.s(t, "candidate") != "least connections, shared counts" {
				if v, ok := least[l]; !ok || r.f(t, "p99_response") < v {
					least[l] = r.f(t, "p99_response")
				}
			}
		}
		for _, r := range rows {
			l, best := r.s(t, "load"), r.s(t, "best")
			var bestP99 float64
			for _, b := range rows {
				if b.s(t, "load") == l && b.s(t, "candidate") == best {
					bestP99 = b.f(t, "p99_response")
				}
			}
			if bestP99 != least[l] {
				t.Errorf("%s load %s: best %s has p99 %v, the least is %v", name, l, best, bestP99, least[l])
			}
			want := r.f(t, "p99_response") / bestP99
			if got := r.f(t, "p99_ratio"); math.Abs(got-want) > 1e-3*want {
				t.Errorf("%s load %s %s: p99 ratio %v, the table's p99s give %v", name, l, r.s(t, "candidate"), got, want)
			}
		}
	}
}
