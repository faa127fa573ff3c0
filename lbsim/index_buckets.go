package lbsim

// countBuckets keeps K servers ordered by an integer count (jobs in system)
// so that incrementing or decrementing one count and drawing uniformly among
// the servers with the fewest jobs all cost O(1). Servers sit in ord sorted by
// count; first[c] is the index in ord of the first server with count >= c.
// A server's count and its place in ord are read and written together, so
// they share a record (at): at large K, or with one index a dispatcher, a
// move then misses the cache once for the server, not twice.
type countBuckets struct {
	at    []bucketSlot // per server
	ord   []int32
	first []int32
}

// bucketSlot is a server's count and its index in ord.
type bucketSlot struct{ cnt, pos int32 }

func newCountBuckets(k int) *countBuckets {
	b := &countBuckets{at: make([]bucketSlot, k), ord: make([]int32, k)}
	b.reset(nil)
	return b
}

// count is server k's count.
func (b *countBuckets) count(k int) int32 { return b.at[k].cnt }

// least is the smallest count.
func (b *countBuckets) least() int32 { return b.at[b.ord[0]].cnt }

// counts appends every server's count to out.
func (b *countBuckets) counts(out []int32) []int32 {
	for _, s := range b.at {
		out = append(out, s.cnt)
	}
	return out
}

// reset sets every count (all zero when counts is nil) by a counting sort.
func (b *countBuckets) reset(counts []int32) {
	max := int32(0)
	for i := range b.at {
		b.at[i].cnt = 0
		if counts != nil {
			b.at[i].cnt = counts[i]
		}
		max = maxI32(max, b.at[i].cnt)
	}
	if c := cap(b.first); c > 1<<16 && c > 4*int(max) { // counts rebased far down: free the old buckets
		b.first = nil
	}
	b.first = append(b.first[:0], make([]int32, max+2)...)
	for _, s := range b.at {
		b.first[s.cnt+1]++
	}
	for c := 1; c < len(b.first); c++ {
		b.first[c] += b.first[c-1]
	}
	next := append([]int32(nil), b.first...)
	for i := range b.at {
		c := b.at[i].cnt
		b.ord[next[c]] = int32(i)
		b.at[i].pos = next[c]
		next[c]++
	}
}

func maxI32(a, b int32) int32 {
	if a > b {
		return a
	}
	return b
}

func (b *countBuckets) swap(i, j int32) {
	b.ord[i], b.ord[j] = b.ord[j], b.ord[i]
	b.at[b.ord[i]].pos = i
	b.at[b.ord[j]].pos = j
}

// inc adds one to server k's count: k moves to the end of its bucket, which
// then becomes the start of the next one.
func (b *countBuckets) inc(k int) {
	c := b.at[k].cnt
	if int(c+2) >= len(b.first) {
		b.first = append(b.first, int32(len(b.ord)))
	}
	j := b.first[c+1] - 1
	b.swap(b.at[k].pos, j)
	b.first[c+1]--
	b.at[k].cnt = c + 1
}

// dec removes one from server k's count (which must be positive).
func (b *countBuckets) dec(k int) {
	c := b.at[k].cnt
	j := b.first[c]
	b.swap(b.at[k].pos, j)
	b.first[c]++
	b.at[k].cnt = c - 1
}

// set moves server k to count c.
func (b *countBuckets) set(k int, c int32) {
	for b.at[k].cnt < c {
		b.inc(k)
	}
	for b.at[k].cnt > c {
		b.dec(k)
	}
}

// pick draws uniformly among the servers with the smallest count.
func (b *countBuckets) pick(r *Stream) int {
	m := b.least()
	n := b.first[m+1] // servers ord[0:n] have count m
	if n == 1 {
		return int(b.ord[0])
	}
	return int(b.ord[r.IntN(int(n))])
}
