package theory

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseMDcQueue is an independent reference for E[Lq] of M/D/c: the
// embedded chain U_{n+1} = (U_n + A_n - c)^+, A_n ~ Poisson(a), truncated
// to 0..M (the mass above M is folded into M), with pi = pi P solved by
// dense LU (gonum/mat) with one balance equation replaced by sum pi = 1.
func denseMDcQueue(t *testing.T, a float64, c, M int) float64 {
	t.Helper()
	pois := make([]float64, M+c+2)
	pois[0] = math.Exp(-a)
	for j := 1; j < len(pois); j++ {
		pois[j] = pois[j-1] * a / float64(j)
	}
	n := M + 1
	A := mat.NewDense(n, n, nil) // A = P^T - I
	for u := 0; u <= M; u++ {
		left := 1.0
		for v := 1; v <= M; v++ {
			j := v - u + c // arrivals needed
			if j < 0 {
				continue
			}
			p := pois[j]
			if v == M {
				p = 0
				for jj := j; jj < len(pois); jj++ {
					p += pois[jj]
				}
				p = math.Max(p, 0)
				p = math.Min(p, left)
			}
			A.Set(v, u, A.At(v, u)+p)
			left -= p
		}
		A.Set(0, u, A.At(0, u)+math.Max(left, 0))
		A.Set(u, u, A.At(u, u)-1)
	}
	pi := denseStationary(t, A, n)
	lq := 0.0
	for u := range n {
		lq += float64(u) * pi.AtVec(u)
	}
	return lq
}

// c = 1 is M/D/1: Pollaczek-Khinchine, E[W] = rho d / (2 (1 - rho)).
func TestMDcOneServerIsPK(t *testing.T) {
	for _, rho := range []float64{0.1, 0.5, 0.9, 0.99} {
		for _, d := range []float64{1, 2.5} {
			lambda := rho / d
			got, err := MDc(lambda, 1, d)
			if err != nil {
				t.Fatal(err)
			}
			pk := must(MD1(lambda, d, 1))
			if w := rho * d / (2 * (1 - rho)); !near(got.Wait, w, 1e-12) || !near(got.Response, pk.Response, 1e-12) {
				t.Errorf("rho=%g d=%g: E[W]=%.15g E[R]=%.15g, P-K %.15g %.15g", rho, d, got.Wait, got.Response, w, pk.Response)
			}
		}
	}
}

// The root formula, Spitzer's series and the dense embedded chain are three
// independent computations of E[Lq]; all must agree wherever each is
// accurate (the roots lose digits at light load and many servers, the
// series converges slowly near rho = 1, the chain needs a wide truncation).
func TestMDcThreeMethods(t *testing.T) {
	for _, c := range []int{2, 3, 5, 10, 20, 50, 100} {
		for _, rho := range []float64{0.3, 0.5, 0.7, 0.9, 0.95} {
			a := rho * float64(c)
			roots, scale := mdcRoots(a, c)
			series, ok := mdcSeries(a, c, 1e-16, 200_000)
			if !ok {
				t.Fatalf("c=%d rho=%g: series did not converge", c, rho)
			}
			if roots > 1e-3*scale && !near(roots, series, 1e-10) {
				t.Errorf("c=%d rho=%g: roots %.15g, series %.15g", c, rho, roots, series)
			}
			got := must(MDc(a, c, 1)) // d = 1: lambda = a
			if !near(got.Wait*a, series, 1e-10) {
				t.Errorf("c=%d rho=%g: MDc E[Lq]=%.15g, series %.15g", c, rho, got.Wait*a, series)
			}
			if c <= 5 && rho <= 0.9 {
				if dense := denseMDcQueue(t, a, c, 400); !near(dense, series, 1e-9) {
					t.Errorf("c=%d rho=%g: dense chain %.15g, series %.15g", c, rho, dense, series)
				}
			}
		}
	}
}

// Robustness: c up to 100 and loads up to 0.99 give finite, positive
// waits below the M/M/c wait (deterministic service waits less) and, near
// rho = 1, close to half of it (heavy traffic: E[W] ~ (c_a^2 + c_s^2)/2
// times the M/M/c value, c_s^2 = 0).
func TestMDcRange(t *testing.T) {
	for _, c := range []int{1, 2, 7, 30, 100, 1000} {
		for _, rho := range []float64{0.05, 0.5, 0.9, 0.99, 0.999} {
			lambda := rho * float64(c)
			got, err := MDc(lambda, c, 1)
			if err != nil {
				t.Fatal(err)
			}
			mmc := must(MMK(lambda, c, 1))
			if !(got.Wait >= 0 && (got.Wait < mmc.Wait || got.Wait == 0 && mmc.Wait == 0)) || got.Response != got.Wait+1 {
				t.Errorf("c=%d rho=%g: E[W]=%g, M/M/c %g", c, rho, got.Wait, mmc.Wait)
			}
			if rho == 0.999 && c <= 100 {
				if r := got.Wait / mmc.Wait; math.Abs(r-0.5) > 0.01 {
					t.Errorf("c=%d rho=0.999: M/D/c / M/M/c wait ratio %.4f, want about 1/2", c, r)
				}
			}
		}
	}
}

func TestMDcErrors(t *testing.T) {
	_, err := MDc(1, 0, 1)
	wantErr(t, err, "c=0", "1 <= c")
	_, err = MDc(-1, 2, 1)
	wantErr(t, err, "lambda=-1")
	_, err = MDc(1, 2, 0)
	wantErr(t, err, "service time d=0")
	_, err = MDc(2, 2, 1)
	wantErr(t, err, "rho=1", "unstable", "c=2")
	d, err := MDc(0, 3, 2)
	if err != nil || d.Wait != 0 || d.Response != 2 {
		t.Errorf("lambda=0: %+v, %v", d, err)
	}
}
