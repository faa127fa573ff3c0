package theory

import (
	"math"
	"testing"
)

// The closed-form tail L_i of the remembered queue length against the
// stationary law of the fast chain built transition by transition from the
// fixed point s_i (power iteration): an independent check of the cut
// equations, and of the balance s_{i+1} = rho s_i^d L_i.
func TestJSQdMemoryFastChain(t *testing.T) {
	for _, d := range []int{1, 2, 3} {
		for _, rho := range []float64{0.5, 0.9} {
			s, l := memoryFixedPoint(d, rho)
			n := len(s) // lengths 0..n-1; s_n = 0 beyond
			at := func(i int) float64 {
				if i < len(s) {
					return s[i]
				}
				return 0
			}
			fd := float64(d)
			// P(min of d samples = a, exactly one at a) and P(min = a).
			single := func(a int) float64 { return fd * (at(a) - at(a+1)) * math.Pow(at(a+1), fd-1) }
			minAt := func(a int) float64 { return math.Pow(at(a), fd) - math.Pow(at(a+1), fd) }
			next := make([][]float64, n)
			for from := range n {
				row := make([]float64, n+1)
				row[min(from+1, n)] += math.Pow(at(from+1), fd) // every sample longer: join memory
				row[from] += minAt(from)                        // a sample ties: the other one stays
				for a := 0; a < from; a++ {
					row[a+1] += single(a)          // one shortest sample joined: a+1
					row[a] += minAt(a) - single(a) // two at a: one stays at a
				}
				next[from] = row[:n]
			}
			pi := make([]float64, n)
			pi[0] = 1
			for range 20000 {
				nw := make([]float64, n)
				for from, p := range pi {
					for to, q := range next[from] {
						nw[to] += p * q
					}
				}
				pi = nw
			}
			tail := 1.0
			for i := range l {
				if math.Abs(tail-l[i]) > 1e-9 {
					t.Errorf("d=%d rho=%v: P(l >= %d) = %.12g from the chain, %.12g closed form", d, rho, i, tail, l[i])
				}
				if i+1 < len(s) && !near(s[i+1], rho*math.Pow(s[i], fd)*l[i], 1e-12) {
					t.Errorf("d=%d rho=%v: balance at level %d", d, rho, i)
				}
				tail -= pi[i]
			}
		}
	}
}

// JSQ(d,1) lies between JSQ-d and E[X] = 1; for d = 1 the recursion gives
// s_2 = rho^2 and E[R] = 3.2244 at rho = 0.9 (sum of s_i by hand: 0.9 +
// 0.81 + 0.649 + 0.402 + 0.133 + 0.008 = 2.902, over 0.9), which lbsim's
// simulation at K = 1000 reproduces (lbsim/memory_test.go).
func TestJSQdMemoryMeanField(t *testing.T) {
	if got := must(JSQdMemoryMeanField(1, 0.9)); !near(got.Response, 2.902/0.9, 2e-3) || !near(got.Wait, got.Response-1, 1e-15) {
		t.Errorf("JSQ(1,1) rho=0.9: %+v, hand value 3.224", got)
	}
	if s, _ := memoryFixedPoint(1, 0.7); !near(s[2], 0.49, 1e-12) {
		t.Errorf("JSQ(1,1) rho=0.7: s_2 = %v, want rho^2", s[2])
	}
	for _, rho := range []float64{0.3, 0.5, 0.9, 0.99} {
		for _, d := range []int{1, 2, 3} {
			mem := must(JSQdMemoryMeanField(d, rho))
			plain := must(JSQdMeanField(d, rho))
			if !(mem.Response < plain.Response) || !(mem.Response > 1) {
				t.Errorf("d=%d rho=%v: JSQ(d,1) %.5g, JSQ-d %.5g", d, rho, mem.Response, plain.Response)
			}
		}
	}
	wantErr(t, must2(JSQdMemoryMeanField(0, 0.5)), "d=0")
	wantErr(t, must2(JSQdMemoryMeanField(2, 1)), "rho")
	if r := must(JSQdMemoryMeanField(2, 0)); r.Response != 1 {
		t.Errorf("rho=0: %+v", r)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func must2[T any](_ T, err error) error { return err }
