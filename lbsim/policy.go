package lbsim

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// Policy is a dispatching policy: for each arriving job it picks the server
// the job joins, from a View of the servers. A policy of your own is a type
// with these two methods (see ExamplePolicy); lbsim gives it live state or a
// stale board, the dispatcher's tally and the dispatch random stream. With
// several dispatchers (Config.Dispatchers) the value is shared and each
// dispatcher has its own View, stream, board and Start's value.
//
// Optional methods tell lbsim more about it (each built-in policy keeps all
// of its knowledge in its own file this way):
//
//	Reads() State                        the server state Pick reads (default Workload|Count)
//	Validate(k int, sizes SizeLaw) error its checks against K servers and the size law
//	Label() string                       its name in tables and figures (default String())
//	Start(v *View) Policy                a fresh value per replication and dispatcher, for a
//	                                     policy that keeps state from one job to the next
//	Theory(c Config) (Reference, bool)   what queueing theory knows of c's mean delays (Exact)
//	RowParams(k int) (d, c int)          its Row's d and c: servers sampled per job, SITA's c
//	Probes(k int) int                    servers asked per job (default d; MessagesPerJob)
//	WorkShares(c Config) []float64       each server's share of the work, for a policy that
//	                                     splits jobs without reading the servers (nil: unknown)
//	Classes(k int, sizes SizeLaw) []SizeClass
//	                                     the size classes results are reported for, with
//	                                     their servers (default: the size law's Classifier)
//
// The built-in policies have the same methods unexported (reads, validate,
// label, ...): ask any policy through the functions Label, Reads, Start and
// Theory, which read either.
//
// Pick and Start must not change the policy value itself: it is the spec
// that every replication (run in parallel) and dispatcher starts from. A
// run that changes it is refused with an error (policy_value.go); state
// kept from one job to the next belongs in Start's value.
type Policy interface {
	// String is the policy's spec: for registered policies what ParsePolicy
	// reads back (e.g. "ll:d=2").
	String() string
	// Pick returns the server, 0 <= k < v.K(), for a job of size x.
	Pick(v *View, x float64) int
}

// Each optional method is a pair of named interfaces, asked only by the
// function after them (and by the simulation loop, sim*.go, and a policy's
// own file): a policy of one's own has the exported method of Policy's
// comment, a built-in policy the unexported one. The function asks the
// exported one first, so that a type of one's own that embeds a built-in
// and defines the method gets its own answer, not the built-in's. Then come
// the hooks only built-in policies have.

// has reports whether p has the methods of T (a marker hook: symmetric,
// idleReporter, splitter).
func has[T any](p Policy) bool {
	_, ok := p.(T)
	return ok
}

// reader: the state the run keeps (job counts), a board copies and Validate
// asks of a board (none read: no board).
type (
	reader        interface{ Reads() State }
	builtinReader interface{ reads() State }
)

// Reads returns the server state p looks at: its Reads if it says, else
// both (a policy of your own that reads neither can say Reads() State { return 0 }).
func Reads(p Policy) State {
	switch r := p.(type) {
	case reader:
		return r.Reads()
	case builtinReader:
		return r.reads()
	}
	return Workload | Count
}

// validator: checks against K and the size law, asked by Config.Validate.
type (
	validator interface {
		Validate(k int, sizes SizeLaw) error
	}
	builtinValidator interface {
		validate(k int, sizes SizeLaw) error
	}
)

func validatePolicy(p Policy, k int, sizes SizeLaw) error {
	switch v := p.(type) {
	case validator:
		return v.Validate(k, sizes)
	case builtinValidator:
		return v.validate(k, sizes)
	}
	return nil
}

// labeler: the name in tables, figures and Find.
type (
	labeler        interface{ Label() string }
	builtinLabeler interface{ label() string }
)

// Label is p's human name (RND, LL-2, SITA-20): its Label if it has one,
// else its spec.
func Label(p Policy) string {
	switch l := p.(type) {
	case labeler:
		return l.Label()
	case builtinLabeler:
		return l.label()
	case nil:
		return "no policy"
	}
	return p.String()
}

// starter: a value per replication and dispatcher (newDispatcher, ownHistory).
type (
	starter        interface{ Start(v *View) Policy }
	builtinStarter interface{ start(v *View) Policy }
)

// Start is p's value for one replication and dispatcher, whose Pick it
// calls: its Start's, or p itself if it keeps no state. A policy of your
// own that wraps another must forward it: Start(v) returning the wrapper
// of lbsim.Start(inner, v).
func Start(p Policy, v *View) Policy {
	switch s := p.(type) {
	case starter:
		return s.Start(v)
	case builtinStarter:
		return s.start(v)
	}
	return p
}

// fastPolicy: a built-in policy's own dispatcher, for each replication.
type fastPolicy interface{ newDispatcher(s *sim) dispatcher }

// stateKeeper: the memory one dispatcher's own instance of a built-in
// policy (newDispatcher) holds beyond a few words, for the memory
// estimate, which charges it to every dispatcher (Config.dispatcherBytes).
type stateKeeper interface{ dispatcherState(c *Config) int64 }

// dispatcherState is the memory, in bytes, of one dispatcher's own
// instance of p under c, and of its own counts under the own view
// (ownViewBytes): its own answer for a built-in policy; for a policy of
// one's own, which may keep anything (Start), as much per server as the
// heaviest, and without Start, its View's samples (indexBytes).
func dispatcherState(p Policy, c *Config) int64 {
	own := c.ownViewBytes()
	switch {
	case has[stateKeeper](p):
		return own + p.(stateKeeper).dispatcherState(c)
	case has[starter](p) || has[builtinStarter](p):
		return own + serverBytes*int64(c.Servers)
	}
	return own + indexBytes*int64(c.Servers)
}

// newDispatcher is p's dispatcher for one replication: its own, or its
// Pick through a View, on Start's value.
func newDispatcher(p Policy, s *sim) dispatcher {
	if f, ok := p.(fastPolicy); ok {
		return f.newDispatcher(s)
	}
	d := &viewDispatcher{v: View{s: s}}
	d.p = Start(p, &d.v)
	return d
}

// historian: whether a built-in policy's choices depend on its own earlier
// ones at K servers (RR's pointer, a memory, LSQ's estimates).
type historian interface{ ownHistory(k int) bool }

// ownHistory reports whether p's choices depend on its own: with several
// dispatchers each has its own history, and the theory of one dispatcher
// no longer describes the system (Theory). A policy that keeps state
// (Start) is taken to.
func ownHistory(p Policy, k int) bool {
	if h, ok := p.(historian); ok {
		return h.ownHistory(k)
	}
	return has[builtinStarter](p) || has[starter](p)
}

// theorist: the theory of Poisson arrivals; gapTheorist: a built-in
// policy's of deterministic ones (a user's Theory may assume Poisson
// arrivals without saying). Asked by Theory after its checks, for Exact,
// Limit, the exact-outside-ci warning and plots.TheoryCurve.
type (
	theorist interface {
		Theory(c Config) (Reference, bool)
	}
	builtinTheorist interface {
		theory(c Config) (Reference, bool)
	}
	gapTheorist interface {
		gapTheory(c Config) (Reference, bool)
	}
)

func policyTheory(p Policy, c Config) (Reference, bool) {
	switch c.arrivals().(type) {
	case Poisson:
		switch t := p.(type) {
		case theorist:
			return t.Theory(c)
		case builtinTheorist:
			return t.theory(c)
		}
	case DeterministicArrivals:
		if t, ok := p.(gapTheorist); ok {
			return t.gapTheory(c)
		}
	}
	return Reference{}, false
}

// rowParamser: the d and c columns of a Row (NewRow); d is the default of Probes.
type (
	rowParamser        interface{ RowParams(k int) (d, c int) }
	builtinRowParamser interface{ rowParams(k int) (d, c int) }
)

// rowParams are p's d and c columns, 0 when it has none.
func rowParams(p Policy, k int) (d, c int) {
	switch r := p.(type) {
	case rowParamser:
		return r.RowParams(k)
	case builtinRowParamser:
		return r.rowParams(k)
	}
	return 0, 0
}

// prober: the servers asked per job, for Result.MessagesPerJob.
type (
	prober        interface{ Probes(k int) int }
	builtinProber interface{ probes(k int) int }
)

// probes is the number of servers p asks for their state per job when it
// reads live state: its Probes, else its row's d (0 if it reads nothing).
func probes(p Policy, k int) int {
	switch pr := p.(type) {
	case prober:
		return pr.Probes(k)
	case builtinProber:
		return pr.probes(k)
	}
	if Reads(p) == 0 {
		return 0
	}
	d, _ := rowParams(p, k)
	return d
}

// classer: the run's and Result's size classes (Config.classes).
type (
	classer interface {
		Classes(k int, sizes SizeLaw) []SizeClass
	}
	builtinClasser interface {
		classes(k int, sizes SizeLaw) []SizeClass
	}
)

func policyClasses(p Policy, k int, sizes SizeLaw) []SizeClass {
	switch cl := p.(type) {
	case classer:
		return cl.Classes(k, sizes)
	case builtinClasser:
		return cl.classes(k, sizes)
	}
	return nil
}

// workSharer: a policy of one's own that splits jobs without reading the
// servers; the model of the servers' loads (Validate, the warnings, the
// row) takes its shares of the work as shares of all jobs (jobSplit).
type workSharer interface{ WorkShares(c Config) []float64 }

// splitter: a built-in policy that splits the jobs without reading the
// servers (RND, RR, SITA, their weighted variants, LSQ without messages):
// the classes of jobs it tells apart and their servers, nil when c does not
// determine them, for the model of the servers' loads (serverLoads).
type splitter interface{ split(c *Config) []classSplit }

// classSplit is a class of jobs, its share of all jobs and its conditional
// moments (Prob, M1 = E[X | class], M2 = E[X^2 | class]), sent to servers
// from..to-1 with the given shares (nil: evenly). Its jobs are those of
// sizes in (lo, hi]: theory that needs the class's whole law (SRPT's) reads
// it as the sizes' law conditioned on that interval.
type classSplit struct {
	theory.ClassMoments
	from, to int
	shares   []float64 // per server of from..to-1, summing to 1
	lo, hi   float64   // the class's sizes, (lo, hi]
}

// share is server k's share of the class's jobs.
func (cl classSplit) share(k int) float64 {
	switch {
	case k < cl.from || k >= cl.to:
		return 0
	case cl.shares != nil:
		return cl.shares[k-cl.from]
	}
	return 1 / float64(cl.to-cl.from)
}

// alikeEnd is where, from server k on and before end, a server's share of
// the class first differs from server k's.
func (cl classSplit) alikeEnd(k, end int) int {
	switch {
	case k < cl.from:
		return min(end, cl.from)
	case k >= cl.to:
		return end
	case cl.shares == nil:
		return min(end, cl.to)
	}
	j := k + 1
	for j < min(end, cl.to) && cl.shares[j-cl.from] == cl.shares[k-cl.from] {
		j++
	}
	return j
}

// allJobs is the split of a policy that tells no class apart: every job to
// the K servers with the given shares (nil: evenly).
func allJobs(c *Config, shares []float64) []classSplit {
	sizes := c.sizes()
	return []classSplit{{ClassMoments: theory.ClassMoments{Prob: 1, M1: sizes.Mean(), M2: sizes.SecondMoment()}, to: c.Servers, shares: shares, hi: math.Inf(1)}}
}

// jobSplit is c's policy's split, or its WorkShares as the shares of all jobs.
func jobSplit(c *Config) []classSplit {
	switch p := c.Policy.(type) {
	case workSharer:
		if shares := p.WorkShares(*c); shares != nil {
			return allJobs(c, shares)
		}
	case splitter:
		return p.split(c)
	}
	return nil
}

// loadAdviser: advice for an overloaded server (SITA: the c that balances
// its groups), for Validate's error.
type loadAdviser interface{ loadAdvice(c *Config) string }

func loadAdvice(c *Config) string {
	if a, ok := c.Policy.(loadAdviser); ok {
		return a.loadAdvice(c)
	}
	return ""
}

// gapSCVer: the SCV of the gaps between the jobs server k gets, for
// arrival gaps of SCV c0, where they are not a random split's (round
// robin's turns), for the run-length analysis.
type gapSCVer interface {
	gapSCV(c *Config, c0 float64, q serverLoad) float64
}

// gapSCV is that of the servers of q. A server that gets every n-th job
// has gaps of SCV (E[n] c0 + Var n) / E[n]^2; a random split makes n
// geometric, E[n] = 1/p, Var n = (1 - p)/p^2 for the share p: p c0 + 1 - p.
func gapSCV(c *Config, c0 float64, q serverLoad) float64 {
	if g, ok := c.Policy.(gapSCVer); ok {
		return g.gapSCV(c, c0, q)
	}
	return q.share*c0 + 1 - q.share
}

// sampler: a built-in policy that sends each job to one of d servers
// sampled uniformly (policy_sample.go), for the d-sampling bound.
type sampler interface {
	sampling(k int) (d int, replace, ok bool)
}

func sampling(p Policy, k int) (d int, replace, ok bool) {
	if s, is := p.(sampler); is {
		return s.sampling(k)
	}
	return 0, false, false
}

// symmetric: a built-in policy that treats the servers alike, so that
// with equal speeds every server carries the load rho (instability).
type symmetric interface{ symmetric() }

// balancer: a built-in policy that, on live state, sends every job to a
// server least loaded of all K (LWL, JSQ, SED): no server's queue grows
// while another's is shorter, so a server busy near 1 below the system's
// load is not a queue near critical (nearCritical).
type balancer interface{ balances(k int) bool }

func balances(c *Config) bool {
	b, ok := c.Policy.(balancer)
	ownOnly := c.View == OwnView && c.dispatchers() > 1 // each balances its own jobs only
	return ok && c.Refresh == 0 && !ownOnly && b.balances(c.Servers)
}

// configChecker: a built-in policy's checks of the whole configuration
// (JIQ's I-queue options, LSQ's refusal of a board), run by Validate.
type configChecker interface{ checkConfig(c *Config) error }

func checkPolicyConfig(c *Config) error {
	if p, ok := c.Policy.(configChecker); ok {
		return p.checkConfig(c)
	}
	return nil
}

// idleReporter: a built-in policy that learns of idle servers from their
// messages (JIQ), which the run counts (Result.MessagesPerJob).
type idleReporter interface{ reportsIdle() }

// State is the server state a policy reads: a set of flags.
type State uint8

const (
	// Workload is the remaining work at each server, in time units.
	Workload State = 1 << iota
	// Count is the number of jobs present at each server.
	Count
)

// dispatcher is one replication's instance of a policy: built-in policies
// have fast ones (heaps, buckets, lazy state); others pick through a View.
// The simulation loop asks what else it does: observer and refresher
// below, leaner (sim_lean.go), holder (sim_backlog.go).
type dispatcher interface {
	// pick chooses the server for a job of size x arriving at time t.
	pick(t, x float64) int
}

// observer is a dispatcher that keeps its own index of the servers: it is
// told that the job of size x joined server k at time t.
type observer interface {
	sent(k int, t, x float64)
}

// refresher is a dispatcher that rebuilds its index when the board is
// refreshed at time r0.
type refresher interface {
	refreshed(r0 float64)
}

// viewDispatcher runs a policy through its Pick method.
type viewDispatcher struct {
	p Policy
	v View
}

func (d *viewDispatcher) pick(t, x float64) int {
	d.v.t = t
	k := d.p.Pick(&d.v, x)
	d.v.n++
	if k < 0 || k >= d.v.s.k {
		panic(policyError{fmt.Errorf("policy %s picked server %d: need 0 <= k < K = %d; fix its Pick method", d.p, k, d.v.s.k)})
	}
	return k
}

// policyError carries a policy's mistake out of the run loop (see runReplication).
type policyError struct{ err error }
