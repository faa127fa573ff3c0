package theory

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// near reports whether got is within rel relative (or abs 1e-300) of want.
func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

// wantErr fails unless err is non-nil and mentions every fragment.
func wantErr(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error mentioning %q, got nil", fragments)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %q", err, f)
		}
	}
}

// denseStationary solves pi A = 0 with sum(pi) = 1 for the n x n matrix A
// the caller filled with the balance equations (column s: the flow into
// state s), by replacing its last row with ones; A is overwritten.
func denseStationary(t *testing.T, A *mat.Dense, n int) *mat.VecDense {
	t.Helper()
	for j := range n {
		A.Set(n-1, j, 1)
	}
	b := mat.NewVecDense(n, nil)
	b.SetVec(n-1, 1)
	var pi mat.VecDense
	if err := pi.SolveVec(A, b); err != nil {
		t.Fatal(err)
	}
	return &pi
}

// subsetsOf lists every d-subset of 0..n-1, in lexicographic order: the
// samples of a power-of-d policy, enumerated for an independent routing.
func subsetsOf(n, d int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == d {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return out
}

// shortestOf are the servers of sub holding the fewest jobs in q: where a
// JSQ-d sample sends its job, uniformly among them.
func shortestOf(q, sub []int) []int {
	m := math.MaxInt
	for _, k := range sub {
		m = min(m, q[k])
	}
	var ties []int
	for _, k := range sub {
		if q[k] == m {
			ties = append(ties, k)
		}
	}
	return ties
}
