package testpolicy

import "github.com/perfeval/lbsim/lbsim"

// Fronts sends each job to a server drawn uniformly. Its edit, the
// unexported own, matters only with several dispatchers: dispatcher i then
// sends every job to server i mod K (its own server, overloaded). With one
// dispatcher the two versions choose alike, job for job.
type Fronts struct{ own bool }

// NewFronts is the policy, edited when own.
func NewFronts(own bool) Fronts { return Fronts{own} }

func (Fronts) String() string { return "fronts" }
func (Fronts) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.NoState}
}

func (p Fronts) Pick(v *lbsim.View, _ float64) int {
	if p.own && v.Dispatchers() > 1 {
		return v.Dispatcher() % v.K()
	}
	return v.Rand().IntN(v.K())
}

// Late sends each job to a server drawn uniformly; its edit, the
// unexported late, sends the jobs after the first 1000 of a dispatcher to
// server 0: an edit no probe of 100 jobs sees, so that the two versions
// share a key.
type Late struct{ late bool }

// NewLate is the policy, edited when late.
func NewLate(late bool) Late { return Late{late} }

func (Late) String() string                          { return "late" }
func (Late) Describe(lbsim.Config) lbsim.Description { return lbsim.Description{Reads: lbsim.NoState} }

func (p Late) Pick(v *lbsim.View, _ float64) int {
	if p.late && v.Job() >= 1000 {
		return 0
	}
	return v.Rand().IntN(v.K())
}
