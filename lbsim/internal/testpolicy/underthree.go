package testpolicy

import "github.com/perfeval/lbsim/lbsim"

// UnderThree sends each job to a server drawn uniformly among those with
// fewer than 3 jobs, drawing until it finds one: fine on a lightly loaded
// system, and a Pick that never returns once every server holds 3 jobs
// (time stands still during Pick), as on Config.Key's heavily loaded probe
// systems.
type UnderThree struct{}

func (UnderThree) String() string { return "under-3" }
func (UnderThree) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Count}
}

func (UnderThree) Pick(v *lbsim.View, _ float64) int {
	for {
		if k := v.Rand().IntN(v.K()); v.Count(k) < 3 {
			return k
		}
	}
}
