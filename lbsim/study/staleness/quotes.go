package staleness

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

// Quote is one number the document states, with the document's own precision [Low, High]
// (half a unit of its last digit, or the range it states) and what it measures.
type Quote struct {
	ID       string
	Quantity string // see the header of data/stale_document_quotes.csv
	Policy   string // the document's policy name
	Versus   string // the denominator policy of a ratio, or the reference SCV of a crossing stretch
	SCV      float64
	Refresh  float64 // board period T; 0 = live
	Jobs     int64   // run length of a trap quote
	Value    float64
	Low      float64
	High     float64
	Text     string // the document's words
}

var quoteHeader = []string{"id", "quantity", "policy", "versus", "scv", "refresh", "jobs", "value", "low", "high", "text"}

// LoadQuotes reads a quotes CSV file (see ReadQuotes).
func LoadQuotes(path string) ([]Quote, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("quotes: %w (the file is data/stale_document_quotes.csv at the repository root)", err)
	}
	defer f.Close()
	return ReadQuotes(f)
}

// ReadQuotes reads quotes: lines starting with '#' are comments, the first other line is the
// header quoteHeader, empty numeric cells are 0 (and "+Inf" is infinite).
func ReadQuotes(r io.Reader) ([]Quote, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("quotes: %w", err)
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(quoteHeader, ",") {
		return nil, fmt.Errorf("quotes: the header must be %q", strings.Join(quoteHeader, ","))
	}
	var out []Quote
	for i, rec := range recs[1:] {
		q, err := parseQuote(rec)
		if err != nil {
			return nil, fmt.Errorf("quotes: record %d (%s): %w", i+1, rec[0], err)
		}
		out = append(out, q)
	}
	return out, nil
}

// QuotedRefresh is the board periods T > 0 at which quotes compare a mean with the document's
// (Setup.QuotedRefresh), in increasing order: the file of quotes is their one home.
func QuotedRefresh(qs []Quote) []float64 {
	return quoted(qs, func(q Quote) float64 { return q.Refresh })
}

// QuotedTrapJobs is the run lengths of the trap quotes (Setup.QuotedJobs), in increasing order.
func QuotedTrapJobs(qs []Quote) []int64 {
	return quoted(qs, func(q Quote) int64 { return q.Jobs })
}

// quoted is the distinct positive values of field over the quotes, in increasing order.
func quoted[T int64 | float64](qs []Quote, field func(Quote) T) []T {
	var vs []T
	for _, q := range qs {
		if v := field(q); v > 0 && !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	slices.Sort(vs)
	return vs
}

func parseQuote(rec []string) (Quote, error) {
	q := Quote{ID: rec[0], Quantity: rec[1], Policy: rec[2], Versus: rec[3], Text: rec[10]}
	nums := []*float64{&q.SCV, &q.Refresh, nil, &q.Value, &q.Low, &q.High}
	for i, dst := range nums {
		cell := strings.TrimSpace(rec[4+i])
		if cell == "" {
			continue
		}
		if dst == nil {
			n, err := strconv.ParseInt(cell, 10, 64)
			if err != nil {
				return q, fmt.Errorf("jobs %q is not a whole number", cell)
			}
			q.Jobs = n
			continue
		}
		x, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			return q, fmt.Errorf("%s %q is not a number", quoteHeader[4+i], cell)
		}
		*dst = x
	}
	if !(q.Low <= q.Value && q.Value <= q.High) {
		return q, fmt.Errorf("value %v lies outside its precision [%v, %v]", q.Value, q.Low, q.High)
	}
	if q.Policy != "" {
		if _, err := checkPolicy(q.Policy); err != nil {
			return q, err
		}
	}
	return q, nil
}

// Evidence is what our runs measured, for Compare.
type Evidence struct {
	Setup     Setup
	Results   Results // live and stale rows of Setup
	Crossings []Crossing
	Trap      []TrapRow // the document's Pareto is the first law of TrapLaws
}

// Comparison puts our number beside one of the document's. Ours is our point value and
// [OursLow, OursHigh] its 95% confidence interval (or bracket, for crossings); Agrees says
// whether that interval meets the document's precision interval.
type Comparison struct {
	ID       string  `json:"id"`
	Quote    string  `json:"quote"`
	Document string  `json:"document"`
	Ours     float64 `json:"ours"`
	OursLow  float64 `json:"ours_low"`
	OursHigh float64 `json:"ours_high"`
	Agrees   bool    `json:"agrees"`
	Diff     string  `json:"difference"`
}

// Compare computes our value for every quote. A quote that the evidence cannot answer (a missing
// run) is an error naming it.
func Compare(qs []Quote, ev Evidence) ([]Comparison, error) {
	var out []Comparison
	for _, q := range qs {
		v, lo, hi, err := ev.measure(q)
		if err != nil {
			return nil, fmt.Errorf("quote %s: %w", q.ID, err)
		}
		if math.IsNaN(v) {
			return nil, fmt.Errorf("quote %s: no run measured it (policy %q, SCV %v, T %v)", q.ID, q.Policy, q.SCV, q.Refresh)
		}
		c := Comparison{ID: q.ID, Quote: q.Text, Document: docText(q), Ours: v, OursLow: lo, OursHigh: hi,
			Agrees: lo <= q.High && hi >= q.Low}
		switch {
		case c.Agrees:
			c.Diff = "agrees"
		case q.Value != 0:
			c.Diff = fmt.Sprintf("ours %+.0f%%", 100*(v/q.Value-1))
		default:
			c.Diff = "differs"
		}
		out = append(out, c)
	}
	return out, nil
}

func docText(q Quote) string {
	switch {
	case math.IsInf(q.High, 1):
		return "> " + num(q.Low)
	case q.Quantity == "max_rel_se":
		return "< " + num(q.High)
	case q.Quantity == "scv_crossing":
		return num(q.Low) + " .. " + num(q.High)
	}
	return num(q.Value)
}

// measure returns our value of q and its interval.
func (ev Evidence) measure(q Quote) (v, lo, hi float64, err error) {
	point := func(e lbsim.Estimate) (float64, float64, float64, error) {
		return e.Mean, e.Mean - e.CI95, e.Mean + e.CI95, nil
	}
	switch q.Quantity {
	case "mean_response":
		p, err := checkPolicy(q.Policy)
		if err != nil {
			return 0, 0, 0, err
		}
		return point(ev.Results.Mean(p, q.SCV, q.Refresh, false))
	case "exact":
		p, err := checkPolicy(q.Policy)
		if err != nil {
			return 0, 0, 0, err
		}
		ref, err := ev.Setup.ReferenceFor(p, q.SCV)
		return ref.Value, ref.Value, ref.Value, err
	case "ratio":
		a, err := checkPolicy(q.Policy)
		if err != nil {
			return 0, 0, 0, err
		}
		b, err := checkPolicy(q.Versus)
		if err != nil {
			return 0, 0, 0, err
		}
		return point(lbsim.Ratio(ev.Results.Mean(a, q.SCV, q.Refresh, false), ev.Results.Mean(b, q.SCV, q.Refresh, false)))
	case "max_rel_se":
		tab, err := ev.Setup.LiveTable(ev.Results)
		if err != nil {
			return 0, 0, 0, err
		}
		m := math.NaN()
		for _, r := range tab {
			if !(r.RelStdErr <= m) {
				m = r.RelStdErr
			}
		}
		return m, m, m, nil
	case "trap_exact", "trap_run", "trap_ratio":
		return ev.trap(q)
	case "crossing_stretch":
		ref, err := strconv.ParseFloat(q.Versus, 64)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("versus %q must be the reference SCV of a crossing stretch", q.Versus)
		}
		at, ok1 := ev.crossing(q.Policy, q.SCV)
		base, ok2 := ev.crossing(q.Policy, ref)
		if !ok1 || !ok2 {
			return math.NaN(), 0, 0, nil
		}
		// T*(scv) in (at.Lo, at.Hi], T*(ref) in (base.Lo, base.Hi]: the stretch lies between.
		lo, hi := at.Lo/base.Hi, at.Hi/base.Lo
		return lo, lo, hi, nil
	case "scv_crossing":
		return ev.scvCrossing(q)
	}
	return 0, 0, 0, fmt.Errorf("unknown quantity %q", q.Quantity)
}

func (ev Evidence) crossing(policy string, scv float64) (Crossing, bool) {
	for _, c := range ev.Crossings {
		if c.Policy == policy && sameSCV(c.SCV, scv) && !c.Tally {
			return c, true
		}
	}
	return Crossing{}, false
}

// trap answers the Pareto quotes from the first law of the trap table (the document's Pareto).
func (ev Evidence) trap(q Quote) (v, lo, hi float64, err error) {
	if len(ev.Trap) == 0 {
		return math.NaN(), 0, 0, nil
	}
	law := ev.Trap[0].Law
	for _, r := range ev.Trap {
		if r.Law != law || (q.Quantity != "trap_exact" && r.Jobs != q.Jobs) {
			continue
		}
		switch q.Quantity {
		case "trap_exact":
			return r.Exact, r.Exact, r.Exact, nil
		case "trap_run":
			return r.Mean, r.Mean - r.CI95, r.Mean + r.CI95, nil
		default:
			return r.Ratio, (r.Mean - r.CI95) / r.Exact, (r.Mean + r.CI95) / r.Exact, nil
		}
	}
	return math.NaN(), 0, 0, nil
}

// scvCrossing brackets the SCV at which policy with a board of age q.Refresh becomes better than
// round robin: the first SCV of the setup where its mean is below round robin's, and the SCV
// before it. Ours is the bracket's midpoint.
func (ev Evidence) scvCrossing(q Quote) (v, lo, hi float64, err error) {
	p, err := checkPolicy(q.Policy)
	if err != nil {
		return 0, 0, 0, err
	}
	rr, _ := DispatcherNamed("round robin")
	scvs := ev.Setup.SCVs
	for i, scv := range scvs {
		if ev.Results.Mean(p, scv, q.Refresh, false).Mean < ev.Results.Mean(rr, scv, 0, false).Mean {
			if i == 0 {
				return scvs[0], 0, scvs[0], nil
			}
			return (scvs[i-1] + scv) / 2, scvs[i-1], scv, nil
		}
	}
	last := scvs[len(scvs)-1]
	return math.Inf(1), last, math.Inf(1), nil
}
