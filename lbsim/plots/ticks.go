package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// logTicks marks a log axis: labels at the powers of ten, also at 2 and 5
// times them when the range spans less than two decades, and unlabelled
// minor ticks at the other multiples. Each value is an exact
// float64(i) * math.Pow10(e), never a product accumulated by repeated
// multiplication (gonum's LogTicks prints 1.0000000000000007).
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max >= min) {
		return nil
	}
	labelled := map[int]bool{1: true}
	if math.Log10(max/min) < 2 {
		labelled[2], labelled[5] = true, true
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		for i := 1; i <= 9; i++ {
			v := float64(i) * math.Pow10(e)
			if v < min*(1-1e-12) || v > max*(1+1e-12) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[i] {
				t.Label = major
			}
			ticks = append(ticks, t)
		}
	}
	return formatTicks(ticks)
}

// linearTicks marks a linear axis at the multiples of niceStep, labelled,
// with an unlabelled tick half-way between; roundRange widens an axis to
// such multiples, so both of its ends are labelled.
type linearTicks struct{}

func (linearTicks) Ticks(min, max float64) []plot.Tick {
	step := niceStep(min, max)
	if step == 0 {
		return nil
	}
	var ticks []plot.Tick
	for k := math.Ceil(2*min/step - 1e-9); k <= math.Floor(2*max/step+1e-9); k++ {
		t := plot.Tick{Value: k*step/2 + 0} // + 0: never -0
		if math.Mod(k, 2) == 0 {
			t.Label = major
		}
		ticks = append(ticks, t)
	}
	return formatTicks(ticks)
}

// niceStep is the distance between labelled ticks on [min, max]: 1, 2, 2.5
// or 5 times a power of ten, the smallest that gives at most 6 steps
// (0 for an empty or infinite range).
func niceStep(min, max float64) float64 {
	span := max - min
	if !(span > 0) || math.IsInf(span, 0) {
		return 0
	}
	raw := span / 6
	mag := math.Pow10(int(math.Floor(math.Log10(raw))))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// major is the placeholder label of a tick that formatTicks is to label.
const major = "major"

// formatTicks labels the ticks that have a (placeholder) label, all in one
// format, so an axis never mixes "10000" with "1e+06": plain decimals when
// every labelled value is 0 or has a magnitude in [1e-3, 1e5), else all in
// e-notation ("1e4", "2.5e5", "1e-4"), which the default font can print (it
// has no superscript digits for 10^k).
func formatTicks(ticks []plot.Tick) []plot.Tick {
	plain := true
	for _, t := range ticks {
		if a := math.Abs(t.Value); t.Label != "" && a != 0 && (a < 1e-3 || a >= 1e5) {
			plain = false
		}
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = tickLabel(ticks[i].Value, plain)
		}
	}
	return ticks
}

// tickLabel is v in its shortest form with at most 6 significant digits:
// 0.001 or 20 when plain, else 1e6, 2.5e-4.
func tickLabel(v float64, plain bool) string {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	if plain || v == 0 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	e := int(math.Floor(math.Log10(math.Abs(v))))
	m, _ := strconv.ParseFloat(strconv.FormatFloat(v/math.Pow10(e), 'g', 6, 64), 64)
	return strconv.FormatFloat(m, 'f', -1, 64) + "e" + strconv.Itoa(e)
}

// roundRange widens the linear range [lo, hi] to whole steps of its tick
// marks, and to 0 when the data are positive and 0 is nearer than the span
// (a reader then sees magnitudes, not only differences).
func roundRange(lo, hi float64) (float64, float64) {
	if lo > 0 && lo < hi-lo {
		lo = 0
	}
	step := niceStep(lo, hi)
	if step == 0 {
		return lo, hi
	}
	return math.Floor(lo/step+1e-9) * step, math.Ceil(hi/step-1e-9) * step
}

// roundLogRange widens the log range [lo, hi] (0 < lo < hi) to the
// labelled ticks of logTicks beyond its ends that are less than a factor
// logReach away, so an extreme value (an oracle near 1.1) can be read off
// a labelled tick at the frame, without leaving much of the axis empty.
const logReach = 1.5

func roundLogRange(lo, hi float64) (float64, float64) {
	widen := func(mantissas []float64) (float64, float64) {
		l, h := lo, hi
		for e := math.Floor(math.Log10(lo)) - 1; e <= math.Ceil(math.Log10(hi))+1; e++ {
			for _, m := range mantissas {
				v := m * math.Pow10(int(e))
				if v <= lo && lo/v < logReach {
					l = min(l, v)
				}
				if v >= hi && v/hi < logReach && h == hi {
					h = v
				}
			}
		}
		return l, h
	}
	l, h := widen([]float64{1})
	if math.Log10(h/l) < 2 {
		return widen([]float64{1, 2, 5})
	}
	return l, h
}
