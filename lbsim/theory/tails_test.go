package theory

import (
	"math"
	"testing"
)

// M/M/1 (K = 1): the response is Exp(1/m - lambda) and the wait 0 with
// probability 1 - rho, else the same law; their quantiles in closed form.
func TestMMKTailsMM1(t *testing.T) {
	for _, rho := range []float64{0.5, 0.9} {
		const m = 2.0
		lambda := rho / m
		wait, resp, err := MMKTails(lambda, 1, m)
		if err != nil {
			t.Fatal(err)
		}
		r := 1/m - lambda
		for _, p := range []float64{0.05, 0.5, 0.9, 0.99, 0.999} {
			wantR := -math.Log(1-p) / r
			wantW := 0.0
			if p > 1-rho {
				wantW = math.Log(rho/(1-p)) / r
			}
			if got := Quantile(resp, p); !near(got, wantR, 1e-9) {
				t.Errorf("rho %v: p%v response %v, want %v", rho, p, got, wantR)
			}
			if got := Quantile(wait, p); !near(got, wantW, 1e-9) {
				t.Errorf("rho %v: p%v wait %v, want %v", rho, p, got, wantW)
			}
		}
	}
}

// M/M/K: the tails integrate to the Erlang C means (MMK), E[D] = int P(D > t) dt,
// including the case gamma m = 1 (K = 2, a = 1) where the response's formula
// changes.
func TestMMKTailsMeans(t *testing.T) {
	for _, c := range []struct {
		k      int
		lambda float64
	}{{3, 2.4}, {2, 1}, {10, 9.5}} {
		const m = 1.0
		wait, resp, err := MMKTails(c.lambda, c.k, m)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := MMK(c.lambda, c.k, m)
		integral := func(tail Tail) float64 { // Simpson on [0, 200 E[R]]
			const n = 200_000
			h := 200 * d.Response / n
			s := tail(0) + tail(n*h)
			for i := 1; i < n; i++ {
				s += float64(2+2*(i%2)) * tail(float64(i)*h)
			}
			return s * h / 3
		}
		if got := integral(wait); !near(got, d.Wait, 1e-7) {
			t.Errorf("K=%d lambda=%v: int P(W > t) = %v, want E[W] %v", c.k, c.lambda, got, d.Wait)
		}
		if got := integral(resp); !near(got, d.Response, 1e-7) {
			t.Errorf("K=%d lambda=%v: int P(R > t) = %v, want E[R] %v", c.k, c.lambda, got, d.Response)
		}
	}
	if _, _, err := MMKTails(3, 2, 1); err == nil {
		t.Error("an unstable M/M/2 has tails")
	}
}
