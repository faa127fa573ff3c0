package staleness

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

const quotesPath = "../../../data/stale_document_quotes.csv"

func TestQuotesFile(t *testing.T) {
	qs, err := LoadQuotes(quotesPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 25 {
		t.Errorf("%d quotes, want 25", len(qs))
	}
	seen := map[string]bool{}
	for _, q := range qs {
		if seen[q.ID] {
			t.Errorf("duplicate id %s", q.ID)
		}
		seen[q.ID] = true
		if q.Text == "" {
			t.Errorf("%s has no text", q.ID)
		}
	}
	// The formula values the document quotes are exactly what our references compute.
	ev := Evidence{Setup: Document()}
	for _, q := range qs {
		if q.Quantity != "exact" {
			continue
		}
		v, _, _, err := ev.measure(q)
		if err != nil || math.Abs(v-q.Value) > 1e-9 {
			t.Errorf("%s: ours %v (%v), document %v", q.ID, v, err, q.Value)
		}
	}
}

// The document quotes means on a board of age T = 10 only (the live ones have T = 0): the
// periods whose runs keep the document's replications.
func TestQuotedRefresh(t *testing.T) {
	qs, err := LoadQuotes(quotesPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := QuotedRefresh(qs); !slices.Equal(got, []float64{10}) {
		t.Errorf("QuotedRefresh = %v, want [10]", got)
	}
	more := append(qs[:len(qs):len(qs)], Quote{Refresh: 2}, Quote{Refresh: 10}, Quote{Refresh: 0})
	if got := QuotedRefresh(more); !slices.Equal(got, []float64{2, 10}) {
		t.Errorf("QuotedRefresh with a quote at T = 2 = %v, want [2 10]", got)
	}
}

func TestReadQuotesErrors(t *testing.T) {
	head := strings.Join(quoteHeader, ",") + "\n"
	for _, c := range []struct{ in, want string }{
		{"id,value\n", "header"},
		{head + "x,mean_response,random,,1,0,,5,6,7,t\n", "outside its precision"},
		{head + "x,mean_response,nobody,,1,0,,5,4,6,t\n", `"nobody"`},
		{head + "x,mean_response,random,,one,0,,5,4,6,t\n", `scv "one"`},
	} {
		_, err := ReadQuotes(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one naming %s", c.in, err, c.want)
		}
	}
}

// Compare on fabricated rows: the numbers are ours by construction, so each verdict is known.
func TestCompare(t *testing.T) {
	row := func(p lbsim.Policy, scv, T, mean, ci float64) lbsim.Row {
		return lbsim.Row{Policy: p.String(), Label: lbsim.Label(p), SCV: scv, Refresh: T, MeanResponse: mean, MeanResponseCI95: ci}
	}
	res := NewResults([]lbsim.Row{
		row(lbsim.Random{}, 30, 0, 139.0, 2),
		row(lbsim.RoundRobin{}, 30, 0, 132.0, 2),
		row(lbsim.JSQ{D: 2}, 30, 0, 20, 0.1),
		row(lbsim.JSQ{D: 2}, 30, 10, 18.5, 0.1),
	})
	ev := Evidence{Setup: Document(), Results: res,
		Crossings: []Crossing{{Policy: "best of two", SCV: 1, Lo: 5, Hi: 10}, {Policy: "best of two", SCV: 30, Lo: 200, Hi: 500}}}
	qs := []Quote{
		{ID: "a", Quantity: "mean_response", Policy: "random", SCV: 30, Value: 139.9, Low: 139.85, High: 139.95},
		{ID: "b", Quantity: "ratio", Policy: "round robin", Versus: "best of two", SCV: 30, Value: 9, Low: 8.5, High: 9},
		{ID: "c", Quantity: "mean_response", Policy: "best of two", SCV: 30, Refresh: 10, Value: 18.5, Low: 18.45, High: 18.55},
		{ID: "d", Quantity: "crossing_stretch", Policy: "best of two", Versus: "1", SCV: 30, Value: 10, Low: 10, High: math.Inf(1)},
	}
	got, err := Compare(qs, ev)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		ours   float64
		agrees bool
	}{{139, true}, {6.6, false}, {18.5, true}, {20, true}}
	for i, w := range want {
		if math.Abs(got[i].Ours-w.ours) > 1e-9 || got[i].Agrees != w.agrees {
			t.Errorf("%s: ours %v agrees %v, want %v %v", got[i].ID, got[i].Ours, got[i].Agrees, w.ours, w.agrees)
		}
	}
	if got[1].Diff != "ours -27%" {
		t.Errorf("difference %q, want \"ours -27%%\"", got[1].Diff)
	}
	if _, err := Compare([]Quote{{ID: "e", Quantity: "mean_response", Policy: "oracle", SCV: 4}}, ev); err == nil {
		t.Error("a quote without a run was not reported")
	}
}
