package lbsim

import "math"

// histogram counts waiting times in logarithmic bins of fixed memory: 64 bins
// per power of two from 2^-30 to 2^40, plus an exact bin for zero. A quantile
// is reported as the middle of its bin, so its relative error is at most
// 1/128 (0.8%); values outside the range are clamped to its ends.
type histogram struct {
	zero   int64
	counts []int64
}

const (
	histSub    = 64 // bins per octave (6 mantissa bits)
	histMinExp = -30
	histMaxExp = 40
)

func newHistogram() histogram {
	return histogram{counts: make([]int64, (histMaxExp-histMinExp)*histSub)}
}

// bin reads the exponent and the top 6 mantissa bits of x > 0.
func (h *histogram) bin(x float64) int {
	bits := math.Float64bits(x)
	i := (int(bits>>46) & 0x1ffff) - (1023+histMinExp)*histSub
	return min(max(i, 0), len(h.counts)-1)
}

func (h *histogram) add(x float64) {
	if x <= 0 {
		h.zero++
		return
	}
	h.counts[h.bin(x)]++
}

func (h *histogram) merge(o histogram) {
	h.zero += o.zero
	for i, c := range o.counts {
		h.counts[i] += c
	}
}

// quantile is the q-quantile: the smallest bin whose cumulative count reaches
// q of the total, reported at the bin's centre.
func (h *histogram) quantile(q float64) float64 {
	total := h.zero
	for _, c := range h.counts {
		total += c
	}
	if total == 0 {
		return math.NaN()
	}
	need := int64(math.Ceil(q * float64(total)))
	if need <= h.zero {
		return 0
	}
	cum := h.zero
	for i, c := range h.counts {
		cum += c
		if cum >= need {
			e := i/histSub + histMinExp
			return math.Ldexp(1+(float64(i%histSub)+0.5)/histSub, e)
		}
	}
	return math.NaN()
}
