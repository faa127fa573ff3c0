package lbsim

import (
	"math"
	"slices"
)

// histogram counts waiting times in logarithmic bins of fixed memory: 64
// bins per power of two over a window of histSpan = 70 octaves (a factor
// 1e21), and bin 0 for zero. The window is placed at the first positive
// value (histBelow octaves above its bottom) and slides up whenever a larger
// value would fall above it, folding the octaves it leaves into bin 0: the
// largest values are always resolved, whatever their magnitude, and only
// values 70 octaves below the largest are reported as 0. A quantile is
// interpolated within its bin (quantiles), within 1/64 (1.6%) at worst.
//
// A bin is the top 17 bits of the value's float64 encoding (11 exponent and
// 6 mantissa bits). Bin 0 is spread over the histZero first counters and
// the window's bins follow: encoding base is counts[histZero]. Adding a
// value in the window takes no data-dependent branch: at moderate load
// whether a job waits is a coin toss the processor would mispredict.
type histogram struct {
	counts []int64
	base   int // encoding of the window's first bin; unplaced until the first positive value
	// atoms are the values that may hold positive probability, ascending
	// (responseAtoms): quantiles reports such a value itself, not a point
	// interpolated across its bin.
	atoms []float64
}

const (
	histSub    = 64 // bins per octave (6 mantissa bits)
	histSpan   = 70 // octaves in the window
	histBelow  = 30 // octaves below the first value when the window is placed
	histZero   = 8  // counters of bin 0, see addFast
	histLen    = histZero + histSpan*histSub
	unplaced   = -1 << 40 // a base that sends every value to the slow path
	histShift  = 46       // 64 - 17: the bits below a bin
	histNumber = 0x1ffff  // 17 bits: exponent and top mantissa bits, no sign
)

func newHistogram() histogram {
	return histogram{counts: make([]int64, histLen), base: unplaced}
}

// code is the bin encoding of x >= 0 (no sign bit); 0 for zero.
func code(x float64) int { return int(math.Float64bits(x)>>histShift) & histNumber }

func (h *histogram) add(x float64) {
	if !h.addFast(x, 0) {
		h.addSlow(x)
	}
}

// addFast adds x if it falls in the window (or below it) and reports
// whether it did: small enough to be inlined in the run loop, which calls
// addSlow only when it must. A zero goes to bin 0's counter slot (mod
// histZero): the run loop passes the job's number, so that a run of jobs
// that do not wait increments different counters, not one store waiting
// on the previous (a dependency the processor mispredicts).
func (h *histogram) addFast(x float64, slot int) bool {
	i := code(x) - h.base + histZero
	if i >= len(h.counts) {
		return false
	}
	// i, or below the window (i < histZero) the slot's counter of bin 0,
	// chosen by a mask, not a branch; i ^ (i^slot)&below holds one live
	// value fewer than i&^below | slot&below.
	below := (i - histZero) >> 63 // all ones when i < histZero
	h.counts[i^(i^slot&(histZero-1))&below]++
	return true
}

// addFastPositive is addFast for a value never 0 (a response time): no
// zeros to spread, so a value below the window goes to bin 0's first counter.
func (h *histogram) addFastPositive(x float64) bool {
	i := code(x) - h.base + histZero
	if i >= len(h.counts) {
		return false
	}
	h.counts[max(i, 0)]++ // i < histZero: below the window, bin 0
	return true
}

// count is the number of values added.
func (h *histogram) count() int64 {
	n := int64(0)
	for _, c := range h.counts {
		n += c
	}
	return n
}

// zeros is the count of bin 0.
func (h *histogram) zeros() int64 {
	n := int64(0)
	for _, c := range h.counts[:histZero] {
		n += c
	}
	return n
}

// addSlow places the window at the first positive value, or slides it up.
func (h *histogram) addSlow(x float64) {
	c := code(x)
	switch {
	case c == 0:
		h.counts[0]++
		return
	case h.base == unplaced:
		h.base = max(c-histBelow*histSub, 1)
	default:
		// Leave 10 octaves of headroom so that a growing queue slides the
		// window a few times, not at every new maximum.
		h.slide(c - (histSpan-10)*histSub)
	}
	h.counts[c-h.base+histZero]++
}

// slide moves the window's bottom up to base (if below), folding what it leaves into bin 0.
func (h *histogram) slide(base int) {
	d := base - h.base
	if d <= 0 {
		return
	}
	n := len(h.counts)
	for i := histZero; i < min(histZero+d, n); i++ {
		h.counts[0] += h.counts[i]
	}
	if d < n-histZero {
		copy(h.counts[histZero:], h.counts[histZero+d:])
		clear(h.counts[n-d:])
	} else {
		clear(h.counts[histZero:])
	}
	h.base = base
}

// merge adds o's counts on the higher of both windows, so any order of merges gives the same.
func (h *histogram) merge(o histogram) {
	h.counts[0] += o.zeros()
	if o.base == unplaced {
		return
	}
	if h.base == unplaced {
		h.base = o.base
	}
	h.slide(o.base)
	for i, c := range o.counts[histZero:] {
		if c != 0 {
			h.counts[max(i+o.base-h.base+histZero, 0)] += c
		}
	}
}

// quantiles sets out[i] to the ps[i]-quantile (ps increasing), in one pass:
// the point where the counts' distribution function, spread evenly within
// each bin (1/64 of an octave, across which a smooth density is nearly
// flat), reaches ps[i] (0 when bin 0 reaches it, NaN with no count). A bin
// holding one of atoms is split (within): the quantile of a law with an
// atom, a median response of exactly 1 under det:x=1 sizes, is the atom.
func (h *histogram) quantiles(ps, out []float64) {
	total, j := h.count(), 0
	if total == 0 {
		for ; j < len(ps); j++ {
			out[j] = math.NaN()
		}
		return
	}
	cum := float64(h.zeros())
	for ; j < len(ps) && ps[j]*float64(total) <= cum; j++ {
		out[j] = 0
	}
	for i, c := range h.counts[histZero:] {
		if c == 0 {
			continue
		}
		next := cum + float64(c)
		for ; j < len(ps) && ps[j]*float64(total) <= next; j++ {
			out[j] = h.within(i, ps[j]*float64(total)-cum)
		}
		cum = next
	}
	for ; j < len(ps); j++ { // rounding left p = 1 above the last count
		out[j] = math.NaN()
	}
}

// edges are the bounds [lo, hi) of the window's bin i.
func (h *histogram) edges(i int) (lo, hi float64) {
	return math.Float64frombits(uint64(h.base+i) << histShift), math.Float64frombits(uint64(h.base+i+1) << histShift)
}

// within is the point of the window's bin i below which r of its counts
// lie (0 < r <= its count): see split.
func (h *histogram) within(i int, r float64) float64 {
	lo, hi, c, a, smooth, ok := h.split(i)
	if !ok {
		return lo + r/c*(hi-lo)
	}
	below, atAtom := smooth*(a-lo)/(hi-lo), c-smooth
	switch {
	case r <= below:
		return lo + r/below*(a-lo)
	case r <= below+atAtom || smooth-below <= 0:
		return a
	default:
		return a + (r-below-atAtom)/(smooth-below)*(hi-a)
	}
}

// below is the count of values at most x, spread within x's bin as
// quantiles spreads it (within's inverse).
func (h *histogram) below(x float64) float64 {
	n := float64(h.zeros())
	if x <= 0 || h.base == unplaced {
		return n
	}
	i := code(x) - h.base
	for _, c := range h.counts[histZero:min(histZero+max(i, 0), len(h.counts))] {
		n += float64(c)
	}
	if i < 0 || histZero+i >= len(h.counts) || h.counts[histZero+i] == 0 {
		return n
	}
	lo, hi, c, a, smooth, ok := h.split(i)
	switch {
	case !ok:
		return n + c*(x-lo)/(hi-lo)
	case x < a:
		return n + smooth*(x-lo)/(hi-lo)
	default:
		return n + smooth*(a-lo)/(hi-lo) + c - smooth + smooth*(x-a)/(hi-lo)
	}
}

// split is the window's bin i: its bounds [lo, hi) and count c, and, with
// one of atoms in it (ok), the atom a and the smooth part of c. Without an
// atom the count is spread evenly over the bin. With one, the bin is a
// smooth part at its neighbours' density, spread evenly over [lo, hi), and
// the rest of its count at a. Two atoms in a bin (1.6% apart) are not told
// apart: spread evenly.
func (h *histogram) split(i int) (lo, hi, c, a, smooth float64, ok bool) {
	lo, hi = h.edges(i)
	c = float64(h.counts[histZero+i])
	if a, ok = h.atomIn(lo, hi); !ok {
		return lo, hi, c, 0, c, false
	}
	density := 0.0 // the neighbours' counts per unit of x, averaged
	for _, n := range []int{i - 1, i + 1} {
		if n >= 0 && histZero+n < len(h.counts) {
			nlo, nhi := h.edges(n)
			density += float64(h.counts[histZero+n]) / (nhi - nlo) / 2
		}
	}
	return lo, hi, c, a, min(c, density*(hi-lo)), true
}

// atomIn is the one atom within [lo, hi], allowing a relative 1e-9 for a
// response computed as a difference of times, clamped into the bin; ok is
// false with none or more than one.
func (h *histogram) atomIn(lo, hi float64) (a float64, ok bool) {
	const slack = 1e-9
	k, _ := slices.BinarySearch(h.atoms, lo*(1-slack))
	if k == len(h.atoms) || h.atoms[k] >= hi*(1+slack) || k+1 < len(h.atoms) && h.atoms[k+1] < hi*(1+slack) {
		return 0, false
	}
	return min(max(h.atoms[k], lo), hi), true
}

// compact is a copy of h's counts from its first non-empty bin to its
// last: a histogram whose window is no wider than its values, for quantiles
// and below (merge into a full one to add to it).
func (h *histogram) compact() histogram {
	w := h.counts[histZero:]
	first := slices.IndexFunc(w, func(c int64) bool { return c != 0 })
	out := histogram{base: h.base, atoms: h.atoms}
	if first < 0 {
		out.counts = make([]int64, histZero)
	} else {
		last := len(w) - 1
		for w[last] == 0 {
			last--
		}
		out.base += first
		out.counts = make([]int64, histZero+last-first+1)
		copy(out.counts[histZero:], w[first:last+1])
	}
	out.counts[0] = h.zeros()
	return out
}

// reset empties h and unplaces its window; its atoms stay.
func (h *histogram) reset() {
	clear(h.counts)
	h.base = unplaced
}
