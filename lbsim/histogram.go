package lbsim

import "math"

// histogram counts waiting times in logarithmic bins of fixed memory: 64 bins
// per power of two from 2^-30 to 2^40, and bin 0 for zero (and the waits
// below 2^-30, about 1e-9 time units). A quantile is reported as the middle
// of its bin, so its relative error is at most 1/128 (0.8%); values above the
// range are clamped to its last bin. Adding a value takes no branch: at
// moderate load whether a job waits is a coin toss the processor would
// mispredict.
type histogram struct {
	counts []int64
}

const (
	histSub    = 64 // bins per octave (6 mantissa bits)
	histMinExp = -30
	histMaxExp = 40
)

func newHistogram() histogram {
	return histogram{counts: make([]int64, 1+(histMaxExp-histMinExp)*histSub)}
}

// bin reads the exponent and the top 6 mantissa bits of x >= 0; the sign
// bit is dropped (waits are never negative).
func (h *histogram) bin(x float64) int {
	bits := math.Float64bits(x)
	i := 1 + (int(bits>>46) & 0x1ffff) - (1023+histMinExp)*histSub
	return min(max(i, 0), len(h.counts)-1)
}

func (h *histogram) add(x float64) { h.counts[h.bin(x)]++ }

func (h *histogram) merge(o histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
}

// quantile is the q-quantile: the smallest bin whose cumulative count reaches
// q of the total, reported at the bin's centre.
func (h *histogram) quantile(q float64) float64 {
	total := int64(0)
	for _, c := range h.counts {
		total += c
	}
	if total == 0 {
		return math.NaN()
	}
	need := int64(math.Ceil(q * float64(total)))
	cum := int64(0)
	for i, c := range h.counts {
		cum += c
		if cum >= need {
			if i == 0 {
				return 0
			}
			e := (i-1)/histSub + histMinExp
			return math.Ldexp(1+(float64((i-1)%histSub)+0.5)/histSub, e)
		}
	}
	return math.NaN()
}
