package lbsim

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// RefKind says how a Reference relates to the simulated system.
type RefKind string

const (
	// ExactValue is the steady-state mean of exactly this system.
	ExactValue RefKind = "exact"
	// LimitValue is the mean-field limit K -> infinity; a finite K differs.
	LimitValue RefKind = "limit"
	// LowerBound is a value the system's steady-state mean cannot be below
	// (e.g. the central M/M/K queue for exponential jobs on K queues). No
	// built-in policy gives one; a policy of your own that does gets the
	// below-lower-bound warning.
	LowerBound RefKind = "lower bound"
)

// Reference is what queueing theory knows of a configuration's steady-state
// mean delays, Wait (+Inf if none) and Response, with the formula and kind.
type Reference struct {
	Wait, Response float64
	Method         string
	Kind           RefKind
	// Slowdown is the mean slowdown E[T/S] (S = x/mu, Result.Slowdown)
	// when theory knows it, +Inf when it is infinite, else NaN: under a
	// random split (RND, its weights, SITA's groups, one server) server k
	// is an M/G/1 queue, whose E[T/S | k] is 1 + E[W_k] mu_k E[1/X | k]
	// under FCFS (the wait does not depend on the size; infinite when E[1/X]
	// is, as for exponential and H2 sizes), 1/(1-rho_k) under PS (E[T | x]
	// = x/(mu_k (1-rho_k))), and E[T(X)/X] mu_k with Schrage and Miller's
	// T(x) under SRPT (a sum over an atomic law's atoms, else an integral
	// within theory.SRPTTolerance); the servers weighed by their
	// shares of the jobs. Theory sets NaN where a formula leaves it 0.
	Slowdown float64
	// Classes are the mean delays of the configuration's size classes
	// (short and long jobs, see Result.Classes), when theory knows them.
	Classes []ClassReference
	// Quantiles are the exact quantiles of the waiting and response times
	// at Percentiles, when theory knows them (servers M/M/1, M/H2/1 or
	// M/E_k/1, k <= theory.MaxTailPhases, under a random split, E_K/M/1
	// under round robin, the central M/M/K queue), else nil.
	Quantiles *ExactQuantiles
	// NoExact says why theory has no exact value where one is promised (a
	// count-based policy's Markov chain over its budget): set on a limit, or
	// on the empty Reference returned with false.
	NoExact string
}

// ClassReference is what theory knows of one size class's mean delays.
type ClassReference struct {
	Name           string
	Wait, Response float64
}

// Class returns the named class's reference, if theory knows it.
func (r Reference) Class(name string) (ClassReference, bool) {
	for _, c := range r.Classes {
		if c.Name == name {
			return c, true
		}
	}
	return ClassReference{}, false
}

// Theory returns what theory knows of cfg, the one lookup shared by the
// command line, the warnings, the figures and the notebooks: an exact value,
// a K -> infinity limit or a lower bound (Reference.Kind; Exact and Limit
// keep them apart). It checks what every formula assumes (a valid
// configuration at a stable load, no trace, live state seen at once), then asks the
// policy's Theory method (for one server, RND's M/G/1 queue whatever the
// policy), under Poisson arrivals (and deterministic ones for RND and RR).
// A formula that does not cover the configured discipline gives no value.
// Reference.Slowdown is NaN where theory does not know it.
func Theory(cfg Config) (Reference, bool) {
	ref, ok := theoryOf(cfg)
	if ref.Slowdown == 0 { // not known: a slowdown is at least 1
		ref.Slowdown = math.NaN()
	}
	return ref, ok
}

func theoryOf(cfg Config) (Reference, bool) {
	if cfg.Trace != nil || cfg.AllowOverload || cfg.Policy == nil || cfg.Sizes == nil || cfg.Validate() != nil {
		return Reference{}, false
	}
	if (cfg.Refresh > 0 || cfg.Delay > 0) && cfg.Servers > 1 {
		return Reference{}, false // a board, or departures seen late, change what the policy sees
	}
	if cfg.Servers > 1 && cfg.dispatchers() > 1 && (describe(cfg.Policy, &cfg).history || cfg.View == OwnView) {
		return Reference{}, false // M pointers, memories or own counts: not one dispatcher's system
	}
	if cfg.Servers == 1 {
		cfg.Policy = Random{} // whatever the policy: RND's one M/G/1 (D/M/1) queue
	}
	return checked(policyTheory(cfg))
}

// checked drops a reference with a NaN delay, keeping its NoExact.
func checked(ref Reference, ok bool) (Reference, bool) {
	if !ok || math.IsNaN(ref.Wait) || math.IsNaN(ref.Response) {
		return Reference{NoExact: ref.NoExact}, false
	}
	return ref, true
}

// Exact is Theory's value when it is the exact steady-state mean of cfg's
// system: what the exact columns (Row.ExactWait, JSON exact) hold.
func Exact(cfg Config) (Reference, bool) {
	ref, ok := Theory(cfg)
	if !ok || ref.Kind != ExactValue {
		return Reference{NoExact: ref.NoExact}, false
	}
	return ref, true
}

// Limit is Theory's value when it is not exact: a K -> infinity limit or a
// lower bound (Reference.Kind), what the limit columns hold.
func Limit(cfg Config) (Reference, bool) {
	ref, ok := Theory(cfg)
	if !ok || ref.Kind == ExactValue {
		return Reference{}, false
	}
	return ref, true
}

// system is what the built-in policies' theories read of a configuration.
type system struct {
	lambda  float64     // total arrival rate
	k       int         // servers
	speeds  []float64   // mu_k, at K <= theory.DispatchMaxServers
	classes []loadClass // the load model's classes of alike servers; nil for a policy that reads them
	mu      float64     // the common speed, when equal
	equal   bool        // all speeds equal
	unit    bool        // all speeds 1
	disc    Discipline
	exp     bool // exponential sizes
	sizes   SizeLaw
}

// under reports whether the system's discipline is one of ds, a formula's.
func (s system) under(ds ...Discipline) bool { return slices.Contains(ds, s.disc) }

func systemOf(c Config) system {
	s := system{lambda: c.ArrivalRate(), k: c.Servers, classes: loadClasses(c.serverLoads()), mu: c.speed(0),
		equal: allEqual(c.Speeds), disc: c.Discipline, sizes: c.Sizes}
	if s.k <= theory.DispatchMaxServers {
		s.speeds = c.speeds() // for the small chains
	}
	s.unit = s.equal && s.mu == 1
	_, s.exp = c.Sizes.(Exponential)
	return s
}

// reference is the Reference of a theory result d, or none when err is not nil.
func reference(d theory.Delay, err error, method string, kind RefKind) (Reference, bool) {
	if err != nil {
		return Reference{}, false
	}
	return Reference{Wait: d.Wait, Response: d.Response, Method: method, Kind: kind}, true
}

// scale converts delays for mean-1 sizes to sizes of mean m.
func scale(d theory.Delay, m float64) theory.Delay {
	return theory.Delay{Wait: d.Wait * m, Response: d.Response * m}
}

// splitTheory is the theory of a random split of Poisson arrivals (RND,
// its weights, SITA's groups; one server): by Poisson thinning server k is
// an M/G/1 queue of rate lambda p_k at its own speed, fed by the sizes of
// the load model (serverLoads): under FCFS E[W_k] = lambda p_k E[X^2 | k]
// / mu_k^2 / (2 (1 - rho_k)) (Pollaczek-Khinchine), under PS E[R | x] = x
// / mu_k / (1 - rho_k) (insensitive), under SRPT srptSplit. A class of
// jobs waits as the servers it is sent to do, weighed by its shares of
// them; the means weigh the classes by their probabilities.
func splitTheory(c Config, fcfs, ps string) (Reference, bool) {
	desc := describe(c.Policy, &c)
	split, loads, lambda := desc.jobSplit(), c.serverLoads(), c.ArrivalRate()
	names := c.classes() // one a class of split when it has several (SITA's groups)
	ref := Reference{Method: fcfs, Kind: ExactValue}
	// delay is the mean wait and response of class i's jobs at q's servers.
	delay := func(i int, q serverLoad) (wait, response float64, ok bool) {
		service := split[i].M1 / q.speed
		wait = lambda * q.share * q.m2 / (q.speed * q.speed) / (2 * (1 - q.rho))
		if c.Discipline == PS {
			wait = service/(1-q.rho) - service
		}
		return wait, wait + service, true
	}
	// slowdown is E[T/S] of class i's jobs at q's servers (Reference.Slowdown).
	slowdown := func(i int, q serverLoad, wait float64) float64 {
		inv, ok := lawInverse(c.sizes(), split[i].lo, split[i].hi)
		switch {
		case c.Discipline == PS:
			return 1 / (1 - q.rho)
		case !ok:
			return math.NaN()
		case wait == 0 || inv == 0:
			return 1
		}
		return 1 + wait*q.speed*inv/split[i].Prob
	}
	var srpt *srptSplit
	switch c.Discipline {
	case FCFS:
	case PS:
		ref.Method = ps
	case SRPT:
		srpt = &srptSplit{sizes: c.sizes(), split: split, lambda: lambda}
		delay = srpt.delay
		slowdown = func(int, serverLoad, float64) float64 { return srpt.slow } // found by delay
	default:
		return Reference{}, false
	}
	infinite := false // a class's slowdown at a server is: so is the mean
	for i, cl := range split {
		if cl.Prob == 0 {
			continue // no job of this class: its servers stay idle
		}
		var out ClassReference
		if len(split) > 1 && len(names) == len(split) {
			out.Name = names[i].Name
		}
		// Only the runs of the class's servers, cl.from..cl.to-1: K classes
		// of one server each (SITA-E) must not cost K^2.
		first := sort.Search(len(loads), func(j int) bool { return loads[j].to > cl.from })
		for _, q := range loads[first:] {
			if q.from >= cl.to {
				break
			}
			s := 0.0 // the class's share of the run's jobs
			for k := max(q.from, cl.from); k < min(q.to, cl.to); k++ {
				s += cl.Prob * cl.share(k)
			}
			if s == 0 {
				continue
			} else if q.rho >= 1 {
				return Reference{}, false
			}
			wait, response, ok := delay(i, q)
			if !ok {
				return Reference{}, false
			}
			out.Wait, out.Response = out.Wait+s*wait, out.Response+s*response
			if sd := slowdown(i, q, wait); math.IsInf(sd, 1) {
				infinite = true
			} else {
				ref.Slowdown += s * sd
			}
		}
		ref.Wait, ref.Response = ref.Wait+out.Wait, ref.Response+out.Response
		out.Wait, out.Response = out.Wait/cl.Prob, out.Response/cl.Prob
		if len(split) > 1 {
			ref.Classes = append(ref.Classes, out)
		}
	}
	if srpt != nil {
		ref.Method = srpt.method()
	}
	if infinite {
		ref.Slowdown = math.Inf(1)
	}
	if len(split) == 1 && math.IsInf(ref.Wait, 1) && c.Discipline == FCFS {
		ref.Method = "M/G/1 with E[X^2] = inf: no finite mean wait"
	}
	if t, ok := c.Sizes.(mg1Tailer); ok && len(split) == 1 && c.Discipline == FCFS {
		ref.Quantiles = randomSplitQuantiles(t, loads, lambda)
	}
	return ref, split != nil
}

// srptSplit is splitTheory under SRPT. Server k's sizes are the mixture of
// the classes sent to it, each the sizes' law conditioned on its interval
// (lo, hi] (serverSizes): one M/G/1-SRPT queue (theory.MG1SRPT, Schrage and
// Miller) a run of alike servers, and a class's mean is E[T; lo < X <= hi]
// over its share of the server's jobs.
type srptSplit struct {
	sizes   SizeLaw
	split   []classSplit
	lambda  float64
	bound   float64 // the largest relative error bound
	inexact bool    // a server's law is not atomic: integrated
	slow    float64 // E[T/S] of the class at the servers delay last found (NaN: unknown)
}

// srptServer is the queue of a run of alike servers: its law, its solution
// (Below at each part's lo and hi, in turn) and whether it exists.
type srptServer struct {
	law  serverSizes
	sol  theory.SRPTMeans
	ok   bool
	slow []float64 // E[mu T(X)/X; part] of each of law.parts (NaN: unknown)
}

func (s *srptSplit) delay(i int, q serverLoad) (wait, response float64, ok bool) {
	srv := s.solve(q)
	if !srv.ok {
		return 0, 0, false
	}
	for j, part := range srv.law.parts {
		if part.class == i {
			s.slow = srv.slow[j] / part.w
			lo, hi := srv.sol.Below[2*j], srv.sol.Below[2*j+1]
			bound := srv.sol.BelowBound[2*j] + srv.sol.BelowBound[2*j+1]
			response = (hi - lo) / part.w
			s.bound = max(s.bound, bound/(hi-lo), srv.sol.Bound/srv.sol.Response)
			return response - s.split[i].M1/q.speed, response, true
		}
	}
	return 0, 0, false
}

// srptSlowdowns are E[mu T(X)/X; part] of each part of the queue's law: a
// sum over an atomic law's atoms of P(x) mu T(x)/x (theory's
// AtomResponses), else theory's integral (MG1SRPT.Slowdown), NaN where
// it fails.
func srptSlowdowns(queue theory.MG1SRPT, law serverSizes, cuts []float64) []float64 {
	out := make([]float64, len(law.parts))
	var resp []float64
	if law.atoms != nil {
		resp, _ = queue.AtomResponses()
	}
	for j, part := range law.parts {
		out[j] = math.NaN()
		if law.atoms == nil {
			if v, _, err := queue.Slowdown(part.lo, part.hi, cuts...); err == nil {
				out[j] = v
			}
			continue
		}
		if resp == nil {
			continue
		}
		sum, prev := 0.0, 0.0
		for k, x := range law.atoms {
			p, _, _ := law.Below(x)
			if x > part.lo && x <= part.hi {
				sum += (p - prev) * queue.Mu * resp[k] / x
			}
			prev = p
		}
		out[j] = sum
	}
	return out
}

// solve is the M/G/1-SRPT queue of the servers of q (none when the law
// has no partial moments, or the classes' composition changes within the
// run, or their intervals overlap), found once for all alike runs.
func (s *srptSplit) solve(q serverLoad) srptServer {
	law := serverSizes{sizes: s.sizes}
	var cuts []float64
	key := srptKey{sizes: sizesKey(s.sizes), rate: s.lambda * q.share, speed: q.speed}
	for i, cl := range s.split {
		p := cl.Prob * cl.share(q.from)
		key.shares += fmt.Sprintf("%x (%x, %x], ", p, cl.lo, cl.hi)
		if p == 0 {
			continue
		}
		if cl.alikeEnd(q.from, q.to) != q.to {
			return srptServer{} // the run's servers do not all get the same classes
		}
		p0, m10, m20, ok := BelowCut(s.sizes, cl.lo)
		p1, _, _, _ := BelowCut(s.sizes, cl.hi)
		if !ok || !(p1 > p0) {
			return srptServer{}
		}
		law.parts = append(law.parts, srptPart{class: i, w: p / q.share, lo: cl.lo, hi: cl.hi, p0: p0, m10: m10, m20: m20, prob: p1 - p0})
		cuts = append(cuts, cl.lo, cl.hi)
	}
	for j := 1; j < len(law.parts); j++ {
		if law.parts[j].lo < law.parts[j-1].hi {
			return srptServer{} // overlapping classes at one server: E[T; interval] mixes them
		}
	}
	if atoms, ok := lawAtoms(s.sizes); ok {
		for _, x := range atoms {
			if law.holds(x) {
				law.atoms = append(law.atoms, x)
			}
		}
	}
	s.inexact = s.inexact || law.atoms == nil
	srv, done := srptSolved.get(key)
	if done {
		return srv
	}
	queue := theory.MG1SRPT{Lambda: key.rate, Size: law, Mu: q.speed}
	if law.atoms != nil {
		queue.Size = atomicSizes{law}
	}
	sol, err := queue.Solve(cuts...)
	srv = srptServer{law: law, sol: sol, ok: err == nil}
	if srv.ok {
		srv.slow = srptSlowdowns(queue, law, cuts)
	}
	srptSolved.put(key, srv)
	return srv
}

// srptKey names a server's M/G/1-SRPT queue: its law (the sizes, and the
// share and interval of each of the split's classes), rate and speed.
type srptKey struct {
	sizes, shares string
	rate, speed   float64
}

// srptSolved keeps the queues solved, which are slow to solve: Theory is
// asked for one configuration by its rows, warnings and figures.
var srptSolved = memo[srptKey, srptServer]{max: 1024}

// memo is a map of at most max entries, safe for concurrent use, emptied when full.
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	m   map[K]V
	max int
}

func (c *memo[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memo[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = map[K]V{}
	}
	c.m[k] = v
}

// method names the formula and how close its numbers are.
func (s *srptSplit) method() string {
	if !s.inexact {
		return "M/G/1-SRPT per server (Schrage-Miller, exact sum over the sizes)"
	}
	return "M/G/1-SRPT per server (Schrage-Miller, numerical, relative error < " + ceilText(s.bound) + ")"
}

// ceilText is x rounded up to one significant digit: 3.2e-10 is "4e-10".
func ceilText(x float64) string {
	if !(x > 0) {
		return "1e-16"
	}
	e := math.Pow(10, math.Floor(math.Log10(x)))
	return strconv.FormatFloat(math.Ceil(x/e*(1-1e-12))*e, 'g', 1, 64)
}

// serverSizes is the law of the sizes a server receives: the mixture of
// its parts, each a class's sizes conditioned on (lo, hi] with weight w
// (its share of the server's jobs), as theory.MG1SRPT reads it.
type serverSizes struct {
	sizes SizeLaw
	parts []srptPart // in order of their intervals
	atoms []float64  // the law's atoms in the parts, when it is atomic
}

// srptPart is one class at a server: its index in the split, its weight,
// its interval and the law below lo (p0, m10, m20), and P(lo < X <= hi).
type srptPart struct {
	class        int
	w, lo, hi    float64
	p0, m10, m20 float64
	prob         float64
}

// Below is (F, E[X; X <= x], E[X^2; X <= x]) of the mixture: each part
// adds w (BelowCut(min(x, hi)) - BelowCut(lo)) / P(lo < X <= hi) above lo.
func (l serverSizes) Below(x float64) (p, m1, m2 float64) {
	for _, part := range l.parts {
		if x <= part.lo {
			break
		}
		bp, b1, b2, _ := BelowCut(l.sizes, min(x, part.hi))
		f := part.w / part.prob
		p, m1, m2 = p+f*(bp-part.p0), m1+f*(b1-part.m10), m2+f*(b2-part.m20)
	}
	return p, m1, m2
}

// holds reports whether size x falls in one of the parts.
func (l serverSizes) holds(x float64) bool {
	for _, part := range l.parts {
		if x > part.lo && x <= part.hi {
			return true
		}
	}
	return false
}

// atomicSizes is a server's law whose mass sits on its atoms.
type atomicSizes struct{ serverSizes }

func (l atomicSizes) Atoms() []float64 { return l.atoms }

// mg1Tailer is a size law for which theory knows the laws of an M/G/1 FCFS
// server's wait and response: the exponential (M/M/1), H2 (the roots of the
// Pollaczek-Khinchine transform) and Erlang (its phase-type form) laws.
type mg1Tailer interface {
	// mg1Tails are the tails at arrival rate lambda and speed mu, and how
	// they were found (ExactQuantiles.Method).
	mg1Tails(lambda, mu float64) (wait, response theory.Tail, how string, err error)
}

// randomSplitQuantiles are the exact quantiles of a size-blind random split
// of Poisson arrivals to FCFS servers: server k is an M/G/1 queue of rate
// lambda p_k at speed mu_k, which a job meets with probability p_k
// (theory.Mixture). None when a server's law is out of reach.
func randomSplitQuantiles(sizes mg1Tailer, loads []serverLoad, lambda float64) *ExactQuantiles {
	var how string
	var w []float64
	var waits, resps []theory.Tail
	for _, q := range loadClasses(loads) {
		if q.share == 0 {
			continue
		}
		wait, resp, h, err := sizes.mg1Tails(lambda*q.share, q.speed)
		if err != nil {
			return nil
		}
		w, waits, resps, how = append(w, float64(q.n)*q.share), append(waits, wait), append(resps, resp), h
	}
	out := exactQuantiles(theory.Mixture(w, waits), theory.Mixture(w, resps))
	out.Method = how
	return out
}

// exactQuantiles are the quantiles at Percentiles of the laws of wait and response.
func exactQuantiles(wait, response theory.Tail) *ExactQuantiles {
	var out ExactQuantiles
	for i, p := range percentiles {
		out.Wait[i], out.Response[i] = theory.Quantile(wait, p.P), theory.Quantile(response, p.P)
	}
	return &out
}

// perServer is the Reference of a policy that sends 1/K of the jobs to
// every server: the average of delay(mu_k), once a class of alike servers.
func perServer(s system, method string, delay func(mu float64) (theory.Delay, error)) (Reference, bool) {
	out := Reference{Method: method, Kind: ExactValue}
	for _, q := range s.classes {
		d, err := delay(q.speed)
		if err != nil {
			return Reference{}, false
		}
		w := float64(q.n) / float64(s.k)
		out.Wait += w * d.Wait
		out.Response += w * d.Response
	}
	return out, s.classes != nil
}

// smallChain is the exact Markov chain of a count-based policy with
// exponential sizes at small K (theory.DispatchExact), FCFS or PS (the
// number of jobs is the same process); with the reason (NoExact) when the
// chain is too big for its budget.
func smallChain(s system, rule theory.DispatchRule) (Reference, bool) {
	if !s.exp || s.k > theory.DispatchMaxServers || !s.under(FCFS, PS) {
		return Reference{}, false
	}
	m := s.sizes.Mean()
	d, err := theory.DispatchExact(rule, s.lambda*m, s.speeds)
	if err != nil {
		return Reference{NoExact: strings.TrimPrefix(err.Error(), "theory: ")}, false
	}
	return reference(scale(d, m), err, fmt.Sprintf("exact Markov chain of %s, K=%d", rule, s.k), ExactValue)
}

// centralMMK is the central M/M/K queue (Erlang C), with its quantiles
// (theory.MMKTails): exactly LWL under FCFS, equal speeds, exponential sizes.
func centralMMK(s system) (Reference, bool) {
	if !s.under(FCFS) {
		return Reference{}, false
	}
	m := s.sizes.Mean() / s.mu
	d, err := theory.MMK(s.lambda, s.k, m)
	ref, ok := reference(d, err, fmt.Sprintf("central M/M/%d (Erlang C)", s.k), ExactValue)
	if wait, resp, err := theory.MMKTails(s.lambda, s.k, m); ok && err == nil {
		ref.Quantiles = exactQuantiles(wait, resp)
	}
	return ref, ok
}
