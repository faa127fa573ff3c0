package course

import (
	"math"

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

// Exact is what theory knows of the metric for cfg: lbsim.Exact for the mean
// wait over all jobs; for the short and long jobs of SITA-c (no size cut)
// with two-point sizes, speed-1 FCFS servers and Poisson arrivals, the wait
// of the M/D/1 group the class is sent to (theory.SITATwoPoint, the formula
// lbsim.Exact uses for the overall wait). ok is false when theory has none.
func (m Metric) Exact(cfg lbsim.Config) (ref lbsim.Reference, ok bool) {
	if m == MeanWait {
		return lbsim.Exact(cfg)
	}
	overall, ok := lbsim.Exact(cfg)
	sita, isSITA := cfg.Policy.(lbsim.SITA)
	sizes, twoPoint := cfg.Sizes.(lbsim.TwoPoint)
	if !ok || !isSITA || !twoPoint || overall.Kind != lbsim.ExactValue {
		return lbsim.Reference{}, false
	}
	r, err := theory.SITATwoPoint(cfg.ArrivalRate(), cfg.Servers, sita.C, sizes.Xm, sizes.XM, sizes.P)
	if err != nil {
		return lbsim.Reference{}, false
	}
	d := r.Short
	if m == LongWait {
		d = r.Long
	}
	return lbsim.Reference{Wait: d.Wait, Response: d.Response, Method: overall.Method, Kind: lbsim.ExactValue}, true
}

// exactWait is Exact's mean wait at cfg, NaN when theory has none.
func (m Metric) exactWait(cfg lbsim.Config) float64 {
	if ref, ok := m.Exact(cfg); ok {
		return ref.Wait
	}
	return math.NaN()
}
