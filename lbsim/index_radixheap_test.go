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
// Both bucket widths: bits, and a wide heap's 4-bit digits.
func TestRadixHeapPopsInOrder(t *testing.T) {
	for _, wide := range []bool{false, true} {
		t.Run(map[bool]string{false: "bits", true: "wide"}[wide], func(t *testing.T) { radixHeapPopsInOrder(t, wide) })
	}
}

func radixHeapPopsInOrder(t *testing.T, wide bool) {
	r := NewStream(3, 4)
	h := radixHeap{wide: wide}
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
// its uniform draws, depend on; freeScan reproduces it), in both bucket
// widths: keys on a coarse grid, so that most have ties, checked against a
// list sorted by key, then by push, the latest first.
func TestRadixHeapTiesLatestFirst(t *testing.T) {
	for _, wide := range []bool{false, true} {
		r := NewStream(5, 6)
		h := radixHeap{wide: wide}
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
					t.Fatalf("wide %v, step %d: popped server %d at %v, want %d at %v", wide, i, k, key, want.k, want.key)
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
}
