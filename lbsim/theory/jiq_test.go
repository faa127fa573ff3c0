package theory

import (
	"math"
	"testing"
)

// With few servers per dispatcher (r -> 0) a dispatcher rarely holds more
// than one token, so the share of dispatchers with one is the mean number
// of tokens, r (1 - rho): q0 = 1 - r (1 - rho) + O(r^2).
func TestJIQWithdrawalsFewServersPerDispatcher(t *testing.T) {
	for _, d := range []int{1, 2, 3} {
		for _, rho := range []float64{0.3, 0.9} {
			r := 1e-3
			q0, err := JIQWithdrawals{Rho: rho, R: r, D: d}.EmptyFraction()
			if err != nil {
				t.Fatal(err)
			}
			if want := 1 - r*(1-rho); math.Abs(q0-want) > r*r {
				t.Errorf("d=%d rho=%v r=%v: q0 = %.9g, want 1 - r(1-rho) = %.9g within r^2", d, rho, r, q0, want)
			}
		}
	}
}

// The general recursion run at d = 1 must agree with the product form it
// reduces to: two computations of the same fixed point.
func TestJIQWithdrawalsProductForm(t *testing.T) {
	for _, r := range []float64{0.5, 2, 10, 50} {
		for _, rho := range []float64{0.5, 0.9, 0.99} {
			j := JIQWithdrawals{Rho: rho, R: r, D: 1}
			want := j.fixedPoint()
			for _, q := range []float64{want / 2, want, math.Min(0.99, 2*want)} {
				tau := findTau(t, j, q)
				if _, m := j.lengthsSampled(q, tau); math.Abs(m-j.meanTokens(q)) > 1e-6*(1+m) {
					t.Errorf("r=%v rho=%v q=%v: recursion mean %.10g, product form %.10g", r, rho, q, m, j.meanTokens(q))
				}
			}
		}
	}
}

func findTau(t *testing.T, j JIQWithdrawals, q float64) float64 {
	t.Helper()
	over := func(tau float64) float64 { left, _ := j.lengthsRandom(q, tau); return left }
	hi := j.R
	for over(hi) > 0 {
		hi *= 2
	}
	return bisectRoot(over, 0, hi)
}

// More servers per dispatcher, or a choice of I-queues, leave fewer
// dispatchers empty; at r -> inf no job is sent at random (the wait
// vanishes, Lu et al.'s limit for a fixed number of dispatchers).
func TestJIQWithdrawalsMonotone(t *testing.T) {
	for _, rho := range []float64{0.5, 0.9} {
		prev := [2]float64{1, 1}
		for _, r := range []float64{0.5, 1, 2, 5, 10, 100, 1000} {
			for i, d := range []int{1, 2} {
				q0, _ := JIQWithdrawals{Rho: rho, R: r, D: d}.EmptyFraction()
				if q0 >= prev[i] {
					t.Errorf("rho=%v d=%d: q0 = %v at r=%v, not below %v at the r before", rho, d, q0, r, prev[i])
				}
				prev[i] = q0
			}
			if prev[1] >= prev[0] {
				t.Errorf("rho=%v r=%v: q0 with d=2 %v not below d=1's %v", rho, r, prev[1], prev[0])
			}
		}
		if prev[0] > 0.01 {
			t.Errorf("rho=%v r=1000: q0 = %v, want below 0.01", rho, prev[0])
		}
	}
}

func TestJIQWithdrawalsInvalid(t *testing.T) {
	for _, j := range []JIQWithdrawals{{Rho: 1, R: 1, D: 1}, {Rho: 0.5, R: 0, D: 1}, {Rho: 0.5, R: math.NaN(), D: 1}, {Rho: 0.5, R: 1, D: 0}} {
		if _, err := j.EmptyFraction(); err == nil {
			t.Errorf("%+v: no error", j)
		}
	}
}
