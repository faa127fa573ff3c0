package course

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim"
)

// PolicyLabel turns a policy spec (Row.Policy, e.g. "ll:d=2") into the
// handout's name ("LL-2"): RND, RR, LL-d, LWL, JSQ-d, JSQ, SITA-c. A spec that
// does not parse is returned unchanged.
func PolicyLabel(spec string) string {
	p, err := lbsim.ParsePolicy(spec)
	if err != nil {
		return spec
	}
	switch p := p.(type) {
	case lbsim.Random:
		return "RND"
	case lbsim.RoundRobin:
		return "RR"
	case lbsim.LeastLoaded:
		if p.D == 0 {
			return "LWL"
		}
		return fmt.Sprintf("LL-%d", p.D)
	case lbsim.JSQ:
		if p.D == 0 {
			return "JSQ"
		}
		return fmt.Sprintf("JSQ-%d", p.D)
	case lbsim.SITA:
		return fmt.Sprintf("SITA-%d", p.C)
	}
	return spec
}

// sitaC is the c of a SITA policy spec.
func sitaC(spec string) (int, bool) {
	p, err := lbsim.ParsePolicy(spec)
	if err != nil {
		return 0, false
	}
	s, ok := p.(lbsim.SITA)
	return s.C, ok
}
