package lbsim

import (
	"math"
	"slices"
	"unsafe"
)

// metrics accumulates one replication's measurements: per batch and size
// class the job count and the sums of waiting and response times and of
// slowdowns (response over the job's own service time x/mu), the
// handout's quantity, and histograms of the waiting and response times with
// the quantiles of each unit of fineFactor batches (see Quantiles). Batches
// are contiguous blocks of measured jobs. Totals over classes are summed at
// aggregation, so that a job updates one class.
type metrics struct {
	classes int
	batches int

	sums    []classSums // [batch*classes + class]
	handout []float64   // [batch]

	// waitAll and respAll hold every measured job; wait and resp the jobs
	// of the current unit (fineFactor batches in recording order), which
	// endUnit keeps in units (with keepUnits: the interval's units are one
	// replication's) before adding them to the replication's.
	waitAll, respAll, wait, resp histogram
	units                        []unitTimes
	keepUnits                    bool
	unit                         int   // the current unit
	unitEnd                      int   // its end: the first batch of the next unit
	recorded                     int64 // jobs recorded by record

	// bound[b] = b N / batches is batch b's first measured job.
	bound []int64
	// Sequential recording (FCFS measures jobs in arrival order): the
	// batch of the last job recorded, the jobs left in it, and its sums
	// and handout cell at hand, so that a job does not locate them.
	b      int
	left   int64
	row    []classSums
	hand   *float64
	after  []int32 // after[b]: the first non-empty batch after b (the last if none)
	jobsIn []int64 // jobsIn[b]: jobs in a non-empty batch b (-1 for the last: never left)
}

// unitTimes are a unit's waiting and response times (histogram.compact;
// no counts: no job).
type unitTimes struct{ wait, resp histogram }

// classSums are a batch's sums for one size class, one record, not four
// arrays: a job updates one cache line after one bounds check. slow sums
// the slowdowns r/s, s the job's service time x/mu (the time it would take
// alone on its server).
type classSums struct{ n, wait, resp, slow float64 }

// The fields of classSums, for sum.
func jobsIn(s classSums) float64 { return s.n }
func waitIn(s classSums) float64 { return s.wait }
func respIn(s classSums) float64 { return s.resp }
func slowIn(s classSums) float64 { return s.slow }

// sum is the sum of field f over batches [b0, b1) of class col (-1: every
// class), in the order of sums: read in place, as a class of SITA-E's
// 10^5 groups must not cost a copy of every class's sums.
func (m *metrics) sum(b0, b1, col int, f func(classSums) float64) (s float64) {
	for b := b0; b < b1; b++ {
		row := m.sums[b*m.classes:][:m.classes]
		if col >= 0 {
			s += f(row[col])
			continue
		}
		for _, c := range row {
			s += f(c)
		}
	}
	return s
}

// newMetrics measures jobs in batches; atoms are the response times of
// positive probability (responseAtoms), which the quantiles resolve;
// keepUnits keeps each unit's times (the interval's units are batches).
func newMetrics(classes, batches int, jobs int64, atoms []float64, keepUnits bool) *metrics {
	n := batches * classes
	m := &metrics{
		classes: classes, batches: batches,
		sums:    make([]classSums, n),
		handout: make([]float64, batches), bound: make([]int64, batches+2),
		waitAll: newHistogram(), respAll: newHistogram(), wait: newHistogram(), resp: newHistogram(),
		unitEnd: fineFactor, keepUnits: keepUnits,
	}
	m.respAll.atoms, m.resp.atoms = atoms, atoms
	if keepUnits {
		m.units = make([]unitTimes, (batches+fineFactor-1)/fineFactor)
	}
	for b := range batches + 1 {
		m.bound[b] = int64(b) * jobs / int64(batches)
	}
	m.bound[batches+1] = -1 // never reached: recordNext stays in the last batch
	m.left = m.bound[1]
	m.row, m.hand = m.sums[:classes], &m.handout[0]
	m.after, m.jobsIn = make([]int32, batches), make([]int64, batches)
	next := int32(batches - 1)
	m.jobsIn[next] = -1
	for b := batches - 1; b >= 0; b-- {
		m.after[b] = next
		if n := m.bound[b+1] - m.bound[b]; n > 0 && b < batches-1 {
			m.jobsIn[b], next = n, int32(b)
		}
	}
	return m
}

// metricsBytes is the memory newMetrics(classes, batches, ...) allocates
// and a replication's metrics keeps to its end (memoryParts), as it
// allocates it: the per-class sums, and the rest (the batches' bookkeeping,
// the pooled histograms, with keepUnits each unit's two compacted ones,
// histLen bins at worst). The current unit's two histograms are freed at
// the end (endUnit): unitHistograms, charged to the replication running.
func metricsBytes(classes, batches int, keepUnits bool) (sums, rest int64) {
	b := int64(batches)
	sums = allocBytes(int64(unsafe.Sizeof(classSums{})) * b * int64(classes))
	rest = allocBytes(8*b) + allocBytes(8*(b+2)) + allocBytes(4*b) + allocBytes(8*b) + // handout, bound, after, jobsIn
		2*allocBytes(histogramBytes) + 1<<10
	if keepUnits {
		units := (b + fineFactor - 1) / fineFactor
		rest += allocBytes(units*int64(unsafe.Sizeof(unitTimes{}))) + 2*units*allocBytes(histogramBytes)
	}
	return sums, rest
}

// unitHistograms is the memory of a running replication's current unit.
var unitHistograms = 2 * allocBytes(histogramBytes)

// clone is a copy of m's sums, to add others to (ciReplications).
func (m *metrics) clone() *metrics {
	c := *m
	c.sums, c.handout = slices.Clone(m.sums), slices.Clone(m.handout)
	c.row, c.hand = c.sums[c.b*c.classes:][:c.classes], &c.handout[c.b]
	c.waitAll.counts, c.respAll.counts = slices.Clone(m.waitAll.counts), slices.Clone(m.respAll.counts)
	c.units = make([]unitTimes, len(m.units))
	for u, t := range m.units {
		c.units[u] = unitTimes{full(t.wait), full(t.resp)}
	}
	return &c
}

// full is a histogram to merge others into, holding h's counts.
func full(h histogram) histogram {
	out := newHistogram()
	out.atoms = h.atoms
	if h.counts != nil {
		out.merge(h)
	}
	return out
}

// add adds o's sums batch by batch (the same batches and classes), and
// its units' times unit by unit (to a clone: ciReplications).
func (m *metrics) add(o *metrics) {
	for i, o := range o.sums {
		s := &m.sums[i]
		s.n, s.wait, s.resp, s.slow = s.n+o.n, s.wait+o.wait, s.resp+o.resp, s.slow+o.slow
	}
	for b := range m.handout {
		m.handout[b] += o.handout[b]
	}
	m.waitAll.merge(o.waitAll)
	m.respAll.merge(o.respAll)
	for u, t := range o.units {
		if t.wait.counts != nil {
			m.units[u].wait.merge(t.wait)
			m.units[u].resp.merge(t.resp)
		}
	}
}

// batch locates job seq: a guess from the proportion, then corrected.
func (m *metrics) batch(seq int64) int {
	b := min(int(seq*int64(m.batches)/max(m.bound[m.batches], 1)), m.batches-1)
	for b > 0 && seq < m.bound[b] {
		b--
	}
	for b < m.batches-1 && seq >= m.bound[b+1] {
		b++
	}
	return b
}

// recordNext is record(seq, ...) for seq = 0, 1, 2, ... (FCFS) without
// locating the batch; slot is any number that changes from job to job
// (histogram.addFast).
func (m *metrics) recordNext(class int, w, r, service float64, slot int) {
	if m.left == 0 {
		m.enterNext()
	}
	m.sumNext(class, w, r, service)
	if !m.wait.addFast(w, slot) {
		m.wait.addSlow(w)
	}
	if !m.resp.addFast(r, slot) {
		m.resp.addSlow(r)
	}
}

// sumNext is recordNext without the histograms, in a batch entered
// (enterNext when left is 0). The run loops write recordNext out as that
// test, sumNext and histogram.addFast, which inline where recordNext does
// not: a call in a run loop saves and reloads every live value around it.
func (m *metrics) sumNext(class int, w, r, service float64) {
	m.left--
	s := &m.row[class]
	s.n++
	s.wait += w
	s.resp += r
	s.slow += r / service
}

// enterNext makes the next non-empty batch current, and ends the unit if
// the batch is in the next: a unit ends only where a batch does, so a job
// tests only for its batch's end.
func (m *metrics) enterNext() {
	m.b, m.left = m.nextBatch(m.b)
	m.row, m.hand = m.sums[m.b*m.classes:][:m.classes], &m.handout[m.b]
	if m.b >= m.unitEnd {
		m.endUnit(m.b / fineFactor)
	}
}

// nextBatch is the first non-empty batch after b and its number of jobs
// (with more batches than jobs some are empty; the last takes the rest).
func (m *metrics) nextBatch(b int) (int, int64) {
	nb := m.after[b]
	return int(nb), m.jobsIn[nb]
}

// jobs is the number of jobs measured.
func (m *metrics) jobs() int64 { return m.bound[m.batches] }

// record adds the measured job number seq (0-based) of the given class,
// of wait w, response r and service time x/mu.
func (m *metrics) record(seq int64, class int, w, r, service float64) {
	s := &m.sums[m.batch(seq)*m.classes+class]
	s.n++
	s.wait += w
	s.resp += r
	s.slow += r / service
	// Units follow the recording order (departures, under PS and SRPT): the unit
	// of the recorded-th job in arrival order.
	if u := m.batch(m.recorded) / fineFactor; u != m.unit {
		m.endUnit(u)
	}
	m.recorded++
	m.wait.add(w)
	m.resp.add(r)
}

// endUnit keeps the unit's times (keepUnits), adds them to the
// replication's and makes next current (-1: the end, histograms freed).
func (m *metrics) endUnit(next int) {
	if m.wait.counts == nil {
		return // ended
	}
	if m.unit >= 0 && m.unit < len(m.units) && m.wait.count() > 0 {
		m.units[m.unit] = unitTimes{m.wait.compact(), m.resp.compact()}
	}
	m.waitAll.merge(m.wait)
	m.respAll.merge(m.resp)
	m.wait.reset()
	m.resp.reset()
	m.unit, m.unitEnd = next, (next+1)*fineFactor
	if next < 0 {
		m.unitEnd = math.MaxInt
		m.wait.counts, m.resp.counts = nil, nil
	}
}

// recordHandoutLast adds the course's quantity (V + X/mu - A_next)^+ of the
// last job recorded by recordNext (known once the next job arrives, added
// before it is recorded) to that job's batch, where the cursor still is.
func (m *metrics) recordHandoutLast(v float64) {
	*m.hand += v
}
