package lbsim

// indexHeap is a binary min-heap of server indices keyed by a float64 (a free
// time or a departure time), with O(log K) update of any member's key.
type indexHeap struct {
	key  []float64 // key[k] of server k
	heap []int32   // server indices, heap-ordered by key
	pos  []int32   // pos[k] = index of k in heap, or -1
}

func newIndexHeap(k int) *indexHeap {
	h := &indexHeap{key: make([]float64, k), pos: make([]int32, k), heap: make([]int32, 0, k)}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *indexHeap) len() int { return len(h.heap) }

// min is the server with the smallest key (the heap must not be empty).
func (h *indexHeap) min() (int, float64) { k := h.heap[0]; return int(k), h.key[k] }

func (h *indexHeap) has(k int) bool { return h.pos[k] >= 0 }

// set inserts k with the given key or moves it to its new place.
func (h *indexHeap) set(k int, key float64) {
	if h.pos[k] < 0 {
		h.key[k] = key
		h.pos[k] = int32(len(h.heap))
		h.heap = append(h.heap, int32(k))
		h.up(len(h.heap) - 1)
		return
	}
	old := h.key[k]
	h.key[k] = key
	if key < old {
		h.up(int(h.pos[k]))
	} else {
		h.down(int(h.pos[k]))
	}
}

// remove takes k out of the heap.
func (h *indexHeap) remove(k int) {
	i := int(h.pos[k])
	last := len(h.heap) - 1
	h.swap(i, last)
	h.heap = h.heap[:last]
	h.pos[k] = -1
	if i < last {
		h.down(i)
		h.up(i)
	}
}

func (h *indexHeap) swap(i, j int) {
	h.heap[i], h.heap[j] = h.heap[j], h.heap[i]
	h.pos[h.heap[i]] = int32(i)
	h.pos[h.heap[j]] = int32(j)
}

func (h *indexHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h.key[h.heap[p]] <= h.key[h.heap[i]] {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *indexHeap) down(i int) {
	n := len(h.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.key[h.heap[r]] < h.key[h.heap[l]] {
			m = r
		}
		if h.key[h.heap[i]] <= h.key[h.heap[m]] {
			return
		}
		h.swap(i, m)
		i = m
	}
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

func (s *indexSet) remove(k int) {
	i, last := s.pos[k], s.items[len(s.items)-1]
	s.items[i] = last
	s.pos[last] = i
	s.items = s.items[:len(s.items)-1]
	s.pos[k] = -1
}
