package lbsim

// metrics accumulates one replication's measurements: per batch and class
// the job count and the sums of waiting and response times, the handout's
// quantity, a waiting-time histogram and per-server busy time. Batches are
// contiguous blocks of measured jobs; with a single replication their means
// give the confidence interval (batch means).
type metrics struct {
	classes  int // size classes; column `classes` holds all jobs
	batches  int
	perBatch float64 // batches / measured jobs

	cnt, sumW, sumR []float64 // [batch*(classes+1) + class]
	handout         []float64 // [batch]
	hist            histogram
}

func newMetrics(classes, batches int, jobs int64) *metrics {
	n := batches * (classes + 1)
	return &metrics{
		classes: classes, batches: batches, perBatch: float64(batches) / float64(jobs),
		cnt: make([]float64, n), sumW: make([]float64, n), sumR: make([]float64, n),
		handout: make([]float64, batches), hist: newHistogram(),
	}
}

func (m *metrics) batch(seq int64) int { return min(int(float64(seq)*m.perBatch), m.batches-1) }

// record adds the measured job number seq (0-based) of the given class.
func (m *metrics) record(seq int64, class int, w, r float64) {
	b := m.batch(seq)
	i := b*m.classes + class
	m.cnt[i]++
	m.sumW[i] += w
	m.sumR[i] += r
	m.hist.add(w)
}

// recordHandout adds the course's quantity (V + X/mu - A_next)^+ of job seq.
func (m *metrics) recordHandout(seq int64, v float64) { m.handout[m.batch(seq)] += v }
