package lbsim

// The automatic warm-up is the MSER rule (White 1997; White, Cobb and
// Spratt 2000): for a series y_1..y_n, discard the first d observations,
// where d in 0..n/2 minimises
//
//	MSER(d) = sum_{i>d} (y_i - ybar_d)^2 / (n-d)^2,
//
// the squared standard error of the truncated mean: truncating more removes
// bias but leaves fewer observations. lbsim applies it to each replication's
// fine batch means (100 by default, so memory does not grow with N): MSER-m
// with batches of N/100 jobs. The truncation is at most half the run.

// mserTruncation returns d for the series y.
func mserTruncation(y []float64) int {
	n := len(y)
	best, bestStat := 0, 0.0
	// Suffix sums give every MSER(d) in O(n).
	var s, s2 float64
	stats := make([]float64, n/2+1)
	for i := n - 1; i >= 0; i-- {
		s += y[i]
		s2 += y[i] * y[i]
		if d := i; d <= n/2 {
			m := float64(n - d)
			ss := s2 - s*s/m
			stats[d] = ss / (m * m)
		}
	}
	for d, st := range stats {
		if d == 0 || st < bestStat {
			best, bestStat = d, st
		}
	}
	return best
}

// mserWarmup is the number of jobs the pilot replication out says to
// discard: the first d of its batches.
func mserWarmup(cfg *Config, out replication) int64 {
	y := batchMeans(cfg, out, 1)
	if len(y) != out.m.batches {
		return 0 // empty batches: too few jobs to judge
	}
	return out.m.bound[mserTruncation(y)]
}
