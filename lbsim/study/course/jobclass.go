package course

import (
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

// JobClass is the jobs whose mean waiting time a figure or table shows: all
// of them, or only the short or the long jobs of a two-point size law.
type JobClass int

const (
	AllJobs   JobClass = iota // E[W] over all jobs
	ShortJobs                 // E[W | X = x_m]
	LongJobs                  // E[W | X = x_M]
)

// Of returns the class's mean wait and 95% CI half-width in a row.
func (m JobClass) Of(r lbsim.Row) (mean, ci95 float64) {
	switch m {
	case ShortJobs:
		return r.MeanWaitShort, r.MeanWaitShortCI95
	case LongJobs:
		return r.MeanWaitLong, r.MeanWaitLongCI95
	}
	return r.MeanWait, r.MeanWaitCI95
}

// String names the class: "all", "short" or "long".
func (m JobClass) String() string {
	switch m {
	case ShortJobs:
		return "short"
	case LongJobs:
		return "long"
	}
	return "all"
}

func (m JobClass) suffix() string {
	if m == AllJobs {
		return ""
	}
	return " " + m.String()
}

// Theory is what theory knows of the class's mean wait for cfg (lbsim.Theory): the mean
// wait over all jobs, or the class's when theory knows it (the short and
// long jobs of SITA-c without a size cut, with two-point sizes, on speed-1
// FCFS servers: the M/D/1 group the class is sent to). ok is false when
// theory has none.
func (m JobClass) Theory(cfg lbsim.Config) (ref lbsim.Reference, ok bool) {
	ref, ok = lbsim.Theory(cfg)
	if !ok || m == AllJobs {
		return ref, ok
	}
	c, ok := ref.Class(m.String())
	if !ok {
		return lbsim.Reference{}, false
	}
	return lbsim.Reference{Wait: c.Wait, Response: c.Response, Method: ref.Method, Kind: ref.Kind}, true
}

// theoryWait is Theory's mean wait at cfg, NaN when theory has none.
func (m JobClass) theoryWait(cfg lbsim.Config) float64 {
	if ref, ok := m.Theory(cfg); ok {
		return ref.Wait
	}
	return math.NaN()
}
