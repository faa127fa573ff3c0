package finite

import (
	"math"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// Published mean-field mean responses (Mitzenmacher; Hellemans and Van Houdt 2018), from
// the project's design notes.
func TestLimitPublished(t *testing.T) {
	cases := []struct {
		p    lbsim.Policy
		rho  float64
		want float64
	}{
		{lbsim.JSQ{D: 2}, 0.5, 1.2657}, {lbsim.JSQ{D: 3}, 0.9, 2.0279}, {lbsim.JSQ{D: 2}, 0.99, 5.4320},
		{lbsim.LeastLoaded{D: 2}, 0.9, 2.0503}, {lbsim.LeastLoaded{D: 3}, 0.99, 2.4810},
	}
	for _, c := range cases {
		got, err := Limit(c.p, c.rho)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Response-c.want) > 1e-4 {
			t.Errorf("%s rho=%v: limit %v, want %v", c.p, c.rho, got.Response, c.want)
		}
	}
	for _, p := range []lbsim.Policy{lbsim.JSQ{}, lbsim.LeastLoaded{}, lbsim.Random{}, lbsim.JSQ{D: 2, Replace: true}} {
		if _, err := Limit(p, 0.5); err == nil {
			t.Errorf("%s: no error, but it has no power-of-d limit", p)
		}
	}
}

func TestExcess(t *testing.T) {
	if e := Excess(5.4749, 2.6141); math.Abs(e-1.0944) > 1e-3 {
		t.Errorf("excess = %v, want 1.0944", e)
	}
}

// The exact finite-N JSQ-d chain lies between the bounds, and the bounds meet at N = 1.
func TestBoundsHoldExact(t *testing.T) {
	lo, hi, err := Bounds(1, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(lo.Response-hi.Response) > 1e-12 || math.Abs(hi.Response-1/0.3) > 1e-12 {
		t.Errorf("N=1: bounds %v and %v, want both 1/(1-rho) = %v", lo.Response, hi.Response, 1/0.3)
	}
	for _, c := range []struct {
		n, d int
		rho  float64
	}{{2, 2, 0.5}, {3, 2, 0.7}, {5, 3, 0.5}} {
		ex, err := theory.JSQdExact(c.n, c.d, c.rho)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, err := Bounds(c.n, c.rho)
		if err != nil {
			t.Fatal(err)
		}
		if !(lo.Response < ex.MeanResponse && ex.MeanResponse < hi.Response) {
			t.Errorf("N=%d d=%d rho=%v: exact %v outside bounds [%v, %v]", c.n, c.d, c.rho, ex.MeanResponse, lo.Response, hi.Response)
		}
	}
	if _, _, err := Bounds(0, 0.5); err == nil {
		t.Error("N=0: no error")
	}
	if _, _, err := Bounds(4, 1); err == nil {
		t.Error("rho=1: no error")
	}
}

// The simulator and the exact chain are independent methods for the same finite system.
func TestSimulationMatchesExactChain(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation of 8e6 jobs")
	}
	for _, c := range []struct {
		n, d int
		rho  float64
	}{{3, 2, 0.7}, {5, 3, 0.5}, {2, 2, 0.9}} {
		ex, err := theory.JSQdExact(c.n, c.d, c.rho)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lbsim.Run(lbsim.Config{Servers: c.n, Load: c.rho, Sizes: lbsim.Exponential{M: 1},
			Policy: lbsim.JSQ{D: c.d}, Jobs: 2_000_000, Warmup: 100_000, Reps: 4, Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(res.Response.Mean - ex.MeanResponse); d > res.Response.CI95+1e-3 {
			t.Errorf("N=%d d=%d rho=%v: simulated %v, exact %v", c.n, c.d, c.rho, res.Response, ex.MeanResponse)
		}
	}
}
