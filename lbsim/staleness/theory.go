package staleness

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// Reference is a value to put beside a simulated mean: exact, or an approximation, as Method says.
type Reference struct {
	Value  float64 // NaN when no reference exists
	Method string  // e.g. "exact M/G/1 (P-K)", "approx. Lee-Longton", "" when none
	Exact  bool
}

func none() Reference { return Reference{Value: math.NaN()} }

// ReferenceFor returns the exact or approximate mean time in system of policy p with a live board
// at size SCV scv:
//   - random, FCFS: each server is M/G/1 at load rho, E[R] = 1 + rho E[X^2] / (2 (1 - rho)) with
//     E[X^2] = 1 + SCV (Pollaczek-Khinchine, theory.RandomDispatch). Exact.
//   - random, PS: each server is M/G/1-PS, E[R] = E[X] / (1 - rho), whatever the SCV. Exact.
//   - round robin, FCFS, SCV 1: each server is E_K/M/1 (theory.RoundRobinExp). Exact.
//     Also under PS: with exponential sizes every busy server completes jobs at rate 1 whatever
//     the discipline, so the number of jobs (hence, by Little's law, E[R]) has the same law.
//     SCV > 1: Kingman's GI/G/1 approximation with arrival SCV 1/K. Approximation.
//   - oracle, FCFS: least work left is the central M/G/K queue. SCV 1: M/M/K (Erlang C). Exact.
//     SCV > 1: Lee-Longton, E[W] ~ (1 + SCV)/2 E[W_{M/M/K}]. Approximation.
//
// Other cases (board policies, the PS oracle, PS round robin at SCV > 1) have none.
func (s Setup) ReferenceFor(p Policy, scv float64) (Reference, error) {
	sizes, err := Sizes(scv)
	if err != nil {
		return none(), err
	}
	lambda := s.Load * float64(s.Servers) // mean size 1, speed 1
	switch {
	case p.Policy == lbsim.Random{} && s.Discipline == lbsim.FCFS:
		d, err := theory.RandomDispatch(lambda, sizes, uniformSpeeds(s.Servers))
		if err != nil {
			return none(), err
		}
		return Reference{Value: d.Response, Method: "exact M/G/1 (P-K)", Exact: true}, nil
	case p.Policy == lbsim.Random{} && s.Discipline == lbsim.PS:
		d, err := theory.MG1{Lambda: lambda / float64(s.Servers), Size: sizes, Mu: 1}.PS()
		if err != nil {
			return none(), err
		}
		return Reference{Value: d.Response, Method: "exact M/G/1-PS", Exact: true}, nil
	case p.Policy == lbsim.RoundRobin{} && scv == 1:
		d, err := theory.RoundRobinExp(lambda, s.Servers, 1)
		if err != nil {
			return none(), err
		}
		return Reference{Value: d.Response, Method: "exact E_K/M/1", Exact: true}, nil
	case p.Policy == lbsim.RoundRobin{} && s.Discipline == lbsim.FCFS:
		d, err := theory.RoundRobinKingmanApprox(lambda, s.Servers, sizes)
		if err != nil {
			return none(), err
		}
		return Reference{Value: d.Response, Method: "approx. Kingman GI/G/1"}, nil
	case p.Policy == lbsim.LeastLoaded{} && s.Discipline == lbsim.FCFS:
		d, err := theory.MMK(lambda, s.Servers, 1)
		if err != nil {
			return none(), err
		}
		if scv == 1 {
			return Reference{Value: d.Response, Method: "exact M/M/K (Erlang C)", Exact: true}, nil
		}
		return Reference{Value: 1 + (1+scv)/2*d.Wait, Method: "approx. Lee-Longton M/G/K"}, nil
	}
	return none(), nil
}

func uniformSpeeds(k int) []float64 {
	sp := make([]float64, k)
	for i := range sp {
		sp[i] = 1
	}
	return sp
}

// checkPolicy rejects a policy name that is not one of the document's.
func checkPolicy(name string) (Policy, error) {
	p, ok := PolicyNamed(name)
	if !ok {
		var names []string
		for _, q := range Policies() {
			names = append(names, q.Name)
		}
		return Policy{}, fmt.Errorf("policy %q is not one of the document's %q", name, names)
	}
	return p, nil
}
