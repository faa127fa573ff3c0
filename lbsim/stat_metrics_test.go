package lbsim

import "testing"

// Batches partition the measured jobs into near-equal contiguous blocks,
// and sequential and random-order recording agree.
func TestMetricsBatches(t *testing.T) {
	for _, tc := range []struct {
		jobs    int64
		batches int
	}{{100, 20}, {7, 3}, {1, 2}, {2_000_003, 20}} {
		seq, rnd := newMetrics(2, tc.batches, tc.jobs, nil, true), newMetrics(2, tc.batches, tc.jobs, nil, true)
		for i := range tc.jobs {
			seq.recordNext(int(i%2), 1, 2, 1, int(i))
			seq.recordHandoutLast(1)
			rnd.record(i, int(i%2), 1, 2, 1)
		}
		total := 0.0
		seqN, rndN := seq.counts(), rnd.counts()
		for b := range tc.batches {
			n := seqN[2*b] + seqN[2*b+1]
			want := float64(seq.bound[b+1] - seq.bound[b])
			if n != want || seqN[2*b] != rndN[2*b] || seqN[2*b+1] != rndN[2*b+1] {
				t.Errorf("N=%d B=%d batch %d: %v jobs (random order %v), want %v", tc.jobs, tc.batches, b, n, rndN[2*b]+rndN[2*b+1], want)
			}
			if lo, hi := tc.jobs/int64(tc.batches), (tc.jobs+int64(tc.batches)-1)/int64(tc.batches); n < float64(lo) || n > float64(hi) {
				t.Errorf("N=%d B=%d batch %d has %v jobs, want %d..%d", tc.jobs, tc.batches, b, n, lo, hi)
			}
			if seq.handout[b] != n {
				t.Errorf("N=%d B=%d batch %d: handout count %v, want %v", tc.jobs, tc.batches, b, seq.handout[b], n)
			}
			total += n
		}
		if total != float64(tc.jobs) {
			t.Errorf("N=%d: batches hold %v jobs", tc.jobs, total)
		}
	}
}

// counts, waits and responses are the sums' columns, in the order of sums,
// for tests that compare runs.
func (m *metrics) counts() []float64    { return m.column(jobsIn) }
func (m *metrics) waits() []float64     { return m.column(waitIn) }
func (m *metrics) responses() []float64 { return m.column(respIn) }

func (m *metrics) column(f func(classSums) float64) []float64 {
	out := make([]float64, len(m.sums))
	for i, s := range m.sums {
		out[i] = f(s)
	}
	return out
}
