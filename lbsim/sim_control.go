package lbsim

// controlSums are a replication's control variates (stat_control.go) per
// fine batch of measured jobs: the sums of the sizes and of their squares,
// and the arrival times that bound the batch (their difference sums its
// gaps), added a block at a time by drawBlock, not in the per-job loops.
type controlSums struct {
	// first[b] is the index (warm-up included) of batch b's first job;
	// first[batches] ends the last batch.
	first       []int64
	sumX, sumX2 []float64 // [batch]
	// before[b] is the arrival time of job first[b]-1 (0 if first[b] is 0);
	// batch b's gaps sum to before[b+1] - before[b].
	before []float64
	b      int // the first batch not yet complete
}

func newControlSums(m *metrics, warm int64) *controlSums {
	c := &controlSums{first: make([]int64, m.batches+1), sumX: make([]float64, m.batches),
		sumX2: make([]float64, m.batches), before: make([]float64, m.batches+1)}
	for b := range c.first {
		c.first[b] = warm + m.bound[b]
	}
	return c
}

// add records the jobs n, n+1, ... of a block, with arrival times times and
// sizes xs, after the arrival at t (job n-1's). Blocks come in order.
func (c *controlSums) add(n int64, t float64, times, xs []float64) {
	end := n + int64(len(xs))
	for b := c.b; b < len(c.first) && c.first[b]-1 < end; b++ {
		if i := c.first[b] - 1; i == n-1 {
			c.before[b] = t
		} else if i >= n {
			c.before[b] = times[i-n]
		}
	}
	for b := c.b; b < len(c.sumX) && c.first[b] < end; b++ {
		c.addSizes(b, n, xs)
	}
	for c.b < len(c.sumX) && c.first[c.b+1] <= end {
		c.b++
	}
}

// addSizes adds the sizes of batch b's jobs among the block's.
func (c *controlSums) addSizes(b int, n int64, xs []float64) {
	lo, hi := max(c.first[b], n)-n, min(c.first[b+1], n+int64(len(xs)))-n
	if lo < hi {
		s1, s2 := powerSums(xs[lo:hi])
		c.sumX[b] += s1
		c.sumX2[b] += s2
	}
}

// powerSums is the sum of xs and of their squares, in four partial sums:
// with one, each addition would wait for the last.
func powerSums(xs []float64) (s1, s2 float64) {
	var a, q [4]float64
	j := 0
	for ; j+4 <= len(xs); j += 4 {
		a[0], q[0] = a[0]+xs[j], q[0]+xs[j]*xs[j]
		a[1], q[1] = a[1]+xs[j+1], q[1]+xs[j+1]*xs[j+1]
		a[2], q[2] = a[2]+xs[j+2], q[2]+xs[j+2]*xs[j+2]
		a[3], q[3] = a[3]+xs[j+3], q[3]+xs[j+3]*xs[j+3]
	}
	for _, x := range xs[j:] {
		a[0], q[0] = a[0]+x, q[0]+x*x
	}
	return (a[0] + a[1]) + (a[2] + a[3]), (q[0] + q[1]) + (q[2] + q[3])
}
