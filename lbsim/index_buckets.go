package lbsim

// countBuckets keeps servers ordered by an integer count (jobs in system),
// so that changing a count by one and drawing uniformly among the servers
// with the fewest jobs cost O(1). Servers sit in ord sorted by count;
// first[c] is the index in ord of the first server with count >= c. A
// server's count and place in ord share a record (at): at large K, or with
// an index a dispatcher, a move misses the cache once, not twice. The
// buckets hold all K servers or some (newCountBucketsOf: SED's speed
// groups, sharing one at), named by their index among the K either way.
type countBuckets struct {
	at      []bucketSlot // per server of the K
	ord     []int32
	first   []int32
	members []int32 // its servers in increasing order; nil: all of at
	// min is the least count, kept here: with an index a dispatcher the one
	// at hand is often out of cache, and ord[0]'s record would be a miss more.
	min int32
}

// bucketSlot is a server's count and its index in ord.
type bucketSlot struct{ cnt, pos int32 }

func newCountBuckets(k int) *countBuckets {
	b := &countBuckets{at: make([]bucketSlot, k), ord: make([]int32, k)}
	b.reset(nil)
	return b
}

// newCountBucketsOf keeps the servers members (increasing) of the K whose
// records are at.
func newCountBucketsOf(at []bucketSlot, members []int32) *countBuckets {
	b := &countBuckets{at: at, ord: make([]int32, len(members)), members: members}
	b.reset(nil)
	return b
}

// server is the i-th of its servers in increasing order.
func (b *countBuckets) server(i int) int32 {
	if b.members == nil {
		return int32(i)
	}
	return b.members[i]
}

// touch loads server k's record and returns its count.
func (b *countBuckets) touch(k int) uint64 { return uint64(b.at[k].cnt) }

// least is the smallest count.
func (b *countBuckets) least() int32 { return b.min }

// counts appends its servers' counts to out, in increasing order of server.
func (b *countBuckets) counts(out []int32) []int32 {
	for i := range b.ord {
		out = append(out, b.at[b.server(i)].cnt)
	}
	return out
}

// reset sets its servers' counts (counts[k] for server k; all zero when
// counts is nil) by a counting sort.
func (b *countBuckets) reset(counts []int32) {
	max := int32(0)
	for i := range b.ord {
		k := b.server(i)
		b.at[k].cnt = 0
		if counts != nil {
			b.at[k].cnt = counts[k]
		}
		max = maxI32(max, b.at[k].cnt)
	}
	if c := cap(b.first); c > 1<<16 && c > 4*int(max) { // counts rebased far down: free the old buckets
		b.first = nil
	}
	b.first = append(b.first[:0], make([]int32, max+2)...)
	for i := range b.ord {
		b.first[b.at[b.server(i)].cnt+1]++
	}
	for c := 1; c < len(b.first); c++ {
		b.first[c] += b.first[c-1]
	}
	next := append([]int32(nil), b.first...)
	for i := range b.ord {
		k := b.server(i)
		c := b.at[k].cnt
		b.ord[next[c]] = k
		b.at[k].pos = next[c]
		next[c]++
	}
	if len(b.ord) > 0 {
		b.min = b.at[b.ord[0]].cnt
	}
}

func maxI32(a, b int32) int32 {
	if a > b {
		return a
	}
	return b
}

// swap moves server k from place i in ord to place j, and the server at j
// to i. Knowing k, it only writes ord[i]: at large K a cache miss fewer (i
// is anywhere in ord, j at a bucket's edge, where the moves are).
func (b *countBuckets) swap(k, i, j int32) {
	o := b.ord[j]
	b.ord[i], b.ord[j] = o, k
	b.at[o].pos = i
	b.at[k].pos = j
}

// inc adds one to server k's count: k moves to the end of its bucket, which
// then becomes the start of the next one.
func (b *countBuckets) inc(k int) { b.incAt(int32(k), b.at[k].cnt, b.at[k].pos) }

// incAt is inc of server k, whose count is c and place in ord i.
func (b *countBuckets) incAt(k, c, i int32) {
	if int(c+2) >= len(b.first) {
		b.first = append(b.first, int32(len(b.ord)))
	}
	j := b.first[c+1] - 1
	b.swap(k, i, j)
	b.first[c+1]--
	b.at[k].cnt = c + 1
	if c == b.min && b.first[c+1] == 0 { // k was the last at the least
		b.min = c + 1
	}
}

// dec removes one from server k's count (which must be positive).
func (b *countBuckets) dec(k int) {
	a := &b.at[k]
	c := a.cnt
	b.swap(int32(k), a.pos, b.first[c])
	b.first[c]++
	a.cnt = c - 1
	if c == b.min {
		b.min--
	}
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
	_, i := b.draw(r)
	return int(b.ord[i])
}

// draw draws uniformly among the servers with the smallest count: it
// returns that count and the place in ord of the server drawn.
func (b *countBuckets) draw(r *Stream) (m, i int32) {
	m = b.least()
	if n := b.first[m+1]; n > 1 { // servers ord[0:n] have count m
		i = int32(r.IntN(int(n)))
	}
	return m, i
}

// pickInc is pick, then inc of the server picked, whose record it only
// writes, knowing it from the draw: at large K a cache miss less.
func (b *countBuckets) pickInc(r *Stream) int {
	m, i := b.draw(r)
	k := b.ord[i]
	b.incAt(k, m, i)
	return int(k)
}
