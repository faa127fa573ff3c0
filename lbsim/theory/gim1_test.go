package theory

import (
	"math"
	"testing"
)

// lambertW0 is the principal branch of Lambert's W on [-1/e, 0) by Halley's
// iteration on w e^w = x (an independent route to the D/M/1 root).
func lambertW0(x float64) float64 {
	w := 0.0
	if x < -0.25 { // near the branch point -1/e: w ~ -1 + sqrt(2 (1 + e x))
		w = -1 + math.Sqrt(2*(1+math.E*x))
	}
	for range 100 {
		ew := math.Exp(w)
		f := w*ew - x
		next := w - f/(ew*(w+1)-(w+2)*f/(2*w+2))
		if math.Abs(next-w) <= 1e-16*math.Max(1, math.Abs(w)) {
			return next
		}
		w = next
	}
	return w
}

// Exponential gaps: GI/M/1 is M/M/1, sigma = rho.
func TestGIM1PoissonIsMM1(t *testing.T) {
	for _, rho := range []float64{0.01, 0.3, 0.7, 0.99} {
		for _, mu := range []float64{1, 3} {
			g := must(ExpGaps(1 / (rho * mu)))
			sigma := must(GIM1Root(g, mu))
			got := must(GIM1(g, mu))
			want := must(MM1(rho*mu, 1, mu))
			if !near(sigma, rho, 1e-13) || !near(got.Wait, want.Wait, 1e-12) || !near(got.Response, want.Response, 1e-12) {
				t.Errorf("rho=%g mu=%g: sigma=%.15g, E[W]=%.15g E[R]=%.15g, M/M/1 %.15g %.15g", rho, mu, sigma, got.Wait, got.Response, want.Wait, want.Response)
			}
		}
	}
}

// D/M/1: sigma = exp(-(1 - sigma)/rho), i.e. sigma = -rho W_0(-e^{-1/rho}/rho)
// (Lambert's W, an independent root finder). At rho = 0.5 sigma = 0.2032,
// the value quoted from Kleinrock, Queueing Systems Vol. 1 (1975), for the
// D/M/1 queue (the brief's citation; the digits are checked here by the
// Lambert-W route, not against the printed table).
func TestGIM1Deterministic(t *testing.T) {
	for _, rho := range []float64{0.05, 0.2, 0.5, 0.8, 0.95, 0.999} {
		g := must(DetGaps(1 / rho))
		sigma := must(GIM1Root(g, 1))
		want := -rho * lambertW0(-math.Exp(-1/rho)/rho)
		if !near(sigma, want, 1e-12) {
			t.Errorf("D/M/1 rho=%g: sigma=%.16g, Lambert W %.16g", rho, sigma, want)
		}
		if !near(sigma, math.Exp(-(1-sigma)/rho), 1e-13) {
			t.Errorf("D/M/1 rho=%g: sigma=%.16g does not solve sigma = exp(-(1-sigma)/rho)", rho, sigma)
		}
		d := must(GIM1(g, 1))
		if !near(d.Wait, sigma/(1-sigma), 1e-12) || !near(d.Response, 1/(1-sigma), 1e-12) {
			t.Errorf("D/M/1 rho=%g: %+v", rho, d)
		}
	}
	sigma := must(GIM1Root(must(DetGaps(2)), 1))
	if math.Abs(sigma-0.2032) > 0.5e-4 {
		t.Errorf("D/M/1 rho=0.5: sigma=%.6f, want 0.2032", sigma)
	}
	// Light load: sigma = e^{-1/rho} (1 + O(e^{-1/rho})) keeps its digits.
	tiny := must(GIM1Root(must(DetGaps(100)), 1))
	if want := -0.01 * lambertW0(-100*math.Exp(-100)); !near(tiny, want, 1e-12) || tiny == 0 {
		t.Errorf("D/M/1 rho=0.01: sigma=%g, want %g", tiny, want)
	}
}

// Erlang-K gaps agree with EKM1Root (roundrobin.go): K servers fed in turn
// by a Poisson stream of rate lambda each see ErlangGaps(K, K/lambda).
func TestGIM1ErlangMatchesEKM1(t *testing.T) {
	for _, K := range []int{1, 2, 3, 10} {
		for _, rho := range []float64{0.2, 0.7, 0.98} {
			lambda := rho * float64(K) // per-server load rho, mu = 1
			got := must(GIM1Root(must(ErlangGaps(K, float64(K)/lambda)), 1))
			want := must(EKM1Root(K, rho))
			if !near(got, want, 1e-13) {
				t.Errorf("K=%d rho=%g: sigma=%.16g, EKM1Root %.16g", K, rho, got, want)
			}
			d := must(GIM1(must(ErlangGaps(K, float64(K)/lambda)), 1))
			rr := must(RoundRobinExp(lambda, K, 1))
			if !near(d.Wait, rr.Wait, 1e-11) || !near(d.Response, rr.Response, 1e-12) {
				t.Errorf("K=%d rho=%g: %+v, RoundRobinExp %+v", K, rho, d, rr)
			}
		}
	}
}

// Thinned deterministic gaps: p = 1 is D/M/1 exactly; p -> 0 with a/p fixed
// tends to Poisson (the geometric sum of small gaps is nearly exponential,
// with an error of order a mu).
func TestGIM1ThinnedDeterministic(t *testing.T) {
	for _, rho := range []float64{0.3, 0.9} {
		one := must(GIM1Root(must(ThinnedDetGaps(1/rho, 1)), 1))
		det := must(GIM1Root(must(DetGaps(1/rho)), 1))
		if one != det {
			t.Errorf("rho=%g: p=1 sigma=%.17g, D/M/1 %.17g", rho, one, det)
		}
		p := 1e-6
		thin := must(GIM1Root(must(ThinnedDetGaps(p/rho, p)), 1))
		if math.Abs(thin-rho) > 1e-5 {
			t.Errorf("rho=%g p=%g: sigma=%.10f, Poisson limit %g", rho, p, thin, rho)
		}
	}
	// A server of a K-server random split of a deterministic stream of gap
	// a: p = 1/K. Against the equation itself, solved by a different
	// method (fixed-point iteration sigma <- A*(mu (1 - sigma)), which
	// converges from 0 for GI/M/1).
	g := must(ThinnedDetGaps(0.4, 0.5)) // per-server load 1/(0.8 mu), mu = 1.5
	sigma := must(GIM1Root(g, 1.5))
	fp := 0.0
	for range 10_000 {
		fp = g.LST(1.5 * (1 - fp))
	}
	if !near(sigma, fp, 1e-12) {
		t.Errorf("thinned a=0.4 p=0.5 mu=1.5: sigma=%.16g, fixed point %.16g", sigma, fp)
	}
}

func TestGIM1Errors(t *testing.T) {
	_, err := DetGaps(0)
	wantErr(t, err, "gap a=0")
	_, err = ErlangGaps(0, 1)
	wantErr(t, err, "K=0", "K >= 1")
	_, err = ThinnedDetGaps(1, 1.5)
	wantErr(t, err, "p=1.5", "0 < p <= 1")
	_, err = GIM1(Gaps{Name: "custom", Mean: 1}, 2)
	wantErr(t, err, "no LST")
	_, err = GIM1(must(DetGaps(1)), 1)
	wantErr(t, err, "rho=1", "unstable", "deterministic(a=1)")
	_, err = GIM1(must(DetGaps(1)), -1)
	wantErr(t, err, "service rate mu=-1")
}
