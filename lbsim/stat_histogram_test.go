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

// A bin that holds an atom reports the atom, not a point interpolated across
// the bin (1/64 of an octave): 60% of the values exactly at a, the rest
// spread evenly over [1, 3). The atom sits at a bin's bottom (1), inside one
// (1.005), and is not taken for one where the values around it are smooth.
// below is quantiles' inverse.
func TestHistogramAtoms(t *testing.T) {
	for _, a := range []float64{1, 1.005, 2.5} {
		h := newHistogram()
		h.atoms = []float64{0.5, a, 7}
		for range 6000 {
			h.add(a)
		}
		for i := range 4000 {
			h.add(1 + 2*(float64(i)+0.5)/4000)
		}
		// Below a: the smooth part, 2000 per unit of x from 1; then 6000 at a.
		smoothBelow := 2000 * (a - 1) / 10000
		for _, p := range []float64{smoothBelow + 0.01, smoothBelow + 0.3, smoothBelow + 0.59} {
			if got := h.quantile(p); got != a {
				t.Errorf("atom %v: quantile(%v) = %v, want the atom", a, p, got)
			}
		}
		// Off the atom's mass: the smooth part, within 0.5% of its quantile
		// (x with 2000 (x - 1), plus 6000 from a, = p 10000).
		for _, p := range []float64{0.05, 0.95} {
			want, n := a, p*10000
			switch {
			case n < 2000*(a-1):
				want = 1 + n/2000
			case n > 2000*(a-1)+6000:
				want = 1 + (n-6000)/2000
			}
			if got := h.quantile(p); math.Abs(got-want) > 0.005*want {
				t.Errorf("atom %v: quantile(%v) = %v, want %v", a, p, got, want)
			}
		}
		if got := h.below(a); math.Abs(got-(6000+2000*(a-1))) > 2000*a/64+1 {
			t.Errorf("atom %v: below(atom) = %v, want %v", a, got, 6000+2000*(a-1))
		}
	}
	// No atom in the data: an atom the law allows but the values do not
	// hold changes a quantile by less than the bin's width.
	h, plain := newHistogram(), newHistogram()
	h.atoms = []float64{1.5}
	for i := range 10000 {
		x := 1 + 2*(float64(i)+0.5)/10000
		h.add(x)
		plain.add(x)
	}
	if got, want := h.quantile(0.25), plain.quantile(0.25); math.Abs(got-want) > 1.5/64 {
		t.Errorf("no mass at the atom: quantile(0.25) = %v, without atoms %v", got, want)
	}
}
