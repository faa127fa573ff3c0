package lbsim

import (
	"math"
	"strings"
	"testing"
)

// JIQ-SQ(d) compares d distinct I-queues (Lu et al.; the mean field of
// theory.JIQWithdrawals). With lengths (0, 1, 2) among M = 3 and d = 2 the
// token joins I-queue 0 whenever the pair holds it (2 of the 3 pairs),
// I-queue 1 for the pair {1, 2}, never I-queue 2; drawn with replacement
// the shares would be 5/9, 3/9, 1/9. With d = M a token always joins a
// shortest I-queue.
func TestIQueuesDistinct(t *testing.T) {
	for _, tc := range []struct {
		m, d int
		n    []int32
		want []float64
	}{
		{3, 2, []int32{0, 1, 2}, []float64{2.0 / 3, 1.0 / 3, 0}},
		{4, 3, []int32{2, 0, 1, 3}, []float64{0, 3.0 / 4, 1.0 / 4, 0}}, // I-queue 2 wins the one triple without 1
		{5, 5, []int32{3, 1, 4, 1, 5}, []float64{0, 0.5, 0, 0.5, 0}},
	} {
		cfg := Config{Servers: 10, Dispatchers: tc.m, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JIQ{D: tc.d}, Jobs: 1, Seed: 1}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		s := newSim(&cfg, 0)
		q := sharedState(s, func(s *sim) *iqueues { return newIQueues(s, tc.d, false) })
		copy(q.n, tc.n)
		const draws = 100_000
		got := make([]float64, tc.m)
		for range draws {
			got[q.choose()]++
		}
		for i, p := range tc.want {
			got[i] /= draws
			if tol := 5 * math.Sqrt(p*(1-p)/draws); math.Abs(got[i]-p) > tol {
				t.Errorf("M=%d d=%d lengths %v: I-queue %d chosen %.4f of the time, want %.4f (distinct draws) within %.4f", tc.m, tc.d, tc.n, i, got[i], p, tol)
			}
		}
		s.srv.held.done()
	}
}

// d is bounded by the I-queues that exist: d > M is refused, naming d, the
// range and a fix, before a run that would count 2d + 1 messages a token
// to I-queues that do not exist (or run for hours drawing them).
func TestIQueuesDBounded(t *testing.T) {
	for _, d := range []int{4, 50, 100_000_000} {
		cfg := Config{Servers: 10, Dispatchers: 3, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JIQ{D: d}, Jobs: 1000}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), "1 <= d <= M = 3") || !strings.Contains(err.Error(), "-dispatchers") {
			t.Errorf("jiq:d=%d with M=3: error %v, want a refusal naming 1 <= d <= M = 3 and a fix", d, err)
		}
	}
	cfg := Config{Servers: 10, Dispatchers: 3, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JIQ{D: 3}, Jobs: 1000}
	if err := cfg.Validate(); err != nil {
		t.Errorf("jiq:d=3 with M=3: %v", err)
	}
	if _, err := ParsePolicy("jiq:d=2147483647"); err == nil || !strings.Contains(err.Error(), "1 <= d <= M") {
		t.Errorf("jiq:d=2147483647: %v, want the range 1 <= d <= M", err)
	}
}
