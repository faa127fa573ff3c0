package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// logTicks labels a log axis at the powers of ten, each computed as an
// exact math.Pow10 rather than by repeated multiplication, so labels read
// "0.1", "1", "10" and never "1.0000000000000007" (gonum's LogTicks
// accumulates the rounding of val *= 10). When the range holds fewer than
// two powers of ten, the 2..9 multiples in range are labelled too.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max >= min) {
		return nil
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	var ticks []plot.Tick
	major := 0
	for e := lo; e <= hi; e++ {
		for i := 1; i <= 9; i++ {
			v := float64(i) * math.Pow10(e)
			if v < min*(1-1e-12) || v > max*(1+1e-12) {
				continue
			}
			t := plot.Tick{Value: v}
			if i == 1 {
				t.Label = tickLabel(v)
				major++
			}
			ticks = append(ticks, t)
		}
	}
	if major < 2 {
		for k := range ticks {
			ticks[k].Label = tickLabel(ticks[k].Value)
		}
	}
	return ticks
}

// tickLabel is v in its shortest form with at most 6 significant digits:
// 0.001, 20, 1e+06.
func tickLabel(v float64) string {
	s, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return strconv.FormatFloat(s, 'g', -1, 64)
}
