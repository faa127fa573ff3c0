package staleness

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

// Reference is a value to put beside a simulated mean: exact, or an approximation, as Method says.
type Reference struct {
	Value  float64 // NaN when no reference exists
	Method string  // e.g. "exact M/G/1 (P-K)", "approx. Lee-Longton", "" when none
	Exact  bool
}

func none() Reference { return Reference{Value: math.NaN()} }

// ReferenceFor returns the exact or approximate mean time in system of policy p with a live board
// at size SCV scv. Exact values come from lbsim.Exact (the one theory lookup): random under FCFS
// (Pollaczek-Khinchine) and PS (M/G/1-PS), round robin at SCV 1 under either discipline (E_K/M/1)
// and with the H2 mix under FCFS (E_K/H2/1), and the oracle at SCV 1 under FCFS (central M/M/K,
// Erlang C). Where theory has no exact value we show a labelled approximation of our own:
//   - oracle, FCFS, SCV > 1: Lee-Longton, E[W] ~ (1 + SCV)/2 E[W_{M/M/K}], with E[W_{M/M/K}]
//     from lbsim.Exact of the same system with exponential sizes.
//
// Other cases (board policies, the PS oracle, PS round robin at SCV > 1) have none.
func (s Setup) ReferenceFor(p Dispatcher, scv float64) (Reference, error) {
	sizes, err := Sizes(scv)
	if err != nil {
		return none(), err
	}
	c := s.base(sizes)
	c.Policy = p.Policy
	if ref, ok := lbsim.Exact(c); ok && ref.Kind == lbsim.ExactValue {
		return Reference{Value: ref.Response, Method: "exact " + ref.Method, Exact: true}, nil
	}
	if s.Discipline != lbsim.FCFS {
		return none(), nil
	}
	if p.approx == nil {
		return none(), nil
	}
	return p.approx(c, scv)
}

// leeLongton is the oracle's approximation for SCV > 1: the central M/M/K
// wait scaled by (1 + SCV)/2 (Lee and Longton).
func leeLongton(c lbsim.Config, scv float64) (Reference, error) {
	c.Sizes = lbsim.Exponential{M: 1}
	mmk, ok := lbsim.Exact(c)
	if !ok || mmk.Kind != lbsim.ExactValue {
		return none(), nil // no central queue to scale
	}
	return Reference{Value: 1 + (1+scv)/2*mmk.Wait, Method: "approx. Lee-Longton M/G/K"}, nil
}

// checkPolicy rejects a policy name that is not one of the document's.
func checkPolicy(name string) (Dispatcher, error) {
	p, ok := DispatcherNamed(name)
	if !ok {
		var names []string
		for _, q := range Dispatchers() {
			names = append(names, q.Name)
		}
		return Dispatcher{}, fmt.Errorf("policy %q is not one of the document's %q", name, names)
	}
	return p, nil
}
