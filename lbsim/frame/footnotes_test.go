package frame

import (
	"reflect"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// TestSplitNotes splits at each known key, not at a "; " inside a note.
func TestSplitNotes(t *testing.T) {
	keys := []string{"drift", "exact-outside-ci"}
	got := splitNotes("drift: 1.2 then 3.4: not in steady state; use a warm-up; exact-outside-ci: the exact mean wait is 22.5", keys)
	want := []note{{"drift", "1.2 then 3.4: not in steady state; use a warm-up"}, {"exact-outside-ci", "the exact mean wait is 22.5"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("splitNotes = %q, want %q", got, want)
	}
	if got := splitNotes("odd: no known key", keys); !reflect.DeepEqual(got, []note{{"", "odd: no known key"}}) {
		t.Errorf("unknown key: %q, want one note without a key", got)
	}
	if got := splitNotes("  ", keys); got != nil {
		t.Errorf("empty cell: %q, want no notes", got)
	}
	if marker(1) != "¹" || marker(12) != "¹²" || markers([]int{1, 3}) != "¹ ³" {
		t.Errorf("markers: %q %q %q", marker(1), marker(12), markers([]int{1, 3}))
	}
}

// TestFootnotes shows warnings as markers keyed by rule, each distinct message once under the
// table with its marker, rule and rows, and keeps numbers on one line in a scroll wrapper.
func TestFootnotes(t *testing.T) {
	long := "the mean is biased low by about 18% (tau/n, first order); use a warm-up (WarmupAuto: true)"
	df := dataframe.New(
		series.New([]string{"RND", "RND", "LL-2"}, series.String, "policy"),
		series.New([]float64{0.5, 0.9, 0.9}, series.Float, "load"),
		series.New([]float64{24.94, 1200.1, 3.5}, series.Float, "mean_wait"),
		series.New([]string{"initial-transient: " + long, "initial-transient: " + long + "; exact-outside-ci: 2.4 half-widths off", ""}, series.String, "warnings"),
	)
	h := HTML(df, Footnotes("warnings", "initial-transient", "exact-outside-ci"))
	for _, want := range []string{
		">¹</td>", ">¹ ²</td>", // markers keyed by rule
		"¹ <b>initial-transient</b> (policy RND, load 0.5; policy RND, load 0.9): " + long,
		"² <b>exact-outside-ci</b> (policy RND, load 0.9): 2.4 half-widths off",
		`class="lbsim-table-wrap" style="overflow-x:auto`, // wide tables scroll
		"@media print{",
		"white-space:nowrap", // numbers and labels on one line
		"mean_<wbr>wait",     // headers wrap at underscores only
	} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
	if n := strings.Count(h, long); n != 1 {
		t.Errorf("the shared message is listed %d times, want once:\n%s", n, h)
	}
	// Every number cell stays on one line and never breaks inside a word.
	for _, cell := range strings.Split(h, "<td ")[1:] {
		if !strings.Contains(cell, "white-space:nowrap") || !strings.Contains(cell, "overflow-wrap:normal") {
			t.Errorf("cell may wrap: <td %s", cell)
		}
	}
	// Without the option the warnings stay text; a table without warnings has no notes.
	if h := HTML(df); !strings.Contains(h, ">initial-transient: ") || strings.Contains(h, "lbsim-table-note") {
		t.Errorf("without Footnotes: want the warnings as text:\n%s", h)
	}
	if h := HTML(df.Drop("warnings"), Footnotes("warnings", "drift")); strings.Contains(h, "lbsim-table-note") {
		t.Errorf("no warnings column, yet notes:\n%s", h)
	}
}

// TestLongTextWraps lets a long text cell wrap at spaces and keeps short labels on one line.
func TestLongTextWraps(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"random", "round robin"}, series.String, "policy"),
		series.New([]string{"exact M/G/1 per server (Pollaczek-Khinchine)", "exact"}, series.String, "reference_method"),
	)
	h := HTML(df)
	rows := strings.Split(h, "<tr>")[2]
	cells := strings.Split(rows, "<td ")
	if !strings.Contains(cells[1], "white-space:nowrap") || strings.Contains(cells[2], "white-space:nowrap") {
		t.Errorf("want the label on one line and the long text free to wrap at spaces:\n%s", rows)
	}
}
