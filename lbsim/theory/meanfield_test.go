package theory

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

func TestMeanFieldPublished(t *testing.T) {
	// Mitzenmacher, "The power of two choices in randomized load balancing", IEEE TPDS
	// 12(10), 2001 (JSQ-d), and Hellemans and Van Houdt, SIGMETRICS 2018 (LL-d).
	table := []struct {
		rho                  float64
		jsq2, jsq3, ll2, ll3 float64
	}{
		{0.5, 1.2657, 1.1252, 1.1507, 1.0451},
		{0.9, 2.6141, 2.0279, 2.0503, 1.4875},
		{0.99, 5.4320, 3.8578, 3.9966, 2.4810},
	}
	for _, r := range table {
		for _, c := range []struct {
			name string
			f    func(int, float64) (Delay, error)
			d    int
			want float64
		}{
			{"JSQ-2", JSQdMeanField, 2, r.jsq2}, {"JSQ-3", JSQdMeanField, 3, r.jsq3},
			{"LL-2", LLdMeanField, 2, r.ll2}, {"LL-3", LLdMeanField, 3, r.ll3},
		} {
			got, err := c.f(c.d, r.rho)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.Response-c.want) > 0.00005 {
				t.Errorf("%s rho=%g: E[R]=%.5f, want %.4f", c.name, r.rho, got.Response, c.want)
			}
			if !near(got.Wait, got.Response-1, 1e-12) {
				t.Errorf("%s rho=%g: W=%g, want E[R]-1", c.name, r.rho, got.Wait)
			}
		}
	}
}

func TestLLdClosedFormAndIntegral(t *testing.T) {
	for _, rho := range []float64{0.05, 0.3, 0.5, 0.8, 0.9, 0.99, 0.999} {
		// d = 2 closed form.
		got, _ := LLdMeanField(2, rho)
		if want := -math.Log(1-rho*rho) / (rho * rho); !near(got.Response, want, 1e-12) {
			t.Errorf("LL-2 rho=%g: %.15g, want %.15g", rho, got.Response, want)
		}
		for _, d := range []int{1, 2, 3, 5} {
			// Second method: E[W] = int_0^inf Fbar(w)^d dw by Gauss-Legendre
			// quadrature on pieces of the workload axis.
			f := func(w float64) float64 {
				v, err := LLdWorkloadCCDF(d, rho, w)
				if err != nil {
					t.Fatal(err)
				}
				return math.Pow(v, float64(d))
			}
			// The ccdf decays like e^(-w) (d>=2) or e^(-(1-rho)w) (d=1).
			scale := 1.0
			if d == 1 {
				scale = 1 / (1 - rho)
			}
			integral := 0.0
			for a := 0.0; a < 60*scale; a += scale {
				integral += quad.Fixed(f, a, a+scale, 40, quad.Legendre{}, 0)
			}
			ll, _ := LLdMeanField(d, rho)
			if !near(ll.Wait, integral, 1e-9) {
				t.Errorf("LL-%d rho=%g: series W=%.12g, integral %.12g", d, rho, ll.Wait, integral)
			}
		}
	}
}

func TestLLdWorkloadCCDF(t *testing.T) {
	for _, d := range []int{2, 3, 4} {
		for _, rho := range []float64{0.2, 0.7, 0.95} {
			f0, _ := LLdWorkloadCCDF(d, rho, 0)
			if !near(f0, rho, 1e-12) {
				t.Errorf("d=%d rho=%g: Fbar(0)=%g, want rho", d, rho, f0)
			}
			// The ODE Fbar' = -(Fbar - rho Fbar^d), by central differences.
			for _, w := range []float64{0.3, 1, 4} {
				h := 1e-5
				fp, _ := LLdWorkloadCCDF(d, rho, w+h)
				fm, _ := LLdWorkloadCCDF(d, rho, w-h)
				f, _ := LLdWorkloadCCDF(d, rho, w)
				if deriv, want := (fp-fm)/(2*h), -(f - rho*math.Pow(f, float64(d))); !near(deriv, want, 1e-6) {
					t.Errorf("d=%d rho=%g w=%g: Fbar'=%g, want %g", d, rho, w, deriv, want)
				}
			}
		}
	}
}

func TestMeanFieldLimits(t *testing.T) {
	for _, rho := range []float64{0, 0.3, 0.9} {
		// d = 1 is M/M/1 for both policies.
		j, _ := JSQdMeanField(1, rho)
		l, _ := LLdMeanField(1, rho)
		if !near(j.Response, 1/(1-rho), 1e-12) || !near(l.Response, 1/(1-rho), 1e-12) {
			t.Errorf("d=1 rho=%g: JSQ %g LL %g, want %g", rho, j.Response, l.Response, 1/(1-rho))
		}
	}
	// Many choices: both approach 1 (no waiting).
	j, _ := JSQdMeanField(50, 0.9)
	l, _ := LLdMeanField(50, 0.9)
	if j.Wait > 1e-2 || l.Wait > 1e-2 || l.Wait > j.Wait {
		t.Errorf("d=50: JSQ W=%g LL W=%g, want small with LL <= JSQ", j.Wait, l.Wait)
	}
}

func TestMeanFieldErrors(t *testing.T) {
	_, err := JSQdMeanField(0, 0.5)
	wantErr(t, err, "d=0", "d >= 1")
	_, err = JSQdMeanField(2, 1)
	wantErr(t, err, "rho=1", "unstable")
	_, err = LLdMeanField(2, -0.1)
	wantErr(t, err, "rho=-0.1")
	_, err = LLdWorkloadCCDF(2, 0.5, -1)
	wantErr(t, err, "w=-1", "w >= 0")
}
