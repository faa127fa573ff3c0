package staleness

import "github.com/perfeval/lbsim/lbsim"

// Dispatcher is one of the document's dispatchers, under the document's name.
type Dispatcher struct {
	Name   string
	Policy lbsim.Policy
	// Board is true when the policy reads the board of job counts, which is refreshed every T;
	// the others (random, round robin) read nothing and the oracle reads live workloads.
	Board bool
	// approx is the document's approximation of the mean time in system
	// under FCFS where theory has no exact value (nil: none).
	approx func(c lbsim.Config, scv float64) (Reference, error)
}

// Dispatchers are the document's five dispatchers, in its order:
//   - random: a uniformly random server (each server is M/G/1);
//   - round robin: server n mod K (each server sees Erlang-K interarrival times);
//   - best of two: the fewer jobs on the board among two sampled servers (JSQ-2);
//   - least loaded: the fewest jobs on the board among all servers (JSQ);
//   - oracle: the least work left, read live (LWL), which under FCFS is the central M/G/K queue.
func Dispatchers() []Dispatcher {
	return []Dispatcher{
		{Name: "random", Policy: lbsim.Random{}},
		{Name: "round robin", Policy: lbsim.RoundRobin{}},
		{Name: "best of two", Policy: lbsim.JSQ{D: 2}, Board: true},
		{Name: "least loaded", Policy: lbsim.JSQ{}, Board: true},
		{Name: "oracle", Policy: lbsim.LeastLoaded{}, approx: leeLongton},
	}
}

// DispatcherNamed returns the policy with the document's name, if there is one.
func DispatcherNamed(name string) (Dispatcher, bool) {
	for _, p := range Dispatchers() {
		if p.Name == name {
			return p, true
		}
	}
	return Dispatcher{}, false
}
