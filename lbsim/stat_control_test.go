package lbsim

import (
	"math"
	"strings"
	"testing"
)

// TestControlAdjust checks the Lavenberg-Welch estimator against a
// hand computation: Y = 2 C + noise over 5 units, mu_C = 2.5.
//
//	Cbar = 3, Ybar = 7.02, S_CC = 10, s_CY = 19.9, beta = 1.99
//	Y_cv = 7.02 - 1.99 (3 - 2.5) = 6.025
//	residuals -0.04, 0.17, -0.22, 0.09, 0: SSE = 0.087, s_e^2 = 0.087/3
//	half = t_{0.975,3} sqrt(0.029 (1/5 + 0.25/10)) = 3.182446 * 0.0807775
func TestControlAdjust(t *testing.T) {
	y := []float64{3, 5.2, 6.8, 9.1, 11}
	c := [][]float64{{1}, {2}, {3}, {4}, {5}}
	adj, half := controlAdjust(y, c, []float64{2.5})
	if got := meanOf(y) - adj; math.Abs(got-6.025) > 1e-12 {
		t.Errorf("Y_cv = %.15g, want 6.025", got)
	}
	want := 3.182446305284263 * math.Sqrt(0.029*0.225)
	if math.Abs(half-want) > 1e-9 {
		t.Errorf("half-width = %.12g, want %.12g", half, want)
	}
	// Without the control: Ybar 7.02 and the plain interval, 8 times wider.
	plain := MeanCI95(y)
	if plain.CI95 < 8*half {
		t.Errorf("plain half-width %.4g is not much wider than the controlled %.4g", plain.CI95, half)
	}
}

// TestPickControls: a constant control and one collinear with an
// earlier one are dropped, and too few units drop every control.
func TestPickControls(t *testing.T) {
	var c [][]float64
	for i := range 20 {
		x := float64(i*7%11) + 0.1*float64(i%3)
		c = append(c, []float64{x, 4, 3*x - 1, float64(i * i % 5)})
	}
	kept, dropped := pickControls(c)
	if len(kept) != 2 || kept[0] != 0 || kept[1] != 3 || dropped[1] == "" || dropped[2] == "" {
		t.Errorf("kept %v, dropped %q: want controls 0 and 3 (1 constant, 2 = 3 c0 - 1)", kept, dropped)
	}
	kept, dropped = pickControls(c[:9])
	if len(kept) != 0 || !strings.Contains(dropped[0], "too few") {
		t.Errorf("9 units: kept %v, dropped %q; want none (fewer than %d degrees of freedom)", kept, dropped, minControlDF)
	}
}

// TestControlVariatesRun: on E_K/M/1 per server (RR, K=4, exponential
// sizes, load 0.9; fixed seed) the controlled interval
// holds the exact mean wait and is narrower than the plain one, on the
// same sample path (same percentiles).
func TestControlVariatesRun(t *testing.T) {
	cfg := Config{Servers: 4, Load: 0.9, Sizes: Exponential{M: 1}, Policy: RoundRobin{}, Jobs: 1_000_000, Seed: 1}
	plain, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ControlVariates = true
	cv, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	exact := cv.Exact.Wait
	t.Logf("exact %.5g; plain %v (%s); controlled %v (%s)", exact, plain.Wait, plain.CIMethod, cv.Wait, cv.CIMethod)
	if math.Abs(cv.Wait.Mean-exact) > cv.Wait.CI95 {
		t.Errorf("controlled %v misses the exact %.5g", cv.Wait, exact)
	}
	if cv.Wait.CI95 >= plain.Wait.CI95 {
		t.Errorf("controlled half-width %.4g is not below the plain %.4g", cv.Wait.CI95, plain.Wait.CI95)
	}
	if cv.WaitQuantiles[2].Mean != plain.WaitQuantiles[2].Mean || cv.Utilization != plain.Utilization {
		t.Errorf("not the same sample path: p99 %v against %v", cv.WaitQuantiles[2].Mean, plain.WaitQuantiles[2].Mean)
	}
	if want := "20 batch means, control variates (sizes, arrivals, sizes²)"; cv.CIMethod != want {
		t.Errorf("CIMethod %q, want %q", cv.CIMethod, want)
	}
	ramp := cfg
	ramp.Arrivals = Ramp{From: 0.2, To: 0.6, Over: 500}
	if err := ramp.Validate(); err == nil || !strings.Contains(err.Error(), "control variates need arrivals of known mean rate") {
		t.Errorf("a ramp with control variates: %v", err)
	}
	if plain.Config.Key() == cv.Config.Key() {
		t.Errorf("the key does not tell control variates: %s", cv.Config.Key())
	}
}

// TestControlSums: the per-batch sums see exactly the measured jobs,
// in lean blocks and the general loop, with a warm-up, a last partial block
// and more batches than jobs: the sizes sum to the work the servers got
// (speed 1), and the gaps to the time from the last warm-up arrival to the
// last measured one.
func TestControlSums(t *testing.T) {
	for _, c := range []struct {
		disc         Discipline
		warmup, jobs int64
	}{{FCFS, 300, 1000}, {PS, 300, 1000}, {FCFS, 0, 5000}, {FCFS, 256, 50}} {
		cfg := Config{Servers: 3, Load: 0.8, Sizes: Exponential{M: 1}, Policy: Random{}, Discipline: c.disc,
			Warmup: c.warmup, Jobs: c.jobs, Seed: 7, ControlVariates: true}
		rep, err := runReplication(&cfg, 0)
		if err != nil {
			t.Fatal(err)
		}
		var work, sizes float64
		for _, b := range rep.busy {
			work += b
		}
		for _, x := range rep.ctl.sumX {
			sizes += x
		}
		if math.Abs(work-sizes) > 1e-9*work {
			t.Errorf("%v warm-up %d, %d jobs: sizes sum to %.12g, the servers got %.12g", c.disc, c.warmup, c.jobs, sizes, work)
		}
		s := rep.ctl
		if end := s.before[len(s.before)-1]; end != rep.tEnd || !(s.before[0] < rep.tStart) || (s.before[0] > 0) != (c.warmup > 0) {
			t.Errorf("%v warm-up %d: gaps from %v to %v, measured arrivals from %v to %v", c.disc, c.warmup, s.before[0], end, rep.tStart, rep.tEnd)
		}
	}
}
