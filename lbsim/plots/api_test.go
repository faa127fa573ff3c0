package plots

import (
	"math"
	"strings"
	"testing"
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
	// Less than a decade: the multiples in range are labelled.
	var inner []string
	for _, tk := range (logTicks{}).Ticks(2, 7) {
		if tk.Value < 2 || tk.Value > 7 {
			t.Errorf("tick %v outside [2, 7]", tk.Value)
		}
		inner = append(inner, tk.Label)
	}
	if got := strings.Join(inner, " "); got != "2 3 4 5 6 7" {
		t.Errorf("ticks in [2, 7] labelled %q, want 2 3 4 5 6 7", got)
	}
	if tickLabel(0.30000000000000004) != "0.3" || tickLabel(1e6) != "1e+06" {
		t.Errorf("tickLabel: %q %q", tickLabel(0.30000000000000004), tickLabel(1e6))
	}
}

func TestCurveClippedToSeriesRange(t *testing.T) {
	// A theory curve from load 0.01 would span decades on a log y axis;
	// drawn beside series at 0.05..0.95 it must stop at the data.
	x, y := []float64{}, []float64{}
	for rho := 0.01; rho < 0.999; rho += 0.01 {
		x, y = append(x, rho), append(y, rho/(1-rho))
	}
	fig := Figure{LogY: true, Series: []Series{{Name: "RND", X: []float64{0.05, 0.5, 0.95}, Y: []float64{0.06, 1.1, 18}}},
		Curves: []Curve{{Name: "exact", Of: "RND", X: x, Y: y}}}
	p, err := fig.Plot()
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 0.05 || p.X.Max != 0.95 {
		t.Errorf("x range [%v, %v], want the series' [0.05, 0.95]", p.X.Min, p.X.Max)
	}
	// The lowest curve point drawn is at 0.05: 0.05/0.95.
	if want := 0.05 / 0.95; math.Abs(p.Y.Min-want) > 1e-9 {
		t.Errorf("y min %v, want the curve at the first simulated load, %v", p.Y.Min, want)
	}
	// Curves alone are drawn in full.
	alone := Figure{Curves: []Curve{{Name: "exact", X: x, Y: y}}}
	pa, err := alone.Plot()
	if err != nil {
		t.Fatal(err)
	}
	if pa.X.Min != 0.01 {
		t.Errorf("curve-only figure starts at %v, want 0.01", pa.X.Min)
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
