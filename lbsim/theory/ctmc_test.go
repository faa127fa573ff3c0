package theory

import (
	"math"
	"testing"
)

// birthDeath is the M/M/c queue (arrival rate lambda, c servers of rate 1)
// as a Chain on the number of jobs n <= maxN.
func birthDeath(lambda float64, c, maxN int, levels bool) Chain[int] {
	ch := Chain[int]{
		Next: func(n int, emit func(int, float64)) {
			emit(n+1, lambda)
			if n > 0 {
				emit(n-1, float64(min(n, c)))
			}
		},
		Keep: func(n int) bool { return n <= maxN },
	}
	if levels {
		ch.Level = func(n int) int { return n }
	}
	return ch
}

// The solver against the closed forms of M/M/1 (E[N] = rho/(1-rho)) and
// M/M/2 (Erlang C: E[N] = lambda E[W] + lambda), with and without levels.
func TestChainBirthDeath(t *testing.T) {
	for _, tc := range []struct {
		c   int
		rho float64
	}{{1, 0.5}, {1, 0.9}, {2, 0.5}, {2, 0.9}} {
		lambda := tc.rho * float64(tc.c)
		exact := must(MMK(lambda, tc.c, 1))
		wantN := lambda * exact.Response
		for _, levels := range []bool{false, true} {
			st, err := birthDeath(lambda, tc.c, 600, levels).Solve()
			if err != nil {
				t.Fatal(err)
			}
			gotN := st.Mean(func(n int) float64 { return float64(n) })
			if !near(gotN, wantN, 1e-8) || st.BoundaryMass > 1e-20 || st.Residual > 1e-10 {
				t.Errorf("M/M/%d rho=%v levels=%v: E[N] %.12g, exact %.12g (boundary %g, residual %g, %d sweeps)",
					tc.c, tc.rho, levels, gotN, wantN, st.BoundaryMass, st.Residual, st.Sweeps)
			}
		}
	}
	// A two-dimensional chain: two independent M/M/1 queues (rates 0.3 and
	// 0.6) on a box, levelled by the total; E[N] is the sum of the two.
	two := Chain[[2]int]{
		Next: func(s [2]int, emit func([2]int, float64)) {
			for i, l := range []float64{0.3, 0.6} {
				up, down := s, s
				up[i]++
				emit(up, l)
				if s[i] > 0 {
					down[i]--
					emit(down, 1)
				}
			}
		},
		Keep:  func(s [2]int) bool { return s[0] <= 80 && s[1] <= 80 },
		Level: func(s [2]int) int { return s[0] + s[1] },
	}
	st, err := two.Solve()
	if err != nil {
		t.Fatal(err)
	}
	got := st.Mean(func(s [2]int) float64 { return float64(s[0] + s[1]) })
	if want := 0.3/0.7 + 0.6/0.4; !near(got, want, 1e-8) {
		t.Errorf("two M/M/1: E[N] %.12g, exact %.12g (%d states, %d sweeps)", got, want, len(st.States), st.Sweeps)
	}
	// A truncation too tight shows in the boundary mass.
	// M/M/1/10 loses arrivals in state 10: P(N = 10) = rho^10 (1-rho)/(1-rho^11).
	small, err := birthDeath(0.9, 1, 10, true).Solve()
	if want := math.Pow(0.9, 10) * 0.1 / (1 - math.Pow(0.9, 11)); err != nil || !near(small.BoundaryMass, want, 1e-9) {
		t.Errorf("M/M/1/10: boundary mass %v (err %v), want P(N = 10) = %v", small.BoundaryMass, err, want)
	}
}

func TestChainErrors(t *testing.T) {
	_, err := Chain[int]{}.Solve()
	wantErr(t, err, "Next")
	_, err = Chain[int]{Start: 5, Next: func(int, func(int, float64)) {}, Keep: func(n int) bool { return n < 3 }}.Solve()
	wantErr(t, err, "Start", "Keep")
	_, err = Chain[int]{Next: func(n int, emit func(int, float64)) { emit(n+1, -1) }}.Solve()
	wantErr(t, err, "rate -1")
	_, err = Chain[int]{Next: func(n int, emit func(int, float64)) { emit(n+2, 1) }, Keep: func(n int) bool { return n < 10 },
		Level: func(n int) int { return n }}.Solve()
	wantErr(t, err, "level by more than one")
	_, err = birthDeath(0.5, 1, 100, false).withMax(10).Solve()
	wantErr(t, err, "MaxStates=10")
}

func (c Chain[S]) withMax(n int) Chain[S] { c.MaxStates = n; return c }
