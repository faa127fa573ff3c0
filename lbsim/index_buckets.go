package lbsim

// countBuckets keeps K servers ordered by an integer count (jobs in system)
// so that incrementing or decrementing one count and drawing uniformly among
// the servers with the fewest jobs all cost O(1). Servers sit in ord sorted by
// count; first[c] is the index in ord of the first server with count >= c.
type countBuckets struct {
	cnt   []int32
	ord   []int32
	pos   []int32
	first []int32
}

func newCountBuckets(k int) *countBuckets {
	b := &countBuckets{cnt: make([]int32, k), ord: make([]int32, k), pos: make([]int32, k)}
	b.reset(nil)
	return b
}

// reset sets every count (all zero when counts is nil) by a counting sort.
func (b *countBuckets) reset(counts []int32) {
	k := len(b.cnt)
	max := int32(0)
	for i := range b.cnt {
		b.cnt[i] = 0
		if counts != nil {
			b.cnt[i] = counts[i]
		}
		max = maxI32(max, b.cnt[i])
	}
	if c := cap(b.first); c > 1<<16 && c > 4*int(max) { // counts rebased far down: free the old buckets
		b.first = nil
	}
	b.first = append(b.first[:0], make([]int32, max+2)...)
	for _, c := range b.cnt {
		b.first[c+1]++
	}
	for c := 1; c < len(b.first); c++ {
		b.first[c] += b.first[c-1]
	}
	next := append([]int32(nil), b.first...)
	for i, c := range b.cnt {
		b.ord[next[c]] = int32(i)
		b.pos[i] = next[c]
		next[c]++
	}
	_ = k
}

func maxI32(a, b int32) int32 {
	if a > b {
		return a
	}
	return b
}

func (b *countBuckets) swap(i, j int32) {
	b.ord[i], b.ord[j] = b.ord[j], b.ord[i]
	b.pos[b.ord[i]] = i
	b.pos[b.ord[j]] = j
}

// inc adds one to server k's count: k moves to the end of its bucket, which
// then becomes the start of the next one.
func (b *countBuckets) inc(k int) {
	c := b.cnt[k]
	if int(c+2) >= len(b.first) {
		b.first = append(b.first, int32(len(b.ord)))
	}
	j := b.first[c+1] - 1
	b.swap(b.pos[k], j)
	b.first[c+1]--
	b.cnt[k] = c + 1
}

// dec removes one from server k's count (which must be positive).
func (b *countBuckets) dec(k int) {
	c := b.cnt[k]
	j := b.first[c]
	b.swap(b.pos[k], j)
	b.first[c]++
	b.cnt[k] = c - 1
}

// set moves server k to count c.
func (b *countBuckets) set(k int, c int32) {
	for b.cnt[k] < c {
		b.inc(k)
	}
	for b.cnt[k] > c {
		b.dec(k)
	}
}

// pick draws uniformly among the servers with the smallest count.
func (b *countBuckets) pick(r *Stream) int {
	m := b.cnt[b.ord[0]]
	n := b.first[m+1] // servers ord[0:n] have count m
	if n == 1 {
		return int(b.ord[0])
	}
	return int(b.ord[r.IntN(int(n))])
}
