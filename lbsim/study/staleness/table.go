package staleness

import (
	"math"

	"github.com/perfeval/lbsim/lbsim"

	"gonum.org/v1/gonum/stat/distuv"
)

// LiveRow is one line of the live-board table: a policy at one SCV, with its standard error and
// the exact or approximate value beside it.
type LiveRow struct {
	Policy    string  `json:"policy"`
	SCV       float64 `json:"scv"`
	Mean      float64 `json:"mean_response"`
	CI95      float64 `json:"ci95"`
	StdErr    float64 `json:"std_err"`
	RelStdErr float64 `json:"rel_std_err"`        // StdErr / Mean; the document's "under 2% everywhere"
	Reference float64 `json:"reference_response"` // the exact or approximate mean response, named like Mean
	Method    string  `json:"reference_method"`
	Exact     bool    `json:"exact"`
	// Warnings are the run's reasons not to take Mean at face value (lbsim's trust rules).
	Warnings lbsim.Warnings `json:"warnings"`
}

// LiveTable lists every policy at every SCV with a live board, from res, with the references of
// ReferenceFor. The standard error is the CI half-width over R replications divided by the
// Student-t quantile t_{0.975, R-1}.
func (s Setup) LiveTable(res Results) ([]LiveRow, error) {
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.Reps - 1)}.Quantile(0.975)
	var out []LiveRow
	for _, scv := range s.SCVs {
		for _, p := range Dispatchers() {
			row := res.Row(p, scv, 0, false)
			est := lbsim.Estimate{Mean: row.MeanResponse, CI95: row.MeanResponseCI95}
			ref, err := s.ReferenceFor(p, scv)
			if err != nil {
				return nil, err
			}
			se := est.CI95 / t
			out = append(out, LiveRow{
				Policy: p.Name, SCV: scv, Mean: est.Mean, CI95: est.CI95, StdErr: se,
				RelStdErr: se / est.Mean, Reference: ref.Value, Method: ref.Method, Exact: ref.Exact,
				Warnings: row.Warnings,
			})
		}
	}
	return out, nil
}

// StaleRow is one point of the staleness sweep in long form: policy, SCV, T and the mean time in
// system, with round robin's (which does not depend on T) for comparison.
type StaleRow struct {
	Policy     string         `json:"policy"`
	SCV        float64        `json:"scv"`
	T          float64        `json:"refresh"`
	Tally      bool           `json:"tally"`
	Mean       float64        `json:"mean_response"`
	CI95       float64        `json:"ci95"`
	RoundRobin float64        `json:"round_robin"`
	VsRR       float64        `json:"vs_round_robin"` // Mean / RoundRobin: above 1 is worse than round robin
	Warnings   lbsim.Warnings `json:"warnings"`
}

// StaleTable lists the board policies at every SCV and T of the grid.
func (s Setup) StaleTable(res Results) []StaleRow {
	rr, _ := DispatcherNamed("round robin")
	var out []StaleRow
	for _, scv := range s.SCVs {
		base := res.Mean(rr, scv, 0, false)
		for _, p := range Dispatchers() {
			if !p.Board {
				continue
			}
			for _, T := range s.Refresh {
				row := res.Row(p, scv, T, s.Tally)
				out = append(out, StaleRow{Policy: p.Name, SCV: scv, T: T, Tally: s.Tally, Mean: row.MeanResponse,
					CI95: row.MeanResponseCI95, RoundRobin: base.Mean, VsRR: row.MeanResponse / base.Mean, Warnings: row.Warnings})
			}
		}
	}
	return out
}

// Crossing says where a board policy becomes worse than round robin as the board ages: between
// the grid points Lo and Hi (Lo < T* <= Hi). Lo = 0 means it is already worse at the first grid
// point; Hi = +Inf that it is never worse on the grid.
type Crossing struct {
	Policy     string  `json:"policy"`
	SCV        float64 `json:"scv"`
	Discipline string  `json:"discipline"`
	Tally      bool    `json:"tally"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Range      string  `json:"range"`
}

// Crossings finds, for each board policy and SCV, the first grid point where its mean time in
// system exceeds round robin's, and the grid point before it. Means are compared without their
// CIs: near a crossing the two curves are within noise of each other, which is what "the two
// grid points bracketing the crossing" allows for.
func (s Setup) Crossings(res Results) []Crossing {
	rr, _ := DispatcherNamed("round robin")
	var out []Crossing
	for _, scv := range s.SCVs {
		base := res.Mean(rr, scv, 0, false).Mean
		for _, p := range Dispatchers() {
			if !p.Board {
				continue
			}
			means := make([]float64, len(s.Refresh))
			for i, T := range s.Refresh {
				means[i] = res.Mean(p, scv, T, s.Tally).Mean
			}
			lo, hi := Bracket(s.Refresh, means, base)
			out = append(out, Crossing{Policy: p.Name, SCV: scv, Discipline: s.Discipline.String(), Tally: s.Tally, Lo: lo, Hi: hi, Range: bracketText(lo, hi)})
		}
	}
	return out
}

// Bracket returns the grid points (lo, hi] around the first T at which means[i] > level: hi is
// that T, lo the grid point before it (0 if it is the first one). If no mean exceeds level, lo is
// the last grid point and hi is +Inf. A NaN mean (missing run) counts as not exceeding.
func Bracket(ts, means []float64, level float64) (lo, hi float64) {
	for i, m := range means {
		if m > level {
			if i == 0 {
				return 0, ts[0]
			}
			return ts[i-1], ts[i]
		}
	}
	if len(ts) == 0 {
		return 0, math.Inf(1)
	}
	return ts[len(ts)-1], math.Inf(1)
}

func bracketText(lo, hi float64) string {
	switch {
	case math.IsInf(hi, 1):
		return "never worse for T <= " + num(lo)
	case lo == 0:
		return "worse already at T = " + num(hi)
	}
	return num(lo) + " < T <= " + num(hi)
}

// SizeRow describes the size law at one SCV: the H2 phases with balanced means, each carrying
// half the work. "Giants" are the long phase.
type SizeRow struct {
	SCV          float64 `json:"scv"`
	GiantProb    float64 `json:"p_giant"`
	OneIn        float64 `json:"one_job_in"`
	GiantMean    float64 `json:"giant_mean"`
	SmallMean    float64 `json:"small_mean"`
	SecondMoment float64 `json:"second_moment"`
}

// SizeTable describes the setup's size laws (SCV 1 is exponential: both phases have mean 1).
func (s Setup) SizeTable() ([]SizeRow, error) {
	var out []SizeRow
	for _, scv := range s.SCVs {
		law, err := Sizes(scv)
		if err != nil {
			return nil, err
		}
		row := SizeRow{SCV: scv, GiantProb: 0.5, OneIn: 2, GiantMean: 1, SmallMean: 1, SecondMoment: law.SecondMoment()}
		if h, ok := law.(lbsim.H2); ok {
			row.GiantProb, row.GiantMean, row.SmallMean = 1-h.P1, 1/h.Rate2, 1/h.Rate1
			row.OneIn = 1 / row.GiantProb
		}
		out = append(out, row)
	}
	return out, nil
}
