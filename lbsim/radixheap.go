package lbsim

import (
	"math"
	"math/bits"
)

// radixHeap is a monotone priority queue of servers keyed by a time (Ahuja,
// Mehlhorn, Orlin and Tarjan 1990): the keys pushed are never below the last
// key popped, as FCFS departure times pushed at an arrival time t are never
// below the departures popped up to t. A key lives in the bucket named by the
// highest bit in which its float64 encoding differs from the last popped key's
// (non-negative floats order as their encodings); popping the minimum moves
// the entries of one bucket to lower ones. An entry moves at most 64 times,
// and pushes and moves append to a few slices read in order, where a binary
// or 4-ary heap of K = 100,000 servers misses the cache at every level.
type radixHeap struct {
	last    uint64          // encoding of the last key popped: every key is >= it
	buckets [65][]heapEntry // buckets[0]: keys equal to last
	n       int
	// The minimum of the lowest non-empty bucket above 0, when lowOK: peeked at
	// every arrival, so kept up to date rather than searched for each time.
	low    int
	lowMin float64
	lowOK  bool
}

func (h *radixHeap) bucket(key float64) int { return bits.Len64(math.Float64bits(key) ^ h.last) }

// push adds server k with a key >= the last key popped.
func (h *radixHeap) push(k int, key float64) {
	b := h.bucket(key)
	h.buckets[b] = append(h.buckets[b], heapEntry{key, int32(k)})
	h.n++
	if h.lowOK && b > 0 {
		switch {
		case b < h.low:
			h.low, h.lowMin = b, key
		case b == h.low:
			h.lowMin = min(h.lowMin, key)
		}
	}
}

// popUntil removes and returns the server with the smallest key if that key
// is at most t; ok is false, and nothing changes, otherwise.
func (h *radixHeap) popUntil(t float64) (k int, ok bool) {
	if h.n == 0 {
		return 0, false
	}
	b0 := h.buckets[0]
	if len(b0) == 0 {
		if !h.lowOK {
			h.findLow()
		}
		if h.lowMin > t {
			return 0, false
		}
		// The minimum becomes the last key: its bucket's entries move down.
		moving := h.buckets[h.low]
		h.buckets[h.low] = moving[:0]
		h.last = math.Float64bits(h.lowMin)
		for _, e := range moving {
			b := h.bucket(e.key)
			h.buckets[b] = append(h.buckets[b], e)
		}
		h.lowOK = false
		b0 = h.buckets[0]
	}
	e := b0[len(b0)-1]
	h.buckets[0] = b0[:len(b0)-1]
	h.n--
	return int(e.k), true
}

// findLow locates the lowest non-empty bucket above 0 and its minimum (the
// heap holds an entry and bucket 0 is empty).
func (h *radixHeap) findLow() {
	b := 1
	for len(h.buckets[b]) == 0 {
		b++
	}
	m := math.Inf(1)
	for _, e := range h.buckets[b] {
		m = min(m, e.key)
	}
	h.low, h.lowMin, h.lowOK = b, m, true
}
