package lbsim

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// LeastRequest is Envoy's least request load balancer (envoy,
// source/extensions/load_balancing_policies/least_request/least_request_lb.cc),
// on the job counts the View gives: with -view own each dispatcher's own,
// which is what one Envoy process counts (rq_active of its own requests).
//
// Equal weights (none given, or all equal: EdfLoadBalancerBase::refresh
// builds no schedule then): unweightedHostPickNChoices draws D = choice_count
// hosts independently, random() % K each, with replacement, and keeps the
// first drawn unless a later one has strictly fewer active requests: JSQ-d
// with replacement, the first drawn winning ties, which is jsq:d=D,replace=1
// (View.leastDrawn) to the bit.
//
// Unequal weights: the EDF schedule of EdfScheduler (source/common/upstream/
// edf_scheduler.h). Each host holds a deadline; a pick (pickAndAdd) takes
// the earliest (equal deadlines: the one inserted first), sets the
// scheduler's time to that deadline and re-inserts the host alone, at time
// + 1/weight with its weight evaluated then (hostWeight): w_k / (n_k +
// 1)^Bias, n_k its active requests before this job. Other hosts keep their
// deadlines: their weights are read only when they are picked. The
// schedule starts as EdfLoadBalancerBase::refresh built it before
// EdfScheduler::createWithPicks: hosts added in order at deadlines 1/w_k,
// then (seed mod K) picks on those weights: 0 with one dispatcher, uniform
// in 0..K-1 with several (each its own phase, as startingTurn; newer Envoy
// emulates seed mod 429496729 picks). D is not read there.
type LeastRequest struct {
	D       int     // choice_count, >= 1 (Envoy's default 2)
	Bias    float64 // active_request_bias, >= 0 (default 1; 0: EDF weighted round robin)
	Weights Weights // the hosts' load_balancing_weight; zero value: all equal
}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "lr", Params: []string{"d", "bias", "weights"}, Lists: []string{"weights"}, Example: "lr:weights=speed",
		Summary: "Envoy's least request: fewest active requests of d servers drawn with replacement, first drawn wins ties (default d=2); weights=speed or 2/1/1: Envoy's EDF schedule on weight/(active+1)^bias (bias=B, default 1)",
		New: func(p Params) (Policy, error) {
			d, err := p.Int("d", 2)
			if err != nil || d == 0 {
				return nil, fmt.Errorf("lr: d=%v is invalid: need a whole number >= 1 (Envoy's choice_count: hosts drawn per request); e.g. lr:d=2", p["d"])
			}
			bias, ok := p["bias"]
			if !ok {
				bias = 1
			}
			w, _, err := weightsParam("lr", p)
			return LeastRequest{D: d, Bias: bias, Weights: w}, err
		}})
}

func (p LeastRequest) String() string {
	var s []string
	if p.D != 2 {
		s = append(s, fmt.Sprintf("d=%d", p.D))
	}
	if p.Bias != 1 {
		s = append(s, "bias="+fmtNum(p.Bias))
	}
	if p.Weights.given() {
		s = append(s, "weights="+p.Weights.String())
	}
	return strings.TrimSuffix("lr:"+strings.Join(s, ","), ":")
}

// edf reports whether servers of these speeds get the EDF schedule: unequal weights.
func (p LeastRequest) edf(speeds []float64) bool { return !allEqual(p.Weights.of(speeds)) }

// describe: with equal weights JSQ-d with replacement (sampledFacts); with
// the EDF schedule, one count read a job and the schedule (a history).
func (p LeastRequest) describe(c *Config) Description {
	if !p.edf(c.speeds()) {
		d := sampledFacts(p.D, 0, true, c)
		d.Label, d.Reads = fmt.Sprintf("LR-%d", p.D), Count
		return d
	}
	label := "LR-" + p.Weights.label()
	if p.Bias != 1 {
		label += "-b" + fmtNum(p.Bias)
	}
	return Description{Label: label, Reads: Count, Probes: 1, builtinFacts: builtinFacts{history: true, stateBytes: indexBytes * int64(c.Servers)}}
}

func (p LeastRequest) validate(c *Config) error {
	if !(p.Bias >= 0) || math.IsInf(p.Bias, 1) {
		return fmt.Errorf("lr: bias=%v is invalid: need a finite bias >= 0 (Envoy's active_request_bias: weight/(active+1)^bias; 0 ignores the counts, 1 is the default); e.g. lr:weights=speed,bias=1", p.Bias)
	}
	if p.D < 1 {
		return fmt.Errorf("lr: d=%d is invalid: need d >= 1 (Envoy's choice_count: hosts drawn per request); e.g. lr:d=2", p.D)
	}
	if err := checkD("lr", p.D, c.Servers, true); err != nil {
		return err
	}
	return p.Weights.validate("lr", c.Servers)
}

// start: with unequal weights each replication and dispatcher its own schedule.
func (p LeastRequest) start(v *View) Policy {
	if !p.edf(viewSpeeds(v)) {
		return p
	}
	return newEnvoyEDF(p, p.Weights.of(viewSpeeds(v)), startingTurn(v.s, v.s.k))
}

// Pick: with equal weights the first of D draws with the fewest jobs; the
// EDF schedule needs Start.
func (p LeastRequest) Pick(v *View, _ float64) int {
	if p.edf(viewSpeeds(v)) {
		return unstarted(p)
	}
	return pickSampled(p, v, p.D, 0, true, Count, TiesRandom)
}

// newDispatcher: JSQ-d with replacement's (sampleMin), or the EDF schedule through a View.
func (p LeastRequest) newDispatcher(s *sim) dispatcher {
	if !p.edf(s.cfg.speeds()) {
		return sampledDispatcher(s, p.D, 0, true, Count, nil)
	}
	d := &viewDispatcher{v: View{s: s}}
	d.p = p.start(&d.v)
	return d
}

// theory: with equal weights and exponential sizes, for K <= 3 the exact
// chain of draws with replacement (theory.DrawnExact, FCFS or PS, any
// speeds); else, under FCFS at unit speeds, Mitzenmacher's limit of JSQ-d,
// d >= 2 (draws with replacement repeat a server with probability O(d^2/K):
// the same limit). The EDF state (the deadlines' offsets) is unbounded: no
// finite chain.
func (p LeastRequest) theory(c Config) (Reference, bool) {
	s := systemOf(c)
	if p.edf(c.speeds()) || !s.exp {
		return Reference{}, false
	}
	if m := s.sizes.Mean(); s.k <= theory.DrawnMaxServers && s.under(FCFS, PS) {
		d, err := theory.DrawnExact(p.D, s.lambda*m, s.speeds)
		if ref, ok := reference(scale(d, m), err, fmt.Sprintf("exact Markov chain of LR-%d (draws with replacement), K=%d", p.D, s.k), ExactValue); ok {
			return ref, true
		}
	}
	if s.disc != FCFS || !s.unit || p.D < 2 {
		return Reference{}, false
	}
	d, err := theory.JSQdMeanField(p.D, c.Load)
	return reference(scale(d, s.sizes.Mean()), err, fmt.Sprintf("JSQ-%d mean-field limit (Mitzenmacher)", p.D), LimitValue)
}

// envoyEDF is one dispatcher's EdfScheduler: a binary min-heap of the
// hosts by (deadline, insertion order); only the top is ever re-inserted.
type envoyEDF struct {
	spec  LeastRequest
	w     []float64
	now   float64 // current_time_
	order uint64  // order_offset_
	q     []edfEntry
}

type edfEntry struct {
	deadline float64
	order    uint64
	k        int32
}

func (a edfEntry) before(b edfEntry) bool {
	return a.deadline < b.deadline || a.deadline == b.deadline && a.order < b.order
}

// newEnvoyEDF adds the hosts in order at deadlines 1/w_k (sorted: a heap),
// then makes phase picks with no request active.
func newEnvoyEDF(p LeastRequest, w []float64, phase int) *envoyEDF {
	e := &envoyEDF{spec: p, w: w, q: make([]edfEntry, len(w)), order: uint64(len(w))}
	for k, x := range w {
		e.q[k] = edfEntry{deadline: 1 / x, order: uint64(k), k: int32(k)}
	}
	for i := len(e.q)/2 - 1; i >= 0; i-- {
		e.down(i)
	}
	for range phase {
		e.next(func(int) int { return 0 })
	}
	return e
}

// next is pickAndAdd: the earliest deadline's host k, re-inserted at now +
// 1/(w_k / (n_k+1)^bias), as Envoy computes it (hostWeight).
func (e *envoyEDF) next(count func(k int) int) int {
	top := &e.q[0]
	k := int(top.k)
	e.now = top.deadline
	weight := e.w[k]
	switch n := float64(count(k) + 1); e.spec.Bias {
	case 0:
	case 1:
		weight /= n
	default:
		weight /= math.Pow(n, e.spec.Bias)
	}
	top.deadline, top.order = e.now+1/weight, e.order
	e.order++
	e.down(0)
	return k
}

func (e *envoyEDF) down(i int) {
	for q, c := e.q, 2*i+1; c < len(q); i, c = c, 2*c+1 {
		if c+1 < len(q) && q[c+1].before(q[c]) {
			c++
		}
		if !q[c].before(q[i]) {
			return
		}
		q[i], q[c] = q[c], q[i]
	}
}

func (e *envoyEDF) String() string              { return e.spec.String() }
func (e *envoyEDF) Pick(v *View, _ float64) int { return e.next(v.Count) }
