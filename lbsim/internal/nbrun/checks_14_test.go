package nbrun

import (
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func init() { notebookChecks["14-your-proxy.ipynb"] = checkYourProxy }

// proxyData reads a file of data/proxycheck by hand (not through the
// notebook's code), a record a row by column name.
func proxyData(t *testing.T, name string) []csvRow {
	t.Helper()
	return csvRowsAt(t, filepath.Join(repoRoot, "data", "proxycheck", name))
}

// logMeasured is a proxycheck log's backends' mean response (end - recv) over
// its requests after the first 5% by arrival at the backends, by hand.
func logMeasured(t *testing.T, name string) float64 {
	rows := proxyData(t, name)
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].f(t, "recv") < rows[b].f(t, "recv") })
	warm := int(0.05 * float64(len(rows)))
	sum := 0.0
	for _, r := range rows[warm:] {
		sum += r.f(t, "end") - r.f(t, "recv")
	}
	return sum / float64(len(rows)-warm)
}

// eK1Response is the mean response of round robin on K servers of speed 1
// with Poisson arrivals and exponential sizes of mean 1 at load rho: each
// server is E_K/M/1, sigma solves sigma = (K rho / (K rho + 1 - sigma))^K
// (GI/M/1 root, by fixed-point iteration from 0), W = sigma / (1 - sigma).
func eK1Response(k int, rho float64) float64 {
	sigma := 0.0
	for range 10_000 {
		sigma = math.Pow(float64(k)*rho/(float64(k)*rho+1-sigma), float64(k))
	}
	return 1 + sigma/(1-sigma)
}

// checkYourProxy checks notebook 14 (issue 51): (a) the proxycheck table's
// ratios are measured / lbsim of its own columns, and the notebook shows the
// file's numbers; (b) its replay of the HAProxy log under jsq:ties=oldest is
// the run proxycheck made (lbsim_backend_mean_ms to its 4 decimals), beside
// the measured mean by hand; (c) the nginx log replayed with its recorded
// workers is closer to the measured mean than with drawn ones, and the seed-1
// draw is proxycheck.csv's replay; (d) the claims of the text against the
// saved tables; (e) round robin on 2 equal servers with exponential sizes
// against E_2/M/1, simulated within 3 half-widths.
func checkYourProxy(t *testing.T, outDir string) {
	data := proxyData(t, "proxycheck.csv")
	if len(data) != 36 {
		t.Fatalf("proxycheck.csv: %d runs, want 36", len(data))
	}
	shown := readCSVRows(t, outDir, "14-proxycheck")
	if len(shown) != len(data) {
		t.Fatalf("14-proxycheck: %d rows, proxycheck.csv %d", len(shown), len(data))
	}
	// (a) Each ratio from its two columns, each rounded to 4 decimals: the
	// ratio m/l moves by at most 0.5e-4 (1/l + m/l^2), plus its own rounding.
	inBand := map[string]int{}
	for i, r := range data {
		for _, q := range []struct{ ratio, meas, sim string }{
			{"mean_ratio", "mean_ms", "lbsim_mean_ms"}, {"p99_ratio", "p99_ms", "lbsim_p99_ms"},
			{"backend_mean_ratio", "backend_mean_ms", "lbsim_backend_mean_ms"}, {"backend_p99_ratio", "backend_p99_ms", "lbsim_backend_p99_ms"},
		} {
			m, l, got := r.f(t, q.meas), r.f(t, q.sim), r.f(t, q.ratio)
			if tol := 0.5e-4*(1/l+m/(l*l)) + 0.5e-4; math.Abs(got-m/l) > tol {
				t.Errorf("proxycheck.csv run %d: %s = %v, %s / %s = %.6f", i+1, q.ratio, got, q.meas, q.sim, m/l)
			}
			if shown[i].f(t, q.ratio) != got || shown[i].f(t, q.meas) != m || shown[i].f(t, q.sim) != l {
				t.Errorf("14-proxycheck row %d: %s %s %s differ from proxycheck.csv's", i+1, q.ratio, q.meas, q.sim)
			}
			if got >= 0.95 && got <= 1.10 {
				inBand[q.ratio]++
			}
		}
	}
	// Section 1's text: 29 and 28 of 36 means in the band (client, backends), 27 and 27 p99s;
	// every set-up with one count within 0.93-1.07 on the backends' mean; HAProxy's ties to
	// the oldest in 81-89% against 37-41% by chance; nginx's workers in a row 76-79%.
	for col, want := range map[string]int{"mean_ratio": 29, "backend_mean_ratio": 28, "p99_ratio": 27, "backend_p99_ratio": 27} {
		if inBand[col] != want {
			t.Errorf("proxycheck.csv: %d runs of %s in 0.95-1.10, the text says %d", inBand[col], col, want)
		}
	}
	for _, r := range data {
		load := r.s(t, "load")
		if !(r.s(t, "workers") != "1" && r.s(t, "zone") == "false") {
			if x := r.f(t, "backend_mean_ratio"); x < 0.93 || x > 1.07 {
				t.Errorf("%s %s load %s: backend mean ratio %v, the text says one count gives 0.93-1.07", r.s(t, "proxy"), r.s(t, "algorithm"), load, x)
			}
		}
		if r.s(t, "algorithm") == "leastconn" {
			if o, c := r.f(t, "oldest"), r.f(t, "chance"); o < 0.81 || o > 0.89 || c < 0.37 || c > 0.41 {
				t.Errorf("HAProxy leastconn load %s: oldest %v, chance %v; the text says 0.81-0.89 and 0.37-0.41", load, o, c)
			}
		}
		if r.s(t, "workers") == "4" {
			if s := math.Round(100 * r.f(t, "same_worker")); s < 76 || s > 79 {
				t.Errorf("nginx %s, 4 workers, load %s: same_worker %v%%, the text says 76-79%%", r.s(t, "algorithm"), load, s)
			}
		}
	}
	at07 := func(proxy, algo, workers, zone string) csvRow {
		for _, r := range data {
			if r.s(t, "proxy") == proxy && r.s(t, "algorithm") == algo && r.s(t, "workers") == workers && r.s(t, "zone") == zone && r.s(t, "load") == "0.7" {
				return r
			}
		}
		t.Fatalf("proxycheck.csv has no run of %s %s %s workers zone %s at 0.7", proxy, algo, workers, zone)
		return nil
	}
	// (b) The HAProxy log replayed under its rule: proxycheck's own run.
	replays := map[string]csvRow{}
	for _, table := range []string{"14-replay-haproxy", "14-replay-nginx"} {
		for _, r := range readCSVRows(t, outDir, table) {
			replays[r.s(t, "replay")] = r
		}
	}
	hap := at07("haproxy", "leastconn", "1", "false")
	own, ok := replays["jsq:ties=oldest"]
	if !ok {
		t.Fatal("14-replay-haproxy has no replay under jsq:ties=oldest")
	}
	if got, want := own.f(t, "lbsim_mean_ms"), hap.f(t, "lbsim_backend_mean_ms"); math.Abs(got-want) > 0.5e-4 {
		t.Errorf("the HAProxy log under jsq:ties=oldest: lbsim mean %.6f ms, proxycheck.csv's replay %.4f", got, want)
	}
	meas := logMeasured(t, "haproxy_leastconn_K4_load0.7.csv")
	if got := own.f(t, "measured_mean_ms"); math.Abs(got-meas) > 1e-9*meas || math.Abs(meas-hap.f(t, "backend_mean_ms")) > 0.5e-4 {
		t.Errorf("the HAProxy log's measured mean: notebook %v, by hand %v, proxycheck.csv %s", got, meas, hap.s(t, "backend_mean_ms"))
	}
	// Section 2's text: ratios 1.012 and 1.031 under the rule, 1.026 and 0.976 with random ties.
	for spec, want := range map[string][2]float64{"jsq:ties=oldest": {1.012, 1.031}, "jsq": {1.026, 0.976}} {
		r := replays[spec]
		if math.Abs(r.f(t, "mean_ratio")-want[0]) > 0.0005 || math.Abs(r.f(t, "p99_ratio")-want[1]) > 0.0005 {
			t.Errorf("the HAProxy log under %s: ratios %s and %s, the text says %v", spec, r.s(t, "mean_ratio"), r.s(t, "p99_ratio"), want)
		}
	}
	// (c) The nginx log: recorded workers closer than drawn ones, and within 1% (mean) and 2% (p99).
	ng := at07("nginx", "least_conn", "4", "false")
	measN := logMeasured(t, "nginx_least_conn_w4_nozone_K4_load0.7.csv")
	rec := replays["recorded workers"]
	if d := math.Abs(rec.f(t, "lbsim_mean_ms") - measN); !(d < 0.01*measN) || math.Abs(rec.f(t, "p99_ratio")-1) > 0.02 {
		t.Errorf("the nginx log with its recorded workers: lbsim %s ms, measured %.4f ms (p99 ratio %s): the text says within 1%% and 2%%", rec.s(t, "lbsim_mean_ms"), measN, rec.s(t, "p99_ratio"))
	}
	for _, drawn := range []string{"drawn workers (seed 1)", "drawn workers (10 draws)"} {
		r, ok := replays[drawn]
		if !ok {
			t.Fatalf("14-replay-nginx has no row %q", drawn)
		}
		if !(math.Abs(rec.f(t, "lbsim_mean_ms")-measN) < math.Abs(r.f(t, "lbsim_mean_ms")-measN)) || r.f(t, "mean_ratio") > 0.87 {
			t.Errorf("the nginx log: recorded workers %s ms, %s %s ms, measured %.4f: the text says the recorded routing is closer, the drawn over-predict by 15%% or more",
				rec.s(t, "lbsim_mean_ms"), drawn, r.s(t, "lbsim_mean_ms"), measN)
		}
	}
	if got, want := replays["drawn workers (seed 1)"].f(t, "lbsim_mean_ms"), ng.f(t, "lbsim_backend_mean_ms"); math.Abs(got-want) > 0.5e-4 {
		t.Errorf("the nginx log's seed-1 draw: %.6f ms, proxycheck.csv's replay %.4f: the text says they are the same run", got, want)
	}

	// (d) Section 3's answer. The fleet's table: round robin refused above 2/3, JIQ unstable at 0.9.
	for _, r := range readCSVRows(t, outDir, "14-fleet") {
		c, load := r.s(t, "candidate"), r.f(t, "load")
		if c == "round robin" && load > 2.0/3 {
			t.Errorf("14-fleet: round robin at load %v, which lbsim refuses (old backends at 1.5 rho)", load)
		}
		if c == "JIQ" && load == 0.9 && !strings.Contains(r.s(t, "warnings"), "unstable") {
			t.Errorf("14-fleet: JIQ at 0.9 without the unstable warning the text reports")
		}
	}
	// The ranking: nginx's weighted least_conn first in every group, every other worse by a
	// paired interval excluding 0 wherever there is one; each value the fleet table's.
	rk := readCSVRows(t, outDir, "14-ranking")
	groups := map[string][]csvRow{}
	for _, r := range rk {
		groups[r.s(t, "group")] = append(groups[r.s(t, "group")], r)
	}
	if len(groups) != 12 {
		t.Errorf("14-ranking: %d groups, want 12 (2 disciplines x 2 delays x 3 loads)", len(groups))
	}
	for g, rows := range groups {
		for i, r := range rows {
			switch {
			case i == 0 && r.s(t, "name") != "nginx least_conn":
				t.Errorf("%s: the best is %s, the answer says nginx least_conn", g, r.s(t, "name"))
			case i > 0 && r.s(t, "verdict") != "worse" && r.s(t, "verdict") != "no interval":
				t.Errorf("%s: %s is %q against the best (%s ± %s), the answer says worse wherever there is an interval", g, r.s(t, "name"), r.s(t, "verdict"), r.s(t, "diff"), r.s(t, "diff_ci95"))
			}
			if math.Abs(r.f(t, "diff")-(r.f(t, "value")-rows[0].f(t, "value"))) > 1e-9*r.f(t, "value") {
				t.Errorf("%s %s: diff %s, values %s and %s", g, r.s(t, "name"), r.s(t, "diff"), r.s(t, "value"), rows[0].s(t, "value"))
			}
		}
		// peak-EWMA ahead of Envoy's weighted least request at 0.9 on FCFS, behind on PS, within 4%.
		if strings.HasSuffix(g, "load 0.9") {
			p99 := map[string]float64{}
			for _, r := range rows {
				p99[r.s(t, "name")] = r.f(t, "value")
			}
			e, l := p99["peak-EWMA P2C"], p99["Envoy LR weighted"]
			if fcfs := strings.HasPrefix(g, "FCFS"); fcfs != (e < l) || math.Abs(e/l-1) > 0.04 {
				t.Errorf("%s: peak-EWMA %v, Envoy LR weighted %v: the text says within 4%%, peak-EWMA ahead on FCFS only", g, e, l)
			}
		}
	}
	// JIQ and Envoy's P2C level at 0.5 on FCFS: adjacent, the later one "≈".
	fcfs05 := groups["FCFS, delay 0 ms, load 0.5"]
	for i, r := range fcfs05 {
		if n := r.s(t, "name"); (n == "JIQ" || n == "Envoy P2C") && i > 0 {
			if p := fcfs05[i-1].s(t, "name"); p == "JIQ" || p == "Envoy P2C" {
				if r.s(t, "step") != "≈" {
					t.Errorf("FCFS 0.5: %s after %s with step %q, the text says level", n, p, r.s(t, "step"))
				}
			}
		}
	}
	// A 1 ms delay: every mean within -2% to +3%, every p99 within 5%.
	for _, r := range readCSVRows(t, outDir, "14-delay-cost") {
		if m, p := r.f(t, "mean_ratio"), r.f(t, "p99_ratio"); m < 0.98 || m > 1.03 || math.Abs(p-1) > 0.05 {
			t.Errorf("14-delay-cost %s %s %s: mean x%v, p99 x%v; the text says at most 3%% and 5%%", r.s(t, "candidate"), r.s(t, "discipline"), r.s(t, "load"), m, p)
		}
	}

	// (e) The exact reference.
	ex := readCSVRows(t, outDir, "14-exact")
	if len(ex) != 1 {
		t.Fatalf("14-exact: %d rows, want 1", len(ex))
	}
	rho, _ := strconv.ParseFloat(ex[0].s(t, "load"), 64)
	want := eK1Response(2, rho)
	if got := ex[0].f(t, "exact_response"); math.Abs(got-want) > 1e-9*want {
		t.Errorf("14-exact: exact %.10g, E_2/M/1 by hand %.10g", got, want)
	}
	if sim, ci := ex[0].f(t, "mean_response"), ex[0].f(t, "mean_response_ci95"); math.Abs(sim-want) > 3*ci {
		t.Errorf("14-exact: simulated %.5g ± %.3g, exact %.5g (more than 3 half-widths)", sim, ci, want)
	}
}
