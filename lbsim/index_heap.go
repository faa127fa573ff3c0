package lbsim

// indexHeap is a 4-ary min-heap of servers keyed by a float64 (a free or
// departure time), with O(log K) update of any key. Each entry carries its
// key, so sifting compares neighbouring memory instead of chasing indices,
// and a node's four children share a cache line: at large K, misses are the cost.
type indexHeap struct {
	heap []heapEntry // heap-ordered by key
	pos  []int32     // pos[k] = index of server k in heap, or -1
}

type heapEntry struct {
	key float64
	k   int32
}

const heapArity = 4

func newIndexHeap(k int) *indexHeap {
	// heapArity-1 unused entries before the root put each node's children
	// (indices 4i+1..4i+4) at a multiple of 64 bytes: one cache line, not two.
	backing := make([]heapEntry, heapArity-1, heapArity-1+k)
	h := &indexHeap{pos: make([]int32, k), heap: backing[heapArity-1:]}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *indexHeap) len() int { return len(h.heap) }

// min is the server with the smallest key (the heap must not be empty).
func (h *indexHeap) min() (int, float64) { e := h.heap[0]; return int(e.k), e.key }

func (h *indexHeap) has(k int) bool { return h.pos[k] >= 0 }

// set inserts k with the given key or moves it to its new place.
func (h *indexHeap) set(k int, key float64) {
	i := int(h.pos[k])
	if i < 0 {
		h.heap = append(h.heap, heapEntry{key, int32(k)})
		h.up(len(h.heap) - 1)
		return
	}
	old := h.heap[i].key
	h.heap[i].key = key
	if key < old {
		h.up(i)
	} else {
		h.down(i)
	}
}

// remove takes k out of the heap.
func (h *indexHeap) remove(k int) {
	i := int(h.pos[k])
	last := len(h.heap) - 1
	h.pos[k] = -1
	if i == last {
		h.heap = h.heap[:last]
		return
	}
	h.heap[i] = h.heap[last]
	h.heap = h.heap[:last]
	h.down(i)
	h.up(i)
}

// up moves the entry at i towards the root to its place (a hole is carried
// up and filled once, instead of swapping at each level).
func (h *indexHeap) up(i int) {
	e := h.heap[i]
	for i > 0 {
		p := (i - 1) / heapArity
		if h.heap[p].key <= e.key {
			break
		}
		h.heap[i] = h.heap[p]
		h.pos[h.heap[i].k] = int32(i)
		i = p
	}
	h.heap[i] = e
	h.pos[e.k] = int32(i)
}

// down moves the entry at i towards the leaves to its place.
func (h *indexHeap) down(i int) {
	e := h.heap[i]
	n := len(h.heap)
	for {
		c := heapArity*i + 1
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < min(c+heapArity, n); j++ {
			if h.heap[j].key < h.heap[m].key {
				m = j
			}
		}
		if e.key <= h.heap[m].key {
			break
		}
		h.heap[i] = h.heap[m]
		h.pos[h.heap[i].k] = int32(i)
		i = m
	}
	h.heap[i] = e
	h.pos[e.k] = int32(i)
}

// indexSet is a set of server indices with O(1) add, remove and uniform pick.
type indexSet struct {
	items []int32
	pos   []int32 // pos[k] = index of k in items, or -1
}

func newIndexSet(k int) *indexSet {
	s := &indexSet{pos: make([]int32, k), items: make([]int32, 0, k)}
	for i := range s.pos {
		s.pos[i] = -1
	}
	return s
}

func (s *indexSet) has(k int) bool { return s.pos[k] >= 0 }

func (s *indexSet) add(k int) {
	s.pos[k] = int32(len(s.items))
	s.items = append(s.items, int32(k))
}

func (s *indexSet) remove(k int) { s.removeAt(s.pos[k]) }

// removeAt removes the server at place i of items.
func (s *indexSet) removeAt(i int32) {
	k, last := s.items[i], s.items[len(s.items)-1]
	s.items[i] = last
	s.pos[last] = i
	s.items = s.items[:len(s.items)-1]
	s.pos[k] = -1
}
