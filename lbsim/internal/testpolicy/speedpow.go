// Package testpolicy holds a policy of one's own for the tests of the
// cache and of Config.Key: the edit the notebook template invites, which
// String() does not show.
package testpolicy

import (
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

// SpeedPow sends a job to server k with probability proportional to
// mu_k^pow. The exponent is unexported, so neither String() nor the
// exported fields show an edit from mu to mu^2: only what Pick does does.
type SpeedPow struct{ pow float64 }

// New is the policy with exponent pow.
func New(pow float64) SpeedPow { return SpeedPow{pow} }

func (SpeedPow) String() string { return "by-speed" }
func (SpeedPow) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.NoState}
}

func (p SpeedPow) Pick(v *lbsim.View, _ float64) int {
	total := 0.0
	for k := range v.K() {
		total += math.Pow(v.Speed(k), p.pow)
	}
	u := v.Rand().Float64() * total
	for k := range v.K() {
		if u -= math.Pow(v.Speed(k), p.pow); u < 0 {
			return k
		}
	}
	return v.K() - 1
}
