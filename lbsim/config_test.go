package lbsim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Every invalid configuration is an error that names the value and the
// allowed range; none panics, none runs.
func TestInvalidConfigurations(t *testing.T) {
	ok := func() lbsim.Config {
		return lbsim.Config{Servers: 10, Load: 0.5, Sizes: exp1, Policy: lbsim.Random{}, Jobs: 100}
	}
	cases := []struct {
		name string
		edit func(c *lbsim.Config)
		want []string // substrings of the error
	}{
		{"unstable load", func(c *lbsim.Config) { c.Load = 1 }, []string{"rho=1", "rho < 1", "-overload"}},
		{"load above one", func(c *lbsim.Config) { c.Load = 1.3 }, []string{"1.3", "unstable"}},
		{"zero load", func(c *lbsim.Config) { c.Load = 0 }, []string{"rho=0", "0 < rho < 1"}},
		{"NaN load", func(c *lbsim.Config) { c.Load = math.NaN() }, []string{"NaN"}},
		{"no servers", func(c *lbsim.Config) { c.Servers = 0 }, []string{"K=0", "K >= 1"}},
		{"d above K", func(c *lbsim.Config) { c.Policy = lbsim.LeastLoaded{D: 11} }, []string{"d=11", "d <= K = 10"}},
		{"jsq d above K", func(c *lbsim.Config) { c.Policy = lbsim.JSQ{D: 12} }, []string{"d=12"}},
		{"negative d", func(c *lbsim.Config) { c.Policy = lbsim.JSQ{D: -1} }, []string{"d=-1"}},
		{"sita c=0", func(c *lbsim.Config) { c.Sizes = handout; c.Policy = lbsim.SITA{C: 0} }, []string{"c=0", "1 <= c <= K-1 = 9"}},
		{"sita c=K", func(c *lbsim.Config) { c.Sizes = handout; c.Policy = lbsim.SITA{C: 10} }, []string{"c=10"}},
		{"sita without two-point", func(c *lbsim.Config) { c.Policy = lbsim.SITA{C: 3} }, []string{"two-point", "cut"}},
		{"xm >= xM", func(c *lbsim.Config) { c.Sizes = lbsim.TwoPoint{Xm: 5, XM: 2, P: 0.1} }, []string{"xm=5", "xM=2"}},
		{"NaN size", func(c *lbsim.Config) { c.Sizes = lbsim.Deterministic{X0: math.NaN()} }, []string{"NaN", "> 0"}},
		{"negative size", func(c *lbsim.Config) { c.Sizes = lbsim.Exponential{M: -1} }, []string{"-1", "> 0"}},
		{"negative modal size", func(c *lbsim.Config) { c.Sizes = lbsim.NewModal(1, -2) }, []string{"#2", "-2"}},
		{"speeds length", func(c *lbsim.Config) { c.Speeds = []float64{1, 2, 3} }, []string{"3 values", "K=10"}},
		{"zero speed", func(c *lbsim.Config) { c.Speeds = []float64{0} }, []string{"mu_1=0"}},
		{"no jobs", func(c *lbsim.Config) { c.Jobs = 0 }, []string{"N=0", "N >= 1"}},
		{"negative refresh", func(c *lbsim.Config) { c.Policy = lbsim.JSQ{D: 2}; c.Refresh = -1 }, []string{"T=-1"}},
		{"refresh without state", func(c *lbsim.Config) { c.Refresh = 5 }, []string{"no effect", "rnd"}},
		{"tally without board", func(c *lbsim.Config) { c.Policy = lbsim.JSQ{D: 2}; c.Tally = true }, []string{"tally", "T > 0"}},
		{"no policy", func(c *lbsim.Config) { c.Policy = nil }, []string{"policy"}},
		{"no sizes", func(c *lbsim.Config) { c.Sizes = nil }, []string{"sizes"}},
		{"negative warm-up", func(c *lbsim.Config) { c.Warmup = -5 }, []string{"-5"}},
		{"ramp", func(c *lbsim.Config) { c.Arrivals = lbsim.Ramp{From: 0.5, To: 1, Over: 0} }, []string{"over=0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := ok()
			tc.edit(&c)
			_, err := lbsim.Run(c)
			if err == nil {
				t.Fatalf("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	if _, err := lbsim.Run(ok()); err != nil {
		t.Fatalf("the valid base configuration fails: %v", err)
	}
	// H2 needs SCV >= 1.
	if _, err := lbsim.NewH2Balanced(1, 0.5); err == nil || !strings.Contains(err.Error(), "scv=0.5") {
		t.Errorf("h2 scv 0.5: %v", err)
	}
	// Overload is allowed only on request.
	c := ok()
	c.Load, c.AllowOverload = 1.2, true
	if _, err := lbsim.Run(c); err != nil {
		t.Errorf("overload with AllowOverload: %v", err)
	}
}

// The same seed gives the same numbers whatever the number of workers, and
// two policies on one seed see the same jobs (common random numbers): the
// work sent to the servers per unit time is identical.
func TestReproducibleAndCommonRandomNumbers(t *testing.T) {
	base := lbsim.Config{Servers: 20, Load: 0.7, Sizes: handout, Policy: lbsim.LeastLoaded{D: 2}, Jobs: 50_000, Reps: 5, Seed: 99}
	a, b := base, base
	a.Workers, b.Workers = 1, 2
	ra, rb := run(t, a), run(t, b)
	if ra.Wait != rb.Wait || ra.WaitQuantiles[2].Mean != rb.WaitQuantiles[2].Mean || ra.Handout != rb.Handout {
		t.Errorf("1 worker %v vs 2 workers %v", ra.Wait, rb.Wait)
	}
	rr := base
	rr.Policy = lbsim.RoundRobin{}
	if u1, u2 := ra.Utilization, run(t, rr).Utilization; math.Abs(u1-u2) > 1e-12 {
		t.Errorf("LL-2 and RR on one seed saw different work: utilization %v vs %v", u1, u2)
	}
	c := base
	c.Seed = 100
	if run(t, c).Wait == ra.Wait {
		t.Errorf("seeds 99 and 100 gave identical results")
	}
}

// A replayed trace gives exactly Lindley's waits: one server, jobs at
// t = 0, 1, 2, 6 of sizes 3, 1, 1, 2 wait 0, 2, 2, 0.
func TestTraceReplayExact(t *testing.T) {
	tr, err := lbsim.ReadTrace(strings.NewReader("arrival,size\n0,3\n1,1\n2,1\n# a comment\n\n6,2\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, lbsim.Config{Servers: 1, Trace: &tr, Policy: lbsim.Random{}, Batches: 2})
	if r.Wait.Mean != 1 || r.Response.Mean != 1+7.0/4 {
		t.Errorf("trace wait %v response %v, want 1 and 2.75", r.Wait, r.Response)
	}
	if n := lbsim.NewRow(r).Jobs; n != 4 {
		t.Errorf("jobs %d, want 4", n)
	}
}

// Bad trace rows are reported with their line number.
func TestTraceErrors(t *testing.T) {
	for _, tc := range []struct{ csv, want string }{
		{"0,1\n1,x\n", "line 2"},
		{"0,1\n2,1\n1,1\n", "line 3: arrival time 1 is before"},
		{"0,1\n1,-2\n", "line 2: size -2"},
		{"0,1\n1,NaN\n", `line 2: size "NaN" is not a finite number`},
		{"0,1\n5\n", "line 2"},
		{"", "no jobs"},
	} {
		_, err := lbsim.ReadTrace(strings.NewReader(tc.csv))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("trace %q: error %v, want it to mention %q", tc.csv, err, tc.want)
		}
	}
}

// A ramp from load 0.2 to 1.0 over 1000 time units brings, in expectation,
// Lambda(1000) = (a + b)/2 * 1000 arrivals before t=1000: check with the
// trace of arrival counts over many jobs (K=1, mean size 1: rate = load).
func TestRampArrivalCount(t *testing.T) {
	cfg := lbsim.Config{Servers: 1, Sizes: exp1, Policy: lbsim.Random{}, Arrivals: lbsim.Ramp{From: 0.2, To: 1, Over: 1000}, Jobs: 600, Reps: 200, Seed: 5}
	// Jobs 600 end past t=1000 (expected 600 arrivals by t = 1000); the
	// measured span from the first to the last arrival averages the time at
	// which Lambda reaches 600, which is exactly 1000.
	r := run(t, cfg)
	// Utilization = work / span; work per job 1 on average: span ~ 600/util.
	span := float64(cfg.Jobs) / r.Utilization
	if math.Abs(span-1000) > 20 {
		t.Errorf("ramp: 600 arrivals took %.1f time units on average, want about 1000", span)
	}
}
