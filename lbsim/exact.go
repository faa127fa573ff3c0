package lbsim

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// RefKind says how a Reference relates to the simulated system.
type RefKind string

const (
	// ExactValue is the steady-state mean of exactly this system.
	ExactValue RefKind = "exact"
	// LimitValue is the mean-field limit K -> infinity; a finite K differs.
	LimitValue RefKind = "limit"
)

// Reference is what queueing theory knows about a configuration's steady-state
// mean delays: Wait (+Inf when it does not exist) and Response, with the
// formula's name.
type Reference struct {
	Wait, Response float64
	Method         string
	Kind           RefKind
}

// Exact returns the theory for cfg when lbsim/theory has one, the one lookup
// shared by the command line, the warnings and the notebooks:
//
//   - one server, or RND: every server an M/G/1 queue with rate lambda/K
//     (Pollaczek-Khinchine under FCFS, E[X]/(mu-...) under PS), any sizes, any speeds;
//   - RR, exponential sizes, equal speeds: E_K/M/1 (GI/M/1 root), FCFS or PS;
//   - SITA-c without a cut, two-point sizes, speed 1, FCFS: M/D/1 per group;
//   - LWL (= LL-K), exponential sizes, equal speeds, FCFS: central M/M/K (Erlang C);
//   - JSQ-d and LL-d (d >= 2, distinct samples), exponential sizes, speed 1,
//     FCFS: the mean-field limit (Kind LimitValue); JSQ(d,1) likewise (its
//     fixed point); LL(d,m) and JSQ(d,m), m >= 2: none;
//   - JIQ, equal speeds: the limit K -> infinity, no wait (LimitValue).
//
// All need Poisson arrivals at a stable load, no trace and live state (a
// policy that reads nothing is the same on a board).
func Exact(cfg Config) (Reference, bool) {
	if cfg.Trace != nil || cfg.AllowOverload || cfg.Policy == nil || cfg.Sizes == nil || cfg.Validate() != nil {
		return Reference{}, false
	}
	if _, ok := cfg.arrivals().(Poisson); !ok {
		return Reference{}, false
	}
	if cfg.Refresh > 0 && cfg.Servers > 1 {
		return Reference{}, false // a board changes what the policy sees
	}
	speeds, sizes, k := cfg.speeds(), cfg.Sizes, cfg.Servers
	lambda := cfg.ArrivalRate()
	ps := cfg.Discipline == PS
	_, exp := sizes.(Exponential)
	equal := true
	for _, mu := range speeds {
		equal = equal && mu == speeds[0]
	}
	unit := equal && speeds[0] == 1
	ref := func(d theory.Delay, err error, method string, kind RefKind) (Reference, bool) {
		if err != nil {
			return Reference{}, false
		}
		return Reference{Wait: d.Wait, Response: d.Response, Method: method, Kind: kind}, true
	}

	_, random := cfg.Policy.(Random)
	if random || k == 1 {
		if ps {
			return randomPS(lambda, sizes, speeds)
		}
		if math.IsInf(sizes.SecondMoment(), 1) {
			return Reference{Wait: math.Inf(1), Response: math.Inf(1), Method: "M/G/1 with E[X^2] = inf: no finite mean wait", Kind: ExactValue}, true
		}
		r, err := theory.RandomDispatch(lambda, sizes, speeds)
		return ref(r.Delay, err, "M/G/1 per server (Pollaczek-Khinchine)", ExactValue)
	}
	switch p := cfg.Policy.(type) {
	case RoundRobin:
		if exp && equal {
			m := sizes.Mean() / speeds[0]
			d, err := theory.RoundRobinExp(lambda, k, m)
			return ref(d, err, fmt.Sprintf("E_%d/M/1 (GI/M/1 root)", k), ExactValue)
		}
	case SITA:
		if tp, ok := sizes.(TwoPoint); ok && p.Cut == 0 && unit && !ps {
			r, err := theory.SITATwoPoint(lambda, k, p.C, tp.Xm, tp.XM, tp.P)
			return ref(r.Overall, err, "M/D/1 per group", ExactValue)
		}
	case LeastLoaded:
		if exp && equal && !ps && (p.D == 0 || (p.D == k && !p.Replace)) {
			d, err := theory.MMK(lambda, k, sizes.Mean()/speeds[0])
			return ref(d, err, fmt.Sprintf("central M/M/%d (Erlang C)", k), ExactValue)
		}
		if exp && unit && !ps && p.D >= 2 && !p.Replace && p.Mem == 0 {
			d, err := theory.LLdMeanField(p.D, cfg.Load)
			return ref(scale(d, sizes.Mean()), err, fmt.Sprintf("LL-%d mean-field limit (Hellemans & Van Houdt)", p.D), LimitValue)
		}
	case JSQ:
		if exp && unit && !ps && p.D >= 2 && !p.Replace && p.Mem == 0 {
			d, err := theory.JSQdMeanField(p.D, cfg.Load)
			return ref(scale(d, sizes.Mean()), err, fmt.Sprintf("JSQ-%d mean-field limit (Mitzenmacher)", p.D), LimitValue)
		}
		if exp && unit && !ps && p.D >= 1 && !p.Replace && p.Mem == 1 {
			d, err := theory.JSQdMemoryMeanField(p.D, cfg.Load)
			return ref(scale(d, sizes.Mean()), err, fmt.Sprintf("JSQ(%d,1) mean-field fixed point (memory)", p.D), LimitValue)
		}
	case JIQ:
		if equal { // K -> infinity: an idle server is always found
			return ref(theory.Delay{Wait: 0, Response: sizes.Mean() / speeds[0]}, nil, "JIQ limit: every job finds an idle server", LimitValue)
		}
	}
	return Reference{}, false
}

// scale converts delays for mean-1 sizes to sizes of mean m.
func scale(d theory.Delay, m float64) theory.Delay {
	return theory.Delay{Wait: d.Wait * m, Response: d.Response * m}
}

// randomPS is RND (or one server) under processor sharing: server k is an
// M/G/1-PS queue, E[R_k] = (E[X]/mu_k)/(1 - rho_k), insensitive to the law
// beyond its mean; every server gets 1/K of the jobs.
func randomPS(lambda float64, sizes SizeLaw, speeds []float64) (Reference, bool) {
	var out Reference
	k := float64(len(speeds))
	for _, mu := range speeds {
		d, err := theory.MG1{Lambda: lambda / k, Size: theory.Law{M1: sizes.Mean(), M2: math.Inf(1)}, Mu: mu}.PS()
		if err != nil {
			return Reference{}, false
		}
		out.Wait += d.Wait / k
		out.Response += d.Response / k
	}
	out.Method, out.Kind = "M/G/1-PS per server (insensitive)", ExactValue
	return out, true
}
