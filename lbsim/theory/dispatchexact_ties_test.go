package theory

import (
	"math"
	"testing"
)

// firstTieChain is JSQ with ties to the lowest-numbered server, written
// here independently of dispatchModel: the state is the vector of queue
// lengths, an arrival joins the first server with the fewest jobs, server
// k completes at rate mu_k; truncated at n jobs per server.
func firstTieChain(lambda float64, mu []float64, n int) Chain[[3]int] {
	k := len(mu)
	return Chain[[3]int]{
		Next: func(s [3]int, emit func([3]int, float64)) {
			best := 0
			for j := 1; j < k; j++ {
				if s[j] < s[best] {
					best = j
				}
			}
			t := s
			t[best]++
			emit(t, lambda)
			for j := range k {
				if s[j] > 0 {
					t := s
					t[j]--
					emit(t, mu[j])
				}
			}
		},
		Keep:  func(s [3]int) bool { return s[0] <= n && s[1] <= n && s[2] <= n },
		Level: func(s [3]int) int { return s[0] + s[1] + s[2] },
	}
}

// DispatchExact with First matches the chain written above (speeds 2, 1
// and 2, 1, 1), and differs from uniform ties at unequal speeds; at equal
// speeds the tie rule leaves the count process, hence the mean, unchanged.
func TestDispatchExactTiesFirst(t *testing.T) {
	for _, c := range []struct {
		lambda float64
		mu     []float64
	}{{2.1, []float64{2, 1}}, {2.8, []float64{2, 1, 1}}, {2.1, []float64{1, 1, 1}}} {
		st, err := firstTieChain(c.lambda, c.mu, 40).Solve()
		if err != nil || st.BoundaryMass > 1e-10 {
			t.Fatalf("chain %v: %v, boundary %g", c.mu, err, st.BoundaryMass)
		}
		want := st.Mean(func(s [3]int) float64 { return float64(s[0] + s[1] + s[2]) }) / c.lambda
		first, err := DispatchExact(DispatchRule{First: true}, c.lambda, c.mu)
		if err != nil {
			t.Fatal(err)
		}
		random, err := DispatchExact(DispatchRule{}, c.lambda, c.mu)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(first.Response-want) > 1e-8*want {
			t.Errorf("JSQ first, lambda %g, speeds %v: E[R] %.10f, the chain written here %.10f", c.lambda, c.mu, first.Response, want)
		}
		equal := c.mu[0] == c.mu[len(c.mu)-1]
		if d := math.Abs(first.Response - random.Response); equal != (d < 1e-8) {
			t.Errorf("speeds %v: first %.10f, random %.10f: want equal only at equal speeds", c.mu, first.Response, random.Response)
		}
	}
	if _, err := DispatchExact(DispatchRule{JIQ: true, First: true}, 1, []float64{1, 1}); err == nil {
		t.Error("JIQ with First: no error")
	}
}
