package course

import (
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
	return lbsim.Label(p)
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
