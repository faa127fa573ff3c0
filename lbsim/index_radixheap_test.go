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

// Equal keys pop latest push first (the order the run's idle set, and so
// its uniform draws, depend on; freeScan reproduces it): keys on a coarse
// grid, so that most have ties, checked against a list sorted by key, then
// by push, the latest first.
func TestRadixHeapTiesLatestFirst(t *testing.T) {
	r := NewStream(5, 6)
	var h radixHeap
	type entry struct {
		key float64
		k   int
	}
	var pending []entry
	now := 0.0
	for i := range 100_000 {
		now += float64(r.IntN(3)) / 8
		for {
			k, key, ok := h.popUntil(now)
			if !ok {
				break
			}
			if want := pending[0]; k != want.k || key != want.key {
				t.Fatalf("step %d: popped server %d at %v, want %d at %v", i, k, key, want.k, want.key)
			}
			pending = pending[1:]
		}
		e := entry{now + float64(r.IntN(64))/8*math.Pow(2, float64(r.IntN(20)-4)), i}
		h.push(e.k, e.key)
		j := 0
		for j < len(pending) && pending[j].key < e.key {
			j++
		}
		pending = slices.Insert(pending, j, e) // before the equal keys pushed earlier
	}
}
