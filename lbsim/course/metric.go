package course

import (
	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// Metric is the waiting time a figure or table shows: over all jobs, or over
// the short or the long jobs of a two-point size law only.
type Metric int

const (
	MeanWait  Metric = iota // E[W] over all jobs
	ShortWait               // E[W | X = x_m]
	LongWait                // E[W | X = x_M]
)

// Of returns the metric's mean and 95% CI half-width in a row.
func (m Metric) Of(r lbsim.Row) (mean, ci95 float64) {
	switch m {
	case ShortWait:
		return r.MeanWaitShort, r.MeanWaitShortCI95
	case LongWait:
		return r.MeanWaitLong, r.MeanWaitLongCI95
	}
	return r.MeanWait, r.MeanWaitCI95
}

// String is the class the metric averages over: "all", "short" or "long".
func (m Metric) String() string {
	switch m {
	case ShortWait:
		return "short"
	case LongWait:
		return "long"
	}
	return "all"
}

func (m Metric) suffix() string {
	if m == MeanWait {
		return ""
	}
	return " " + m.String()
}

func (m Metric) exact(r theory.SITAResult) float64 {
	switch m {
	case ShortWait:
		return r.Short.Wait
	case LongWait:
		return r.Long.Wait
	}
	return r.Overall.Wait
}
