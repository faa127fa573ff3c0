package course

import (
	"math"

	"github.com/perfeval/lbsim/lbsim"
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

// Exact is what theory knows of the metric for cfg (lbsim.Exact): the mean
// wait over all jobs, or the class's when theory knows it (the short and
// long jobs of SITA-c without a size cut, with two-point sizes, on speed-1
// FCFS servers: the M/D/1 group the class is sent to). ok is false when
// theory has none.
func (m Metric) Exact(cfg lbsim.Config) (ref lbsim.Reference, ok bool) {
	ref, ok = lbsim.Exact(cfg)
	if !ok || m == MeanWait {
		return ref, ok
	}
	c, ok := ref.Class(m.String())
	if !ok {
		return lbsim.Reference{}, false
	}
	return lbsim.Reference{Wait: c.Wait, Response: c.Response, Method: ref.Method, Kind: ref.Kind}, true
}

// exactWait is Exact's mean wait at cfg, NaN when theory has none.
func (m Metric) exactWait(cfg lbsim.Config) float64 {
	if ref, ok := m.Exact(cfg); ok {
		return ref.Wait
	}
	return math.NaN()
}
