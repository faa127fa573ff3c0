package lbsim

import (
	"math"
	"math/bits"
)

// radixHeap is a monotone priority queue of servers keyed by a time (Ahuja,
// Mehlhorn, Orlin and Tarjan 1990): the keys pushed are never below the last
// popped, as FCFS departures pushed at an arrival t are never below those
// popped by t. A key lives in the bucket of the highest bit in which its
// float64 encoding differs from the last popped key's (non-negative floats
// order as their encodings); popping the minimum moves one bucket's entries
// to lower ones. An entry moves at most 64 times (16 in a wide heap), and
// the moves append to a few slices read in order, where a binary or 4-ary
// heap of K = 100,000 servers misses the cache at every level.
type radixHeap struct {
	last uint64 // encoding of the last key popped: every key is >= it
	n    int
	used [radixBuckets / 64]uint64 // bit b-1 set when bucket b > 0 is not empty
	wide bool                      // buckets by 4-bit digits (see bucket)
	// The minimum of the lowest non-empty bucket above 0, when lowOK: peeked at
	// every arrival, so kept up to date rather than searched for each time.
	low    int
	lowMin float64
	lowOK  bool

	held *backlog // charged for the buckets' capacity (nil: not charged)

	// soon, if set (far), loads its owner's state of the servers of a small
	// settle, the next to come up: misses one departure after the other at
	// large K, loaded together at the settle they overlap (touched keeps them).
	soon    func(k int32) uint64
	touched uint64

	// Last: the fields above share the first cache lines with the bit-wide
	// buckets, which a wide heap's 6 KB would push away.
	buckets [radixBuckets][]heapEntry // buckets[0]: keys equal to last
}

// soonMax is the largest settle whose servers soon loads: the next
// soonMax departures, whose state stays in cache until they come up.
const soonMax = 512

// A wide heap names a bucket above 0 by a 4-bit digit, not a bit: the
// highest digit in which a key's encoding differs from last's (its level),
// and the key's value there, so that buckets are in their keys' order. A
// settle moves an entry down a level or more, of 16, not 64. Only the far
// servers' heaps are wide: at K <= 1000 wide heaps were slower.
const (
	wideBits     = 4
	radixBuckets = 1 + 64/wideBits<<wideBits // 257; bit-wide buckets use 0..64
)

// far makes h a heap of far servers (beyond farServers): wide buckets, and soon.
func (h *radixHeap) far(soon func(k int32) uint64) { h.wide, h.soon = true, soon }

// bucket is key's bucket: the number of the highest bit in which its
// encoding differs from last's (1-based, 0 if none); or in a wide heap 1 +
// 16 its digit's level + the digit.
func (h *radixHeap) bucket(key float64) int {
	x := math.Float64bits(key)
	d := x ^ h.last
	if !h.wide {
		return bits.Len64(d)
	}
	if d == 0 {
		return 0
	}
	shift := (bits.Len64(d) - 1) &^ (wideBits - 1)
	return 1 + shift/wideBits<<wideBits + int(x>>shift&(1<<wideBits-1))
}

// markUsed records that bucket b > 0 is not empty.
func (h *radixHeap) markUsed(b int) { h.used[(b-1)>>6&3] |= 1 << ((b - 1) & 63) }

// push adds server k with a key >= the last key popped.
func (h *radixHeap) push(k int, key float64) {
	b := h.bucket(key)
	if len(h.buckets[b]) == cap(h.buckets[b]) {
		h.buckets[b] = growHeld(h.held, h.buckets[b])
	}
	h.buckets[b] = append(h.buckets[b], heapEntry{key, int32(k)})
	h.n++
	if b > 0 {
		h.markUsed(b)
	}
	if h.lowOK && b > 0 {
		switch {
		case b < h.low:
			h.low, h.lowMin = b, key
		case b == h.low:
			h.lowMin = min(h.lowMin, key)
		}
	}
}

// popUntil removes and returns the server with the smallest key, and the
// key, if that key is at most t; ok is false, and nothing changes, otherwise.
func (h *radixHeap) popUntil(t float64) (k int, key float64, ok bool) {
	if h.n == 0 {
		return 0, 0, false
	}
	if len(h.buckets[0]) == 0 {
		if !h.lowOK {
			h.findLow()
		}
		if h.lowMin > t {
			return 0, 0, false
		}
		h.settle()
	}
	k, key = h.pop()
	return k, key, true
}

// min is the server with the smallest key, left in the (non-empty) heap. It
// makes that key the last popped, so a caller may use it only when no
// smaller key will be pushed after (LWL and JIQ, when no server is idle).
func (h *radixHeap) min() (int, float64) {
	if len(h.buckets[0]) == 0 {
		if !h.lowOK {
			h.findLow()
		}
		h.settle()
	}
	e := h.buckets[0][len(h.buckets[0])-1]
	return int(e.k), e.key
}

// pop removes an entry of bucket 0 (it must not be empty).
func (h *radixHeap) pop() (int, float64) {
	b0 := h.buckets[0]
	e := b0[len(b0)-1]
	h.buckets[0] = b0[:len(b0)-1]
	h.n--
	return int(e.k), e.key
}

// settle makes the lowest bucket's minimum the last key: that bucket's
// entries move down, the minimum's to bucket 0.
func (h *radixHeap) settle() {
	moving := h.buckets[h.low]
	if h.soon != nil && len(moving) <= soonMax {
		var sum uint64
		for _, e := range moving {
			sum += h.soon(e.k)
		}
		h.touched += sum
	}
	h.buckets[h.low] = moving[:0]
	h.used[(h.low-1)>>6&3] &^= 1 << ((h.low - 1) & 63)
	h.last = math.Float64bits(h.lowMin)
	for _, e := range moving {
		b := h.bucket(e.key)
		if len(h.buckets[b]) == cap(h.buckets[b]) {
			h.buckets[b] = growHeld(h.held, h.buckets[b])
		}
		h.buckets[b] = append(h.buckets[b], e)
		if b > 0 {
			h.markUsed(b)
		}
	}
	h.lowOK = false
}

// findLow locates the lowest non-empty bucket above 0 and its minimum (the
// heap holds an entry and bucket 0 is empty).
func (h *radixHeap) findLow() {
	w := 0
	for h.used[w] == 0 {
		w++
	}
	b := 1 + w*64 + bits.TrailingZeros64(h.used[w])
	es := h.buckets[b]
	m := es[0].key
	for _, e := range es[1:] {
		m = min(m, e.key)
	}
	h.low, h.lowMin, h.lowOK = b, m, true
}
