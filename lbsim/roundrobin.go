package lbsim

// RoundRobin (RR) sends the n-th job to server n mod K: with Poisson arrivals
// every server sees Erlang-K interarrival times (E_K/G/1).
type RoundRobin struct{}

func init() {
	mustRegister(PolicyType{Name: "rr", Example: "rr", Summary: "round robin: job n to server n mod K",
		New: func(Params) (Policy, error) { return RoundRobin{}, nil }})
}

func (RoundRobin) String() string                  { return "rr" }
func (RoundRobin) Label() string                   { return "RR" }
func (RoundRobin) Reads() State                    { return 0 }
func (RoundRobin) Pick(v *View, _ float64) int     { return int(v.Job() % int64(v.K())) }
func (RoundRobin) newDispatcher(s *sim) dispatcher { return &rrDispatcher{k: s.k} }

type rrDispatcher struct{ k, next int }

func (d *rrDispatcher) pick(float64, float64) int {
	k := d.next
	if d.next++; d.next == d.k {
		d.next = 0
	}
	return k
}
