package plots

import (
	"cmp"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func TestLogTicksReadable(t *testing.T) {
	// Labels are exactly the powers of ten in range, in their shortest
	// form; gonum's LogTicks labels 1e-2..1e4 with values such as
	// 1.0000000000000007 after repeated multiplication.
	var labels []string
	for _, tk := range (logTicks{}).Ticks(0.01, 1e4) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
			if tk.Value != math.Pow10(int(math.Round(math.Log10(tk.Value)))) {
				t.Errorf("labelled tick %v is not a power of ten", tk.Value)
			}
		}
	}
	if got, want := strings.Join(labels, " "), "0.01 0.1 1 10 100 1000 10000"; got != want {
		t.Errorf("labels %q, want %q", got, want)
	}
	if tickLabel(0.30000000000000004, true) != "0.3" || tickLabel(1e6, false) != "1e6" || tickLabel(2.5e-4, false) != "2.5e-4" {
		t.Errorf("tickLabel: %q %q %q", tickLabel(0.30000000000000004, true), tickLabel(1e6, false), tickLabel(2.5e-4, false))
	}
}

// labels is the labels of ticks, "-" for an unlabelled (minor) tick.
func labels(ticks []plot.Tick) string {
	var out []string
	for _, tk := range ticks {
		out = append(out, cmp.Or(tk.Label, "-"))
	}
	return strings.Join(out, " ")
}

func TestLogTicksLabelPowersOfTen(t *testing.T) {
	// Issue 22: the 2..9 labels of a short log axis collided, and the Pareto
	// x axis read "10000, 100000, 1e+06". Powers of ten are labelled, 2 and 5
	// too under two decades, minor ticks never, and one format per axis.
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{2, 7, "2 - - 5 - -"},
		{0.5, 20, "0.5 - - - - 1 2 - - 5 - - - - 10 20"},
		{1e3, 1e6, "1e3 - - - - - - - - 1e4 - - - - - - - - 1e5 - - - - - - - - 1e6"},
		{3e4, 2e6, "- - 5e4 - - - - 1e5 2e5 - - 5e5 - - - - 1e6 2e6"},
		{1, 1e4, "1 - - - - - - - - 10 - - - - - - - - 100 - - - - - - - - 1000 - - - - - - - - 10000"},
	} {
		if got := labels((logTicks{}).Ticks(c.lo, c.hi)); got != c.want {
			t.Errorf("log ticks [%g, %g]: %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

func TestLinearRangeRound(t *testing.T) {
	// Issue 22: notebook 01's linear y ticks were 1000, 4000, 7000 with no 0
	// (waits from about 250 to 7600). Positive data near 0 start at 0; other
	// ranges widen to whole tick steps.
	for _, c := range []struct{ lo, hi, wantLo, wantHi float64 }{
		{250, 7600, 0, 8000},
		{0.05, 0.95, 0, 1},
		{-1, 5, -1, 5},
		{10.3, 12.7, 10, 13},
	} {
		lo, hi := roundRange(c.lo, c.hi)
		if lo != c.wantLo || hi != c.wantHi {
			t.Errorf("roundRange(%g, %g) = [%g, %g], want [%g, %g]", c.lo, c.hi, lo, hi, c.wantLo, c.wantHi)
		}
		// Both ends are labelled ticks of the widened axis.
		ticks := linearTicks{}.Ticks(lo, hi)
		var first, last plot.Tick
		for _, tk := range ticks {
			if tk.Label != "" {
				if first.Label == "" {
					first = tk
				}
				last = tk
			}
		}
		if first.Value != lo || last.Value != hi {
			t.Errorf("[%g, %g]: labelled ticks from %v to %v, want the ends (%s)", lo, hi, first.Value, last.Value, labels(ticks))
		}
	}
}

func TestCurveClippedToSeriesRange(t *testing.T) {
	// A theory curve from load 0.01 would span decades on a log y axis;
	// drawn beside series at 0.05..0.95 it must stop at the data.
	x, y := []float64{}, []float64{}
	for rho := 0.01; rho < 0.999; rho += 0.01 {
		x, y = append(x, rho), append(y, rho/(1-rho))
	}
	// Log axes: their range is the data's (a linear one is rounded).
	fig := Figure{LogX: true, LogY: true, Series: []Series{{Name: "RND", X: []float64{0.05, 0.5, 0.95}, Y: []float64{0.06, 1.1, 18}}},
		Curves: []Curve{{Name: "exact", Of: "RND", X: x, Y: y}}}
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	// The series' [0.05, 0.95], widened to the labelled tick 1 (roundLogRange).
	if p.X.Min != 0.05 || p.X.Max != 1 {
		t.Errorf("x range [%v, %v], want the series' [0.05, 0.95] to 1", p.X.Min, p.X.Max)
	}
	// The lowest curve point drawn is at 0.05: 0.05/0.95.
	if want := 0.05 / 0.95; math.Abs(p.Y.Min-want) > 1e-9 {
		t.Errorf("y min %v, want the curve at the first simulated load, %v", p.Y.Min, want)
	}
	// Curves alone are drawn in full.
	alone := Figure{LogX: true, Curves: []Curve{{Name: "exact", X: x, Y: y}}}
	pa, err := alone.Plot()
	if err != nil {
		t.Fatal(err)
	}
	if pa.X.Min != 0.01 {
		t.Errorf("curve-only figure starts at %v, want 0.01", pa.X.Min)
	}
	// So are they around one simulated point (the explorer's run): else the
	// legend would name a curve that does not show.
	one := Figure{LogX: true, Series: []Series{{Name: "RND", X: []float64{0.5}, Y: []float64{1.1}}},
		Curves: []Curve{{Name: "exact", Of: "RND", X: x, Y: y}}}
	po, err := one.Plot()
	if err != nil {
		t.Fatal(err)
	}
	if po.X.Min != 0.01 || po.X.Max < 0.98 {
		t.Errorf("one point and a curve: x range [%v, %v], want the curve's [0.01, 0.98]", po.X.Min, po.X.Max)
	}
}

func TestEmptySeriesRefused(t *testing.T) {
	fig := Figure{Title: "waits", Series: []Series{{Name: "RND", X: []float64{1}, Y: []float64{1}}, {Name: "LL-3"}}}
	_, err := fig.Plot()
	if err == nil || !strings.Contains(err.Error(), `series "LL-3" of figure "waits" has no points`) || !strings.Contains(err.Error(), `"RND"`) {
		t.Errorf("empty series: %v", err)
	}
	bad := Figure{Series: []Series{{Name: "RND", X: []float64{1, 2}, Y: []float64{1, 2}, Warned: []string{""}}}}
	if _, err := bad.Plot(); err == nil || !strings.Contains(err.Error(), "1 Warned entries for 2 points") {
		t.Errorf("short Warned: %v", err)
	}
}

func TestWarnedPointsHollowWithFootnote(t *testing.T) {
	fig := Figure{XLabel: "load ρ", Series: []Series{{Name: "RND", X: []float64{0.5, 0.9, 0.95}, Y: []float64{1, 9, 19},
		Warned: []string{"", "ci-not-believable", "infinite-second-moment, ci-not-believable"}}}}
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	if want := "load ρ\nhollow markers: warned (ci-not-believable, infinite-second-moment)"; p.X.Label.Text != want {
		t.Errorf("x label %q, want %q", p.X.Label.Text, want)
	}
	// The plain point keeps the filled marker, the two warned are hollow.
	parts := fig.markerParts(fig.Series[0], 0)
	if parts[0].pts.Len() != 1 || parts[0].shape != markers[0] || parts[1].pts.Len() != 2 || parts[1].shape != hollowMarkers[0] {
		t.Errorf("marker parts %+v, want 1 filled point and 2 hollow", parts)
	}
	// No warnings: no footnote.
	fig.Series[0].Warned = nil
	if p, _ := fig.Plot(); p.X.Label.Text != "load ρ" {
		t.Errorf("x label without warnings %q", p.X.Label.Text)
	}
	if _, err := PNG(sized(fig, 12, 8)); err != nil {
		t.Fatal(err)
	}
}

func TestLogRangeRound(t *testing.T) {
	// Issue 22: notebook 04's oracle at 1.1 lay under the lowest label, 10.
	for _, c := range []struct{ lo, hi, wantLo, wantHi float64 }{
		{1.1, 1700, 1, 1700},  // 1 is near; 1e4 is not
		{1.1, 9.5, 1, 10},     // under two decades: 1, 2 and 5 are labelled
		{2.6, 7, 2, 10},       // 2 and 10 (not 5): labelled, nearer than 1.5
		{0.1, 50, 0.1, 50},    // 100 is a factor 2 away
		{0.013, 0.9, 0.01, 1}, //
		{1, 30, 1, 30},        // 50 is a factor 1.67 away
	} {
		lo, hi := roundLogRange(c.lo, c.hi)
		if math.Abs(lo/c.wantLo-1) > 1e-12 || math.Abs(hi/c.wantHi-1) > 1e-12 {
			t.Errorf("roundLogRange(%g, %g) = [%g, %g], want [%g, %g]", c.lo, c.hi, lo, hi, c.wantLo, c.wantHi)
		}
	}
}
