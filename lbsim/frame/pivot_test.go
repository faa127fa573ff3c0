package frame

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gota/gota/series"
)

// TestMeanCI checks the rounding rule by hand-worked cases: two significant
// digits of the half-width, the mean to the same decimal place.
func TestMeanCI(t *testing.T) {
	tests := []struct {
		mean, ci float64
		want     string
	}{
		{7612.3, 345.6, "7610 ± 350"},
		{0.41237, 0.0123, "0.412 ± 0.012"},
		{3.14159, 0.5, "3.14 ± 0.50"},
		{12.0, 9.96, "12 ± 10"}, // the CI rounds up to a new decade
		{-2.345, 0.01, "-2.345 ± 0.010"},
		{1234567, 25000, "1235000 ± 25000"},
		{2.5, 0, "2.5"}, // deterministic: no CI
		{2.5, math.NaN(), "2.5 (no CI)"},
		{math.NaN(), 1, Missing},
	}
	for _, tt := range tests {
		if got := MeanCI(tt.mean, tt.ci); got != tt.want {
			t.Errorf("MeanCI(%v, %v) = %q, want %q", tt.mean, tt.ci, got, tt.want)
		}
	}
}

type longRow struct {
	Load   float64 `frame:"load"`
	Policy string  `frame:"policy"`
	Wait   float64 `frame:"W"`
	CI     float64 `frame:"W_ci95"`
}

func longFrame(t *testing.T) []longRow {
	t.Helper()
	return []longRow{
		{0.5, "RND", 4.0, 0.21},
		{0.5, "LL-2", 0.31, 0.012},
		{0.9, "RND", 36.4, 2.4},
		{0.9, "LL-2", 5.07, 0.33},
		{0.7, "RND", 9.4, 0.5}, // no LL-2 row at 0.7
	}
}

func TestPivot(t *testing.T) {
	df, err := FromStructs(longFrame(t))
	if err != nil {
		t.Fatal(err)
	}
	wide, err := Pivot(df, "load", "policy", "W", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(wide.Names(), ","); got != "load,RND,LL-2" {
		t.Errorf("columns %s, want load,RND,LL-2 (first appearance)", got)
	}
	if got := wide.Col("load").Float(); !equal(got, []float64{0.5, 0.9, 0.7}) {
		t.Errorf("load = %v, want [0.5 0.9 0.7]", got)
	}
	if wide.Col("load").Type() != series.Float {
		t.Errorf("row key type %s, want float (kept)", wide.Col("load").Type())
	}
	if got := wide.Col("RND").Float(); !equal(got, []float64{4.0, 36.4, 9.4}) {
		t.Errorf("RND = %v", got)
	}
	ll := wide.Col("LL-2").Float()
	if ll[0] != 0.31 || ll[1] != 5.07 || !math.IsNaN(ll[2]) {
		t.Errorf("LL-2 = %v, want [0.31 5.07 NaN]", ll)
	}
	h := HTML(wide)
	if !strings.Contains(h, ">"+Missing+"</td>") || strings.Contains(h, "NaN") {
		t.Errorf("missing pair not shown as %s:\n%s", Missing, h)
	}

	withCI, err := Pivot(df, "load", "policy", "W", "W_ci95")
	if err != nil {
		t.Fatal(err)
	}
	// The CSV keeps each mean and half-width as numbers; the HTML shows them as one column.
	if got := strings.Join(withCI.Names(), ","); got != "load,RND,RND ci95,LL-2,LL-2 ci95" {
		t.Errorf("columns %s, want load,RND,RND ci95,LL-2,LL-2 ci95", got)
	}
	path := filepath.Join(t.TempDir(), "wide.csv")
	if err := WriteCSV(withCI, path, false); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	ci := back.Col("LL-2 ci95")
	if ci.Type() != series.Float || ci.Float()[0] != 0.012 || ci.Float()[1] != 0.33 || !math.IsNaN(ci.Float()[2]) {
		t.Errorf("LL-2 ci95 read back from the CSV = %s %v, want float [0.012 0.33 NaN]", ci.Type(), ci.Float())
	}
	if got := back.Col("RND").Float(); !equal(got, []float64{4.0, 36.4, 9.4}) {
		t.Errorf("RND read back from the CSV = %v, want [4 36.4 9.4]", got)
	}
	h = HTML(withCI)
	// mean ± ci cells are right aligned like numbers, under the key's name only.
	if strings.Contains(h, "text-align:left") || strings.Contains(h, "ci95") {
		t.Errorf("mean ± ci cells should be right aligned, under RND and LL-2 only:\n%s", h)
	}
	for _, want := range []string{">36.4 ± 2.4</td>", ">0.310 ± 0.012</td>", ">" + Missing + "</td>"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %s:\n%s", want, h)
		}
	}
}

func TestPivotErrors(t *testing.T) {
	rows := longFrame(t)
	df, err := FromStructs(rows)
	if err != nil {
		t.Fatal(err)
	}
	dup, err := FromStructs(append(rows, longRow{0.5, "RND", 1, 1}))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                  string
		rows, cols, value, ci string
		useDup                bool
		want                  string
	}{
		{"unknown column", "rho", "policy", "W", "", false, `no column "rho"`},
		{"same keys", "load", "load", "W", "", false, `rows and cols are both "load"`},
		{"text value", "load", "W", "policy", "", false, `column "policy" is string`},
		{"float keys name columns", "policy", "load", "W", "", false, ""},
		{"duplicate pair", "load", "policy", "W", "", true, "rows 0 and 5 both have load=0.5, policy=RND"},
	}
	for _, c := range cases {
		in := df
		if c.useDup {
			in = dup
		}
		wide, err := Pivot(in, c.rows, c.cols, c.value, c.ci)
		if c.want == "" {
			if err != nil || strings.Join(wide.Names(), ",") != "policy,0.5,0.9,0.7" {
				t.Errorf("%s: columns %q, %v; want policy,0.5,0.9,0.7", c.name, wide.Names(), err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
