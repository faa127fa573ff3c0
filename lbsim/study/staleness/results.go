package staleness

import (
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

// Results indexes simulated rows by policy, SCV, refresh period and tally, so that tables,
// figures and the comparison with the document read the same numbers.
type Results struct {
	rows []lbsim.Row
}

// NewResults indexes the rows of any number of runs (live, stale, tally).
func NewResults(rows ...[]lbsim.Row) Results {
	var all []lbsim.Row
	for _, r := range rows {
		all = append(all, r...)
	}
	return Results{rows: all}
}

// Get returns the row of policy p at size SCV scv read with a board of period T (and the
// dispatcher's tally if tally). Policies that read no board, and T = 0, give the live row.
func (r Results) Get(p Dispatcher, scv, T float64, tally bool) (lbsim.Row, bool) {
	if !p.Board || T == 0 {
		T, tally = 0, false
	}
	label := lbsim.Label(p.Policy)
	for _, row := range r.rows {
		if row.Label == label && sameSCV(row.SCV, scv) && row.Refresh == T && row.Tally == tally {
			return row, true
		}
	}
	return lbsim.Row{}, false
}

// Row is Get's row, or a row of NaN means at (scv, T) when there is none (a run left out of the
// sweep: tables show NaN and figures draw no point there).
func (r Results) Row(p Dispatcher, scv, T float64, tally bool) lbsim.Row {
	if row, ok := r.Get(p, scv, T, tally); ok {
		return row
	}
	nan := math.NaN()
	return lbsim.Row{Label: lbsim.Label(p.Policy), SCV: scv, Refresh: T, Tally: tally, MeanResponse: nan, MeanResponseCI95: nan}
}

// Mean is the mean time in system of Get, NaN when there is no such row.
func (r Results) Mean(p Dispatcher, scv, T float64, tally bool) lbsim.Estimate {
	row := r.Row(p, scv, T, tally)
	return lbsim.Estimate{Mean: row.MeanResponse, CI95: row.MeanResponseCI95}
}

// sameSCV compares SCVs computed from a size law's moments with the nominal value.
func sameSCV(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
