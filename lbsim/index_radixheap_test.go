package lbsim

import (
	"math"
	"slices"
	"testing"
)

// The radix heap pops what a sorted list of the same pushes would, in the
// same order: 200,000 departures pushed at "arrival times" t (each at or
// after t, as FCFS departures are), popped up to each next arrival, with
// keys from 1e-9 to 1e9 so that entries cross many buckets.
func TestRadixHeapPopsInOrder(t *testing.T) {
	r := NewStream(3, 4)
	var h radixHeap
	var pending []float64 // what a plain sorted list holds
	now := 0.0
	for i := range 200_000 {
		now += r.ExpFloat64() * math.Pow(10, float64(r.IntN(7)-3))
		for {
			k, key, ok := h.popUntil(now)
			if !ok {
				break
			}
			if len(pending) == 0 || pending[0] > now {
				t.Fatalf("step %d: popped server %d at %v, none due", i, k, now)
			}
			if key != pending[0] {
				t.Fatalf("step %d: popped key %v, the smallest is %v", i, key, pending[0])
			}
			pending = pending[1:]
		}
		if len(pending) > 0 && pending[0] <= now {
			t.Fatalf("step %d: %v is due at %v but was not popped", i, pending[0], now)
		}
		key := now + r.ExpFloat64()*math.Pow(10, float64(r.IntN(19)-9))
		h.push(i, key)
		j, _ := slices.BinarySearch(pending, key)
		pending = slices.Insert(pending, j, key)
		if h.n != len(pending) {
			t.Fatalf("step %d: %d entries, want %d", i, h.n, len(pending))
		}
	}
}
