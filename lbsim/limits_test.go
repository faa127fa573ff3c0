package lbsim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Issue 11: percentiles were pinned to the histogram's fixed range
// (exp:mean=1e300 gave p99 = 1.1e12, 1e-300 gave 0). M/M/1 waiting-time
// quantiles scale with the mean size: at 1e-90 and 1e90 they match the
// closed form ln(rho/(1-q)) E[X]/(1-rho) as at scale 1.
func TestQuantilesFollowMagnitude(t *testing.T) {
	const rho = 0.6
	for _, scale := range []float64{1e-90, 1e90} {
		r := run(t, lbsim.Config{Servers: 1, Load: rho, Sizes: lbsim.Exponential{M: scale}, Policy: lbsim.Random{}, Jobs: 2_000_000})
		for i, p := range lbsim.Percentiles() {
			c := struct{ got, q float64 }{r.WaitQuantiles[i].Mean, p.P}
			want := scale * math.Log(rho/(1-c.q)) / (1 - rho)
			if !(math.Abs(c.got-want) <= 0.02*want) {
				t.Errorf("scale %g: p%v wait %g, want %g within 2%%", scale, c.q*100, c.got, want)
			}
		}
		if !(r.Wait.CI95 > 0) {
			t.Errorf("scale %g: CI %v, want > 0", scale, r.Wait.CI95)
		}
	}
}

// Extreme inputs end in an error naming the value and the allowed range,
// never a panic, a hang or a NaN result (the reproductions of issue 11 and a
// sibling of each).
func TestExtremeConfigsRejected(t *testing.T) {
	exp1 := lbsim.Exponential{M: 1}
	base := func(f func(*lbsim.Config)) lbsim.Config {
		c := lbsim.Config{Servers: 10, Load: 0.5, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 10_000}
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name    string
		cfg     lbsim.Config
		mention string
	}{
		{"load 5e-324", base(func(c *lbsim.Config) { c.Load = 5e-324 }), "load rho=5e-324 is out of range"},
		{"load 1e-310 jsq", base(func(c *lbsim.Config) { c.Load = 1e-310; c.Policy = lbsim.JSQ{} }), "load rho"},
		{"horizon 1e303", base(func(c *lbsim.Config) {
			c.Load, c.Sizes, c.Speeds, c.Discipline = 1e-100, lbsim.Deterministic{X0: 1e100}, []float64{1e-100}, lbsim.PS
		}), "span about 1e+303"},
		{"size 1e307", base(func(c *lbsim.Config) { c.Sizes = lbsim.Exponential{M: 1e307} }), "exp mean=1e+307 is out of range"},
		{"size 1e-320", base(func(c *lbsim.Config) { c.Sizes = lbsim.Deterministic{X0: 1e-320} }), "det x=1e-320"},
		{"ramp to 1e-310", base(func(c *lbsim.Config) { c.Arrivals = lbsim.Ramp{From: 0.5, To: 1e-310, Over: 10} }), "ramp to"},
		{"ramp over 1e300", base(func(c *lbsim.Config) { c.Arrivals = lbsim.Ramp{From: 0.5, To: 0.6, Over: 1e300} }), "ramp over"},
		{"speed 1e-200", base(func(c *lbsim.Config) { c.Speeds = []float64{1e-200} }), "speed mu_1"},
		{"refresh 5e-324", base(func(c *lbsim.Config) { c.Refresh = 5e-324; c.Policy = lbsim.LeastLoaded{D: 2} }), "refresh T=5e-324"},
		{"refresh tiny for the horizon", base(func(c *lbsim.Config) {
			c.Refresh = 1e-99
			c.Sizes = lbsim.Exponential{M: 1e99}
			c.Load = 1e-99
			c.Policy = lbsim.LeastLoaded{D: 2}
		}), "T=1e-99 is too small"},
		{"sample period tiny", base(func(c *lbsim.Config) { c.SampleEvery = 1e-6 }), "sample period"},
		{"jobs overflow", base(func(c *lbsim.Config) { c.Jobs = math.MaxInt64; c.Warmup = 1 }), "2^53"},
		{"warm-up overflow", base(func(c *lbsim.Config) { c.Warmup = math.MaxInt64 }), "2^53"},
		{"K 1e8", base(func(c *lbsim.Config) { c.Servers = 100_000_000; c.Policy = lbsim.LeastLoaded{D: 2} }), "K=100000000 is too large"},
		{"memory", base(func(c *lbsim.Config) { c.Servers = 9_000_000; c.Reps = 4; c.Workers = 4 }), "GiB of memory"},
		{"reps 1e5", base(func(c *lbsim.Config) { c.Reps = 100_000 }), "R=100000 is too large"},
		{"batches 1e9", base(func(c *lbsim.Config) { c.Batches = 1_000_000_000 }), "batches=1000000000 is too large"},
		{"batches > jobs", base(func(c *lbsim.Config) { c.Batches = 5000; c.Jobs = 1000 }), "exceeds the 1000 measured jobs"},
	} {
		err := tc.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.mention)
		}
	}
	if _, err := lbsim.NewH2Balanced(1, 1e300); err == nil || !strings.Contains(err.Error(), "scv=1e+300 is too large") || strings.Contains(err.Error(), "NewH2") {
		t.Errorf("h2 scv=1e300: %v", err)
	}
}

// With as many batches as jobs every batch holds a job, and the confidence
// interval is a number (5000 batches for 1000 jobs made every CI NaN; that
// is now refused).
func TestBatchesUpToJobs(t *testing.T) {
	r := run(t, lbsim.Config{Servers: 2, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{}, Jobs: 1000, Batches: 1000})
	if math.IsNaN(r.Wait.CI95) || math.IsNaN(r.Response.CI95) || !(r.Response.CI95 > 0) {
		t.Errorf("1000 batches of one job: wait %v, response %v", r.Wait, r.Response)
	}
}

// Validation is O(K): checking RND on 100000 servers allocates a bounded
// number of times (it allocated the K speeds once per server, O(K^2) work).
func TestValidateLinearInK(t *testing.T) {
	for _, p := range []lbsim.Policy{lbsim.Random{}, lbsim.RoundRobin{}} {
		cfg := lbsim.Config{Servers: 100_000, Speeds: []float64{1}, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: p, Jobs: 1000}
		allocs := testing.AllocsPerRun(3, func() {
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 100 {
			t.Errorf("%s: Validate at K=100000 made %v allocations, want O(1)", p, allocs)
		}
	}
}

func BenchmarkValidateK100000(b *testing.B) {
	cfg := lbsim.Config{Servers: 100_000, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{}, Jobs: 1000}
	for b.Loop() {
		if err := cfg.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// A precision run stops at lbsim's limits with a warning (it used to grow
// the replications without bound: each keeps a histogram).
func TestPrecisionStopsAtLimits(t *testing.T) {
	// A warm-up of 1000 jobs removes the empty start's bias (tau is 4
	// jobs), which would otherwise lengthen the replications instead.
	r := run(t, lbsim.Config{Servers: 2, Load: 0.5, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{}, Jobs: 1000,
		Warmup: 1000, Reps: 3000, Precision: 1e-6, MaxJobs: 1e8})
	if r.PrecisionMet || !strings.Contains(r.Warnings.String(), "limits") {
		t.Errorf("precision 1e-6 on 100-job replications: met %v, warnings %v; want a stop at the limits", r.PrecisionMet, r.Warnings)
	}
	if r.Config.Reps > 10_000 {
		t.Errorf("%d replications, above the limit of 10000", r.Config.Reps)
	}
}
