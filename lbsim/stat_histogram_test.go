package lbsim

import (
	"math"
	"testing"
)

// Quantiles of known values come back within the bins' 0.8%, zeros as 0.
func TestHistogramQuantiles(t *testing.T) {
	h := newHistogram()
	for i := range 1000 {
		h.add(float64(i)) // 0, 1, ..., 999
	}
	for _, q := range []float64{0.0005, 0.25, 0.5, 0.95, 0.999} {
		want := math.Ceil(q*1000) - 1
		if got := h.quantile(q); math.Abs(got-want) > 0.008*want {
			t.Errorf("q=%v: %v, want %v within 0.8%%", q, got, want)
		}
	}
	z := newHistogram()
	z.add(0)
	z.add(0)
	z.add(3)
	if z.quantile(0.5) != 0 || math.Abs(z.quantile(0.9)-3) > 0.03 {
		t.Errorf("zeros: p50 %v p90 %v", z.quantile(0.5), z.quantile(0.9))
	}
	big := newHistogram()
	big.add(1e300)
	if q := big.quantile(0.5); math.Abs(q-1e300) > 0.008*1e300 {
		t.Errorf("1e300 reported as %v", q)
	}
}

// mm1Waits are n M/M/1 waiting times (rate 1, mean size scale, load rho) at
// the evenly spaced probabilities (i+0.5)/n: the exact inverse distribution
// function, so the sample's quantiles are the law's up to 1/n.
func mm1Waits(n int, rho, scale float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		u := (float64(i) + 0.5) / float64(n) // P(W <= w)
		if u > 1-rho {
			out[i] = scale * math.Log(rho/(1-u)) / (1 - rho)
		}
	}
	return out
}

// The window follows the data: M/M/1 quantiles scaled to 1e-300, 1 and
// 1e300 all come back within the bins' 0.8%, and a replication split in two
// merges (either order) to the same quantiles.
func TestHistogramFollowsMagnitude(t *testing.T) {
	const rho, n = 0.6, 100_000
	for _, scale := range []float64{1e-300, 1e-90, 1, 1e90, 1e300} {
		ws := mm1Waits(n, rho, scale)
		// Feed in an order where the largest values come last (a queue
		// that grows), so the window must slide.
		h, a, b := newHistogram(), newHistogram(), newHistogram()
		for i, w := range ws {
			h.add(w)
			if i%2 == 0 {
				a.add(w)
			} else {
				b.add(w)
			}
		}
		ab, ba := newHistogram(), newHistogram()
		ab.merge(a)
		ab.merge(b)
		ba.merge(b)
		ba.merge(a)
		for _, q := range []float64{0.5, 0.9, 0.95, 0.99, 0.999} {
			want := scale * math.Log(rho/(1-q)) / (1 - rho)
			tol := 0.008*want + scale*3/(float64(n)*(1-q)*(1-rho)) // bin + sample spacing
			for name, x := range map[string]*histogram{"one": &h, "a+b": &ab, "b+a": &ba} {
				if got := x.quantile(q); !(math.Abs(got-want) <= tol) {
					t.Errorf("scale %g, %s: p%v = %g, want %g within %.2g", scale, name, q*100, got, want, tol)
				}
			}
		}
		if h.quantile(0.3) != 0 {
			t.Errorf("scale %g: p30 = %g, want 0 (P(W=0) = 1-rho = 0.4)", scale, h.quantile(0.3))
		}
	}
}

// A value more than 70 octaves below the largest is folded into bin 0; the
// largest stays resolved.
func TestHistogramSlidesUp(t *testing.T) {
	h := newHistogram()
	h.add(1)
	h.add(math.Ldexp(1, 80))
	if got := h.quantile(0.5); got != 0 {
		t.Errorf("1 below a window at 2^80: p50 %g, want 0 (folded)", got)
	}
	if got, want := h.quantile(1), math.Ldexp(1, 80); math.Abs(got-want) > want/64 { // a bin: p = 1 is its top
		t.Errorf("p100 %g, want %g", got, want)
	}
}

// Zeros added through the run loop's path land in bin 0's several counters;
// quantiles and merges count them all: 600 zeros and 400 ones have median 0
// and 70th percentile 1, alone or merged with a copy of themselves.
func TestHistogramZeroCounters(t *testing.T) {
	h := newHistogram()
	for n := range 1000 {
		x := 0.0
		if n%5 >= 3 {
			x = 1
		}
		if !h.addFast(x, n) {
			h.addSlow(x)
		}
	}
	if z := h.zeros(); z != 600 {
		t.Fatalf("bin 0 holds %d, want 600", z)
	}
	two := newHistogram()
	two.merge(h)
	two.merge(h)
	for _, g := range []*histogram{&h, &two} {
		if p50, p70 := g.quantile(0.5), g.quantile(0.7); p50 != 0 || math.Abs(p70-1) > 0.008 {
			t.Errorf("p50 %v (want 0), p70 %v (want 1)", p50, p70)
		}
	}
	if z := two.zeros(); z != 1200 {
		t.Errorf("merged bin 0 holds %d, want 1200", z)
	}
}

// quantile is the q-quantile (see quantiles).
func (h *histogram) quantile(q float64) float64 {
	var out [1]float64
	h.quantiles([]float64{q}, out[:])
	return out[0]
}
