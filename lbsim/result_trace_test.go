package lbsim

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceReplaysInterval: replays of one trace share its jobs, so the
// interval comes from batch means over the trace, the replays summed
// batch by batch. Under RR, which draws nothing, 4 replays are one replay
// four times: the interval is one replay's batch-means interval (it was
// ± 0, from four identical replications). Under rnd:weights=speed the
// replays differ in the draws only, and over 40 Poisson traces of 20,000
// jobs the intervals hold the exact value (M/M/1 per server,
// rho/(mu - lambda_k)) in at least 90% of them (37; they held it in 19
// with the replays' spread as the interval).
func TestTraceReplaysInterval(t *testing.T) {
	speeds := []float64{2, 1, 1}
	const rho = 0.7
	lambda := rho * 4
	cfg := Config{Servers: 3, Speeds: speeds, Policy: RoundRobin{}, Trace: poissonTrace(40_000, lambda, 9), Seed: 1}
	one := run(t, cfg)
	cfg.Reps = 4
	four := run(t, cfg)
	t.Logf("rr on a trace: 1 replay %v (%s), 4 replays %v (%s)", one.Wait, one.CIMethod, four.Wait, four.CIMethod)
	if four.Wait != one.Wait || !strings.Contains(four.CIMethod, "trace") {
		t.Errorf("rr, 4 replays of a trace: %v (%s), want one replay's %v with batch means of the trace", four.Wait, four.CIMethod, one.Wait)
	}
	// rnd:weights=speed: server k gets lambda mu_k/sum(mu), an M/M/1 queue
	// at load rho: W_k = rho/(mu_k (1 - rho)), weighed by its share of jobs.
	exact := 0.0
	for _, mu := range speeds {
		exact += mu / 4 * rho / (mu * (1 - rho))
	}
	covered, n := 0, 40
	for seed := range n {
		c := Config{Servers: 3, Speeds: speeds, Policy: WeightedRandom{Weights: Weights{Speed: true}},
			Trace: poissonTrace(20_000, lambda, uint64(100+seed)), Reps: 5, Seed: 1}
		r := run(t, c)
		if math.Abs(r.Wait.Mean-exact) <= r.Wait.CI95 {
			covered++
		}
	}
	t.Logf("rnd:weights=speed on %d Poisson traces, 5 replays each: %d intervals hold the exact %.5g", n, covered, exact)
	if covered < n*9/10 {
		t.Errorf("rnd:weights=speed on %d traces, 5 replays: %d intervals hold the exact %.5g, want >= %d", n, covered, exact, n*9/10)
	}
}

// The replays of one trace under LWL are one run again: a percentile's
// interval, or the reason it has none, is the same for one replay and for
// five (the units count each of the trace's jobs once), where five replays
// gave p99 an interval from copies and one gave none. The advice for a
// trace's correlated batches does not ask for replications, which cannot
// help (compare's label: TestCompareTraceUnits).
func TestTraceReplaysPercentiles(t *testing.T) {
	cfg := Config{Servers: 4, Policy: LeastLoaded{}, Trace: poissonTrace(200_000, 4*0.8, 5), Seed: 1}
	one := run(t, cfg)
	cfg.Reps = 5
	five := run(t, cfg)
	for _, q := range []struct {
		name      string
		one, five Quantiles
	}{{"wait", one.WaitQuantiles, five.WaitQuantiles}, {"response", one.ResponseQuantiles, five.ResponseQuantiles}} {
		for i, p := range percentiles {
			a, b := q.one[i], q.five[i]
			if a.Mean != b.Mean || math.IsNaN(a.CI95) != math.IsNaN(b.CI95) || !math.IsNaN(a.CI95) && math.Abs(a.CI95-b.CI95) > 1e-12*a.CI95 {
				t.Errorf("LWL on a trace, %s %s: one replay %v, five %v: want the same", p.Name, q.name, a, b)
			}
		}
	}
	t.Logf("LWL on a trace: p99 wait %v (one replay), %v (five)", one.WaitQuantiles[2], five.WaitQuantiles[2])
	if len(one.noCI) != len(five.noCI) {
		t.Errorf("reasons for no interval: one replay %v, five %v", one.noCI, five.noCI)
	}
	if !strings.Contains(five.String(), "a trace about") && len(five.noCI) > 0 {
		t.Errorf("a trace's summary should ask for a longer trace, not run: %s", five)
	}
	d := &diagnosis{cfg: &cfg}
	if advice := d.independentBatches(3); strings.Contains(advice, "-reps") {
		t.Errorf("advice for a trace's correlated batches: %q asks for replications", advice)
	}
}

// A row's trace column names the trace by its content, as the sizes column
// names a size file: two traces written in turn at one path were one
// "t.csv" beside two keys; now they are two names, and one trace is one
// name (its hash) wherever it lies, its file's base name kept for the reader.
func TestTraceColumnByContent(t *testing.T) {
	dir := t.TempDir()
	column := func(path, text string) (string, string) {
		t.Helper()
		writeFile(t, filepath.Dir(path), filepath.Base(path), text)
		tr, err := LoadTrace(path)
		if err != nil {
			t.Fatal(err)
		}
		res := run(t, Config{Servers: 2, Policy: RoundRobin{}, Trace: &tr, Seed: 1})
		return NewRow(res).Trace, res.Config.Key()
	}
	a, b := "arrival,size\n0,1\n0.5,2\n1.5,1\n", "arrival,size\n0,3\n0.5,2\n1.5,1\n"
	p := filepath.Join(dir, "t.csv")
	nameA, keyA := column(p, a)
	nameB, keyB := column(p, b)
	if nameA == nameB || keyA == keyB || !strings.HasPrefix(nameA, "t.csv#") || !strings.HasPrefix(nameB, "t.csv#") {
		t.Errorf("two traces at %s: columns %q and %q (keys differ: %v), want two names t.csv#HASH", p, nameA, nameB, keyA != keyB)
	}
	if err := os.Mkdir(filepath.Join(dir, "copy"), 0o755); err != nil {
		t.Fatal(err)
	}
	again, keyAgain := column(filepath.Join(dir, "copy", "t.csv"), "# the same jobs\n"+a)
	if again != nameA || keyAgain != keyA {
		t.Errorf("trace a elsewhere: column %q, want %q as at %s", again, nameA, p)
	}
}
