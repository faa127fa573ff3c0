package theory

import (
	"math"
	"testing"
)

// erlangCSum is the textbook formula, an independent method:
// C = (a^K/K!) (K/(K-a)) / (sum_{k<K} a^k/k! + (a^K/K!) (K/(K-a))).
func erlangCSum(K int, a float64) float64 {
	sum, term := 0.0, 1.0
	for k := 0; k < K; k++ {
		sum += term
		term *= a / float64(k+1)
	}
	last := term * float64(K) / (float64(K) - a)
	return last / (sum + last)
}

func TestErlangC(t *testing.T) {
	cases := []struct {
		K    int
		a    float64
		want float64
	}{
		{2, 1, 1.0 / 3}, // textbook value
		{1, 0.7, 0.7},   // M/M/1: P(wait) = rho
		{5, 3, erlangCSum(5, 3)},
		{10, 8, erlangCSum(10, 8)},
		{50, 45, erlangCSum(50, 45)},
		{100, 0, 0},
	}
	for _, c := range cases {
		got, err := ErlangC(c.K, c.a)
		if err != nil {
			t.Fatal(err)
		}
		if !near(got, c.want, 1e-10) && !(c.want == 0 && got == 0) {
			t.Errorf("ErlangC(%d, %g) = %.12g, want %.12g", c.K, c.a, got, c.want)
		}
	}
	// Large K where the textbook sum overflows: the recursion stays finite and
	// tends to the Halfin-Whitt value for a = K - beta sqrt(K).
	got, err := ErlangC(10000, 9900)
	if err != nil || math.IsNaN(got) || got <= 0 || got >= 1 {
		t.Errorf("ErlangC(10000, 9900) = %g, %v", got, err)
	}
	// Halfin-Whitt: C -> 1/(1 + beta Phi(beta)/phi(beta)), beta = 1.
	phi := math.Exp(-0.5) / math.Sqrt(2*math.Pi)
	Phi := 0.5 * (1 + math.Erf(1/math.Sqrt2))
	if hw := 1 / (1 + Phi/phi); math.Abs(got-hw) > 0.01 {
		t.Errorf("ErlangC(10000, 9900) = %g, want near Halfin-Whitt %g", got, hw)
	}
}

func TestMMK(t *testing.T) {
	// K=1 is M/M/1.
	d, err := MMK(0.8, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	mm1, _ := MM1(0.8, 1, 1)
	if !near(d.Wait, mm1.Wait, 1e-12) || !near(d.Response, mm1.Response, 1e-12) {
		t.Errorf("MMK K=1 %+v vs M/M/1 %+v", d, mm1)
	}
	// K=2, a=1 (rho=0.5), mean 1: W = C/(K-a) = 1/3.
	d, err = MMK(1, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !near(d.Wait, 1.0/3, 1e-12) {
		t.Errorf("MMK(1,2,1) W=%g, want 1/3", d.Wait)
	}
	// Mean size 2 doubles the delays at the same load.
	d2, _ := MMK(0.5, 2, 2)
	if !near(d2.Wait, 2.0/3, 1e-12) || !near(d2.Response, 2+2.0/3, 1e-12) {
		t.Errorf("MMK mean 2: %+v", d2)
	}
}

func TestErlangErrors(t *testing.T) {
	_, err := ErlangC(2, 2)
	wantErr(t, err, "a=2", "unstable", "0 <= a < 2")
	_, err = ErlangC(0, 0.5)
	wantErr(t, err, "K=0", "K >= 1")
	_, err = ErlangC(3, -1)
	wantErr(t, err, "a=-1")
	_, err = MMK(3, 2, 1)
	wantErr(t, err, "a=3", "unstable")
	_, err = MMK(1, 2, 0)
	wantErr(t, err, "mean size m=0")
}
