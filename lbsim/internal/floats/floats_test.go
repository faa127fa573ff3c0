package floats

import (
	"math"
	"strconv"
	"testing"
)

func TestText(t *testing.T) {
	for f, want := range map[float64]string{0: "0.0", 1: "1.0", -3: "-3.0", 0.1: "0.1", 1e21: "1e+21", 1.0 / 3: "0.3333333333333333", math.Inf(1): "+Inf"} {
		got := Text(f)
		if back, err := strconv.ParseFloat(got, 64); got != want || err != nil || back != f {
			t.Errorf("Text(%v) = %q, want %q", f, got, want)
		}
	}
	if got := Text(math.NaN()); got != "NaN" {
		t.Errorf("Text(NaN) = %q", got)
	}
}
