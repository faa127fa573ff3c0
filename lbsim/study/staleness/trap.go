package staleness

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfeval/lbsim/lbsim"
)

// NamedLaw is a size law with the name a table shows for it.
type NamedLaw struct {
	Name string
	Law  lbsim.SizeLaw
}

// TrapLaws are the laws of the Pareto trap, all of mean 1: the document's Pareto (Lomax, tail
// exponent 2.2, SCV 11), the classical Pareto of the same index (SCV 2.27), and the H2 mix at
// SCV 30, whose every moment is finite.
func TrapLaws() ([]NamedLaw, error) {
	lomax, err := NewLomax(2.2, 1)
	if err != nil {
		return nil, err
	}
	pareto, err := lbsim.NewPareto(2.2, 1, 0)
	if err != nil {
		return nil, err
	}
	h2, err := Sizes(30)
	if err != nil {
		return nil, err
	}
	return []NamedLaw{
		{Name: "Lomax (Pareto II) a=2.2", Law: lomax},
		{Name: "Pareto I a=2.2", Law: pareto},
		{Name: "H2 SCV 30", Law: h2},
	}, nil
}

// TrapConfigs lists random dispatch on the setup's servers at its load for every law and run
// length N (jobs measured per replication, after a warm-up of N/10), reps replications each, or
// TrapLongReps for N longer than every quoted length (QuotedJobs).
func (s Setup) TrapConfigs(laws []NamedLaw, lengths []int64, reps int) ([]lbsim.Config, error) {
	if reps < 2 {
		return nil, fmt.Errorf("reps R=%d is invalid: need R >= 2 for a confidence interval", reps)
	}
	if err := s.checkTrapLongReps(); err != nil {
		return nil, err
	}
	var out []lbsim.Config
	for _, l := range laws {
		for _, n := range lengths {
			c := s.base(l.Law)
			c.Discipline = lbsim.FCFS
			c.Policy = lbsim.Random{}
			c.Jobs, c.Warmup, c.Reps = n, n/10, reps
			if s.TrapLongReps > 0 && len(s.QuotedJobs) > 0 && n > slices.Max(s.QuotedJobs) {
				c.Reps = s.TrapLongReps
			}
			if err := c.Validate(); err != nil {
				return nil, fmt.Errorf("%s with N=%d: %w", l.Name, n, err)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// TrapRow is random dispatch's mean time in system after a run of N jobs, beside the exact
// Pollaczek-Khinchine value.
type TrapRow struct {
	Law   string  `json:"law"`
	SCV   float64 `json:"scv"`
	Jobs  int64   `json:"jobs"`
	Mean  float64 `json:"mean_response"`
	CI95  float64 `json:"ci95"`
	Exact float64 `json:"exact"`
	Ratio float64 `json:"ratio"` // Mean / Exact
	// Warnings are the run's reasons not to take Mean at face value (lbsim's trust rules).
	Warnings lbsim.Warnings `json:"warnings"`
	Row      lbsim.Row      `json:"-"` // the run itself, for figures
}

// TrapTable pairs the rows of TrapConfigs (in its order: law by law, each at every run length)
// with their exact Pollaczek-Khinchine values (Row.ExactResponse, from lbsim.Exact).
func (s Setup) TrapTable(laws []NamedLaw, lengths []int64, rows []lbsim.Row) ([]TrapRow, error) {
	if len(rows) != len(laws)*len(lengths) {
		return nil, fmt.Errorf("%d trap rows for %d laws x %d run lengths: run TrapConfigs with the same laws and lengths", len(rows), len(laws), len(lengths))
	}
	var out []TrapRow
	for i, row := range rows {
		l, n := laws[i/len(lengths)], lengths[i%len(lengths)]
		if row.Jobs != n || row.SCV != lbsim.SCV(l.Law) {
			return nil, fmt.Errorf("trap row %d is N=%d at SCV %v, want %s with N=%d: pass the rows of TrapConfigs in order", i, row.Jobs, row.SCV, l.Name, n)
		}
		if math.IsNaN(row.ExactResponse) {
			return nil, fmt.Errorf("trap row %d (%s): no exact value; random dispatch with a finite E[X^2] has one", i, l.Name)
		}
		out = append(out, TrapRow{Law: l.Name, SCV: row.SCV, Jobs: n, Mean: row.MeanResponse, CI95: row.MeanResponseCI95,
			Exact: row.ExactResponse, Ratio: row.MeanResponse / row.ExactResponse, Warnings: row.Warnings, Row: row})
	}
	return out, nil
}
