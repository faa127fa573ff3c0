package theory

import (
	"math"
	"testing"
)

// ekm1FixedPoint iterates sigma <- A*(mu(1-sigma)) from 0, which increases
// monotonically to the smallest root: a second method for EKM1Root.
func ekm1FixedPoint(K int, rho float64) float64 {
	kr, s := float64(K)*rho, 0.0
	for i := 0; i < 1_000_000; i++ {
		n := math.Pow(kr/(kr+1-s), float64(K))
		if math.Abs(n-s) < 1e-15 {
			return n
		}
		s = n
	}
	return s
}

func TestRoundRobinExp(t *testing.T) {
	// E_K/M/1 waits from the root equation sigma = (K rho/(K rho + 1 - sigma))^K
	// (Kleinrock, Queueing Systems I, sec. 6.4), mean size 1.
	cases := []struct {
		K    int
		rho  float64
		want float64
	}{
		{2, 0.9, 6.588}, {4, 0.9, 5.383}, {10, 0.9, 4.660}, {2, 0.5, 0.618},
	}
	for _, c := range cases {
		d, err := RoundRobinExp(c.rho*float64(c.K), c.K, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(d.Wait-c.want) > 0.0005 {
			t.Errorf("K=%d rho=%g: W=%.4f, want %.3f", c.K, c.rho, d.Wait, c.want)
		}
		if !near(d.Response, d.Wait+1, 1e-12) {
			t.Errorf("K=%d rho=%g: R=%g, want W+1", c.K, c.rho, d.Response)
		}
	}
	// K=2, rho=0.5 has the closed form sigma = (3 - sqrt 5)/2, W = (sqrt 5 - 1)/2.
	d, _ := RoundRobinExp(1, 2, 1)
	if !near(d.Wait, (math.Sqrt(5)-1)/2, 1e-12) {
		t.Errorf("K=2 rho=0.5: W=%.15f, want (sqrt5-1)/2", d.Wait)
	}
	// Mean size m scales the wait by m at the same load.
	d3, _ := RoundRobinExp(1.0/3, 2, 3)
	if !near(d3.Wait, 3*d.Wait, 1e-12) {
		t.Errorf("mean 3: W=%g, want %g", d3.Wait, 3*d.Wait)
	}
}

func TestEKM1Root(t *testing.T) {
	for _, K := range []int{1, 2, 3, 5, 10, 50, 100} {
		for _, rho := range []float64{0.1, 0.5, 0.9, 0.99} {
			s, err := EKM1Root(K, rho)
			if err != nil {
				t.Fatal(err)
			}
			if fp := ekm1FixedPoint(K, rho); !near(s, fp, 1e-9) {
				t.Errorf("K=%d rho=%g: root %.15f, fixed point %.15f", K, rho, s, fp)
			}
			if K == 1 && !near(s, rho, 1e-12) {
				t.Errorf("K=1 rho=%g: sigma=%g, want rho (M/M/1)", rho, s)
			}
		}
	}
}

func TestRoundRobinKingmanApprox(t *testing.T) {
	// K=1: Kingman is exactly Pollaczek-Khinchine.
	h, _ := HyperExpBalanced(1, 10)
	k1, err := RoundRobinKingmanApprox(0.8, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := MG1{Lambda: 0.8, Size: h, Mu: 1}.FCFS()
	if !near(k1.Wait, pk.Wait, 1e-12) {
		t.Errorf("Kingman K=1 %g vs P-K %g", k1.Wait, pk.Wait)
	}
	// Heavy traffic: against the exact E_K/M/1 (exponential sizes) the
	// relative error is below 7% at rho=0.9 and 1% at rho=0.99.
	for _, K := range []int{2, 4, 10} {
		for _, c := range []struct{ rho, tol float64 }{{0.9, 0.07}, {0.99, 0.01}} {
			ap, _ := RoundRobinKingmanApprox(c.rho*float64(K), K, ExpMoments(1))
			ex, _ := RoundRobinExp(c.rho*float64(K), K, 1)
			if e := ap.Wait/ex.Wait - 1; e < 0 || e > c.tol {
				t.Errorf("K=%d rho=%g: Kingman %g vs exact %g (error %.3g)", K, c.rho, ap.Wait, ex.Wait, e)
			}
		}
	}
	// The documented moderate-load gap: 0.75 against 0.618.
	ap, _ := RoundRobinKingmanApprox(1, 2, ExpMoments(1))
	if !near(ap.Wait, 0.75, 1e-12) {
		t.Errorf("Kingman K=2 rho=0.5: %g, want 0.75", ap.Wait)
	}
}

func TestRoundRobinErrors(t *testing.T) {
	_, err := RoundRobinExp(2.2, 2, 1)
	wantErr(t, err, "rho=1.1", "unstable", "lower the arrival rate")
	_, err = RoundRobinExp(1, 0, 1)
	wantErr(t, err, "K=0")
	_, err = RoundRobinExp(1, 2, -1)
	wantErr(t, err, "mean size m=-1")
	_, err = EKM1Root(2, math.NaN())
	wantErr(t, err, "rho=NaN")
	_, err = RoundRobinKingmanApprox(3, 2, ExpMoments(1))
	wantErr(t, err, "rho=1.5", "unstable")
	_, err = RoundRobinKingmanApprox(1, 2, Law{1, 0})
	wantErr(t, err, "E[X^2]=0")
}
