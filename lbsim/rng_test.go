package lbsim

import (
	"math"
	"testing"
)

// The ziggurat's exponential has mean 1, E[X^2] = 2 and P(X > 3) = e^-3;
// IntN is uniform (chi-square over 7 cells).
func TestStreamLaws(t *testing.T) {
	s := NewStream(1, 2)
	const n = 2_000_000
	var m1, m2, tail float64
	for range n {
		x := s.ExpFloat64()
		m1 += x
		m2 += x * x
		if x > 3 {
			tail++
		}
	}
	m1, m2, tail = m1/n, m2/n, tail/n
	// Standard errors: sd(X)/sqrt(n) = 7e-4; sd(X^2) = sqrt(20)/sqrt(n) = 3.2e-3.
	if math.Abs(m1-1) > 0.003 || math.Abs(m2-2) > 0.013 || math.Abs(tail-math.Exp(-3)) > 0.001 {
		t.Errorf("exponential: mean %.5f (1), E[X^2] %.5f (2), P(X>3) %.5f (%.5f)", m1, m2, tail, math.Exp(-3))
	}
	var cells [7]float64
	for range n {
		cells[s.IntN(7)]++
	}
	chi2 := 0.0
	for _, c := range cells {
		chi2 += (c - n/7.0) * (c - n/7.0) / (n / 7.0)
	}
	if chi2 > 22.46 { // 0.999 quantile of chi-square with 6 degrees of freedom
		t.Errorf("IntN(7) cells %v: chi-square %.2f", cells, chi2)
	}
	u := 0.0
	for range n {
		u += s.Float64()
	}
	if math.Abs(u/n-0.5) > 0.001 {
		t.Errorf("Float64 mean %.5f", u/n)
	}
}

// The block fills draw exactly what the one-number methods draw, in the
// same order, and leave the stream where they would: 100,000 draws each,
// so that ExpFloat64's slow path (about 1 draw in 100) is taken.
// belowCount(p) counts Float64's values below p: m 2^-53 < p exactly when
// m < belowCount(p), at the edges (p a multiple of 2^-53, or next to one).
func TestBelowCount(t *testing.T) {
	for _, p := range []float64{0x1p-53 * 12345, 0.004, 0.5, 1 - 0x1p-53, 0x1p-60, 1, 1.5, 0, -0.5, math.NaN()} {
		c := belowCount(p)
		for _, m := range []uint64{0, 1, c - 1, c, c + 1, 1<<53 - 1} {
			if m >= 1<<53 {
				continue
			}
			if got, want := m < c, float64(m)*0x1p-53 < p; got != want {
				t.Errorf("p=%v: %d < belowCount %d is %v, %d 2^-53 < p is %v", p, m, c, got, m, want)
			}
		}
	}
}

func TestFillsDrawAsOneAtATime(t *testing.T) {
	const n = 100_000
	for _, k := range []int{2, 50, 100_000, 1<<31 - 1} {
		one, block := newStream(7, k, 1), newStream(7, k, 1)
		exps, us := make([]float64, n), make([]float64, n)
		ks, as, bs := make([]int32, n), make([]int32, n), make([]int32, n)
		block.fillExp(exps, 2.5)
		block.fillUniform(us)
		block.fillIntN(ks, k)
		block.fillPairs(as, bs, k)
		for i := range n {
			if want := one.ExpFloat64() * 2.5; exps[i] != want {
				t.Fatalf("k=%d: fillExp[%d] = %v, ExpFloat64 %v", k, i, exps[i], want)
			}
		}
		for i := range n {
			if want := one.Float64(); us[i] != want {
				t.Fatalf("k=%d: fillUniform[%d] = %v, Float64 %v", k, i, us[i], want)
			}
		}
		for i := range n {
			if want := one.IntN(k); int(ks[i]) != want {
				t.Fatalf("k=%d: fillIntN[%d] = %v, IntN %v", k, i, ks[i], want)
			}
		}
		for i := range n {
			if a, b := samplePair(one, k); int(as[i]) != a || int(bs[i]) != b {
				t.Fatalf("k=%d: fillPairs[%d] = (%d, %d), samplePair (%d, %d)", k, i, as[i], bs[i], a, b)
			}
		}
		// The size laws' fills against their Rand.
		h2, err := NewH2Balanced(1, 30)
		if err != nil {
			t.Fatal(err)
		}
		for _, law := range []SizeLaw{h2, NewTwoPointBeta(1, 1000, 0.8), TwoPoint{Xm: 1, XM: 3, P: 0.5}, TwoPoint{Xm: 1, XM: 3, P: 0x1p-53 * 12345}, Pareto{Alpha: 1.5, L: 1, H: math.Inf(1)}, Pareto{Alpha: 2.2, L: 0.5, H: 1e6}} {
			xs := make([]float64, n)
			law.(filler).fill(block, xs)
			for i := range n {
				if want := law.Rand(one); xs[i] != want {
					t.Fatalf("k=%d: %v fill[%d] = %v, Rand %v", k, law, i, xs[i], want)
				}
			}
		}
		if a, b := one.Uint64(), block.Uint64(); a != b {
			t.Errorf("k=%d: the streams part after the fills: %x, %x", k, a, b)
		}
	}
}
