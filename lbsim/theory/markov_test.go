package theory

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseJSQd solves the unsymmetrised JSQ-d chain directly: the state is the
// vector of all N queue lengths in 0..B (arrivals to a full queue are lost),
// an arrival picks each of the C(N,d) subsets with equal probability and
// joins a shortest queue of the subset, ties split evenly. pi Q = 0 is solved
// by LU with one balance equation replaced by sum pi = 1. It returns E[R] by
// Little's law with the accepted throughput.
func denseJSQd(t *testing.T, N, d int, rho float64, B int) float64 {
	t.Helper()
	n := 1
	for range N {
		n *= B + 1
	}
	decode := func(s int, q []int) {
		for i := range q {
			q[i] = s % (B + 1)
			s /= B + 1
		}
	}
	encode := func(q []int) int {
		s := 0
		for i := N - 1; i >= 0; i-- {
			s = s*(B+1) + q[i]
		}
		return s
	}
	subsets := subsetsOf(N, d)
	A := mat.NewDense(n, n, nil) // A = Q^T
	q := make([]int, N)
	lambda := float64(N) * rho
	for s := 0; s < n; s++ {
		decode(s, q)
		add := func(to int, r float64) {
			A.Set(to, s, A.At(to, s)+r)
			A.Set(s, s, A.At(s, s)-r)
		}
		for _, sub := range subsets {
			ties := shortestOf(q, sub)
			for _, i := range ties {
				if q[i] < B {
					q[i]++
					add(encode(q), lambda/float64(len(subsets))/float64(len(ties)))
					q[i]--
				}
			}
		}
		for i := range q {
			if q[i] > 0 {
				q[i]--
				add(encode(q), 1)
				q[i]++
			}
		}
	}
	pi := denseStationary(t, A, n)
	jobs, busy := 0.0, 0.0
	for s := 0; s < n; s++ {
		decode(s, q)
		for _, v := range q {
			jobs += pi.AtVec(s) * float64(v)
			if v > 0 {
				busy += pi.AtVec(s)
			}
		}
	}
	return jobs / busy
}

func TestJSQdExactAgainstDense(t *testing.T) {
	cases := []struct {
		N, d int
		rho  float64
		B    int
	}{
		{2, 2, 0.7, 40}, // JSQ with two servers
		{3, 2, 0.5, 12},
		{3, 3, 0.6, 12},
		{2, 1, 0.5, 30},
	}
	for _, c := range cases {
		want := denseJSQd(t, c.N, c.d, c.rho, c.B)
		// Same truncation: the box {max <= B} of the sorted chain.
		box, err := JSQdChain{N: c.N, D: c.d, Rho: c.rho, MaxLen: c.B}.Solve()
		if err != nil {
			t.Fatal(err)
		}
		if !near(box.MeanResponse, want, 1e-9) {
			t.Errorf("N=%d d=%d rho=%g box B=%d: E[R]=%.12f, dense %.12f", c.N, c.d, c.rho, c.B, box.MeanResponse, want)
		}
		// Adaptive truncation: the boundary effect is below 1e-6 here.
		auto, err := JSQdExact(c.N, c.d, c.rho)
		if err != nil {
			t.Fatal(err)
		}
		if !near(auto.MeanResponse, want, 1e-6) || auto.BoundaryMass >= 1e-10 {
			t.Errorf("N=%d d=%d rho=%g adaptive: E[R]=%.12f (boundary %.2g), dense %.12f", c.N, c.d, c.rho, auto.MeanResponse, auto.BoundaryMass, want)
		}
	}
}

func TestJSQdExactRandomIsMM1(t *testing.T) {
	// d = 1 splits Poisson arrivals evenly: every server is M/M/1.
	for _, c := range []struct {
		N   int
		rho float64
	}{{1, 0.5}, {1, 0.9}, {2, 0.5}, {3, 0.5}, {2, 0.7}} {
		e, err := JSQdExact(c.N, 1, c.rho)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 / (1 - c.rho); !near(e.MeanResponse, want, 1e-6) || !near(e.MeanWait, want-1, 1e-5) {
			t.Errorf("N=%d d=1 rho=%g: E[R]=%.10f E[W]=%.10f, want %g", c.N, c.rho, e.MeanResponse, e.MeanWait, want)
		}
	}
}

func TestJSQdExactConsistency(t *testing.T) {
	e, err := JSQdExact(4, 2, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	// Utilisation law: the fraction of busy servers is rho.
	if !near(e.Tail[0], 1, 1e-12) || !near(e.Tail[1], 0.7, 1e-8) {
		t.Errorf("Tail[0]=%g Tail[1]=%g, want 1 and 0.7", e.Tail[0], e.Tail[1])
	}
	// Little's law with throughput N rho, and E[N]/N = sum_i Tail[i].
	if !near(e.MeanJobs/(4*0.7), e.MeanResponse, 1e-8) {
		t.Errorf("Little: E[N]/(N rho)=%g, E[R]=%g", e.MeanJobs/(4*0.7), e.MeanResponse)
	}
	sum := 0.0
	for _, v := range e.Tail[1:] {
		sum += v
	}
	if !near(sum*4, e.MeanJobs, 1e-10) {
		t.Errorf("sum of Tail %g vs E[N]/N %g", sum, e.MeanJobs/4)
	}
	if e.Residual > 1e-10 {
		t.Errorf("residual %g", e.Residual)
	}
}

func TestJSQdExactApproachesMeanField(t *testing.T) {
	// Finite N is worse than the limit and improves towards it as N grows.
	for _, c := range []struct {
		rho float64
		Ns  []int
	}{{0.5, []int{2, 4, 8, 16}}, {0.7, []int{2, 4, 8}}} {
		rho := c.rho
		limit, _ := JSQdMeanField(2, rho)
		prev := math.Inf(1)
		for _, N := range c.Ns {
			e, err := JSQdExact(N, 2, rho)
			if err != nil {
				t.Fatal(err)
			}
			if !(e.MeanResponse < prev && e.MeanResponse > limit.Response) {
				t.Errorf("rho=%g N=%d: E[R]=%.6f, previous %.6f, limit %.6f", rho, N, e.MeanResponse, prev, limit.Response)
			}
			prev = e.MeanResponse
		}
	}
}

func TestJSQdExactErrors(t *testing.T) {
	cases := []struct {
		c    JSQdChain
		frag []string
	}{
		{JSQdChain{N: 0, D: 1, Rho: 0.5}, []string{"N=0", "1 <= N"}},
		{JSQdChain{N: 3, D: 0, Rho: 0.5}, []string{"d=0", "1 <= d <= N"}},
		{JSQdChain{N: 3, D: 4, Rho: 0.5}, []string{"d=4", "d in 1..3"}},
		{JSQdChain{N: 3, D: 2, Rho: 1}, []string{"rho=1", "unstable"}},
		{JSQdChain{N: 3, D: 2, Rho: 0.5, MaxLen: -1}, []string{"MaxLen=-1"}},
		{JSQdChain{N: 3, D: 2, Rho: 0.5, Tol: 2}, []string{"Tol=2"}},
		{JSQdChain{N: 12, D: 2, Rho: 0.99, MaxStates: 1000}, []string{"MaxStates=1000", "raise MaxStates"}},
		{JSQdChain{N: 30, D: 2, Rho: 0.5, MaxLen: 20}, []string{"MaxLen=20", "more than MaxStates"}},
		{JSQdChain{N: 4, D: 2, Rho: 0.9, MaxSweeps: 3}, []string{"MaxSweeps=3"}},
	}
	for _, c := range cases {
		_, err := c.c.Solve()
		wantErr(t, err, c.frag...)
	}
}
