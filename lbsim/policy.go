package lbsim

import (
	"fmt"
	"math"
	"reflect"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// Policy is a dispatching policy: for each arriving job it picks the server
// the job joins, from a View of the servers. A policy of your own is a type
// with these two methods (see ExamplePolicy); lbsim gives it live state or a
// stale board, the dispatcher's tally and the dispatch random stream. With
// several dispatchers (Config.Dispatchers) the value is shared and each
// dispatcher has its own View, stream, board and Start's value.
//
// What lbsim knows of a policy beyond its behaviour is its [Description],
// which a policy of your own gives by a Describe method. Three more
// optional methods are behaviour:
//
//	Describe(c Config) Description       its facts under c
//	Validate(k int, sizes SizeLaw) error its checks against K servers and the size law
//	Start(v *View) Policy                a fresh value per replication and dispatcher, for a
//	                                     policy that keeps state from one job to the next
//	Theory(c Config) (Reference, bool)   what queueing theory knows of c's mean delays under
//	                                     Poisson arrivals (see Theory)
//
// Built-in policies answer through unexported methods (builtin); a type of
// your own that embeds one is yours, asked only through its exported methods.
//
// Pick and Start must not change the policy value itself, the spec every
// replication (run in parallel) and dispatcher starts from: a run that
// changes it is refused. State kept from job to job belongs in Start's value.
type Policy interface {
	// String is the policy's spec: for registered policies what ParsePolicy
	// reads back (e.g. "ll:d=2").
	String() string
	// Pick returns the server, 0 <= k < v.K(), for a job of size x.
	Pick(v *View, x float64) int
}

// Description is what a policy tells lbsim about itself under a
// configuration, apart from what it does. The zero value says nothing:
// named by its String, reading workloads and counts, asking an unknown
// number of servers a job, without classes of its own.
type Description struct {
	// Label is its name in tables, figures and Find, e.g. "LL-2" ("": String).
	Label string
	// Reads is the server state Pick reads: Workload, Count, both, or
	// NoState (a split such as RND's, which no board serves); 0: both.
	Reads State
	// D and C are the Row's d and c columns (0: not applicable): the servers
	// sampled per job (K over all), SITA's servers for its shortest jobs.
	D, C int
	// Probes is the number of servers asked for their state per job on
	// live state (MessagesPerJob counts a probe and its reply). 0 reads as
	// D, as none under NoState, else as not known (MessagesPerJob NaN).
	Probes int
	// Classes are the size classes results are reported for, each with its
	// servers (Result.Classes); nil: the size law's (its Classes method).
	Classes []SizeClass
	// WorkShares are, for a policy that splits the jobs without reading the
	// servers, each server's share of them, for the model of the servers'
	// loads (stability check, warnings, Row.MaxServerLoad). nil: not known.
	WorkShares []float64

	builtinFacts
}

// builtinFacts are what a built-in policy also says of itself, for the
// load model, the stability checks and warnings, the run-length analysis,
// the memory estimate and the cache key (describe infers a few for a
// policy of one's own).
type builtinFacts struct {
	builtin bool // a built-in policy's: each fact is exact (Probes 0 is none)
	// history: its choices depend on its own earlier ones (RR's pointer, a
	// memory, LSQ's estimates), so M dispatchers are not one dispatcher's
	// system (Theory). A policy of one's own with Start is taken to.
	history bool
	// split gives its classes of jobs and their servers, for a policy that
	// splits them without reading the servers; classes, a built-in's size
	// classes. Both are O(K) for weights and SITA-E, so they are computed
	// when asked (jobSplit, sizeClasses): most readers need neither.
	split   func() []classSplit
	classes func() []SizeClass
	// nClasses is len(classes()) when the configuration is valid, known
	// without finding them (SITA-E's cutoffs take seconds at 10^6 groups,
	// and the memory check needs only their number); 0: unknown.
	nClasses int
	// sampled is d for a policy that sends each job to one of d servers
	// sampled uniformly, with or without replace (checkSampling); else 0.
	sampled     int
	replace     bool
	symmetric   bool // it treats the servers alike: with equal speeds each carries rho
	balances    bool // on live state, every job to a least loaded of all K (see balances)
	reportsIdle bool // it learns of idle servers from their messages (JIQ)
	// stateBytes is the memory of one dispatcher's own instance beyond a
	// few words, charged to every dispatcher (Config.dispatcherBytes).
	stateBytes int64
	jobIndexes int64 // live indexes holding an entry for each job in the system (perJobBytes)
	// stamps: it reads when each count last changed as the dispatcher saw
	// it (ties=oldest), so its own view keeps each departure's time (PS, SRPT).
	stamps bool
	// gapSCV is the SCV of the gaps between the jobs of q's servers for
	// arrival gaps of SCV c0 (round robin's turns); nil: see gapSCV.
	gapSCV func(c0 float64, q serverLoad) float64
	advice func() string // added to Validate's error for an overloaded server (SITA)
	note   func() string // a line of the run's summary, "" for none (SITA-E's shares at sizes of the law)
	// actsAs is the policy that runs the same under c, to the bit, whose
	// spec is the key (policyKey; JIQ's options with one dispatcher).
	actsAs    Policy
	detTheory bool // its theory knows deterministic arrivals too
}

// The optional methods of a policy of one's own (see Policy), asked by yours.
type (
	describer interface{ Describe(c Config) Description }
	validator interface {
		Validate(k int, sizes SizeLaw) error
	}
	starter  interface{ Start(v *View) Policy }
	theorist interface {
		Theory(c Config) (Reference, bool)
	}
)

// builtin is a policy of this package: its description and behaviour,
// unexported, and its own dispatcher for a replication.
type builtin interface {
	Policy
	describe(c *Config) Description
	validate(c *Config) error
	start(v *View) Policy
	theory(c Config) (Reference, bool)
	newDispatcher(s *sim) dispatcher
}

// impl is p as lbsim asks it: a built-in policy itself, any other (one that
// embeds a built-in one too) through its exported methods (yours).
func impl(p Policy) builtin {
	if b, ok := p.(builtin); ok && !embedsBuiltin(reflect.TypeOf(p)) {
		return b
	}
	return yours{p}
}

var builtinType = reflect.TypeFor[builtin]()

// embedsBuiltin reports whether struct t has a built-in policy's methods by embedding.
func embedsBuiltin(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for f := range t.Fields() {
		if f.Anonymous && f.Type.Implements(builtinType) {
			return true
		}
	}
	return false
}

// yours is a policy of one's own, asked through its optional methods or their defaults.
type yours struct{ Policy }

func (p yours) describe(c *Config) Description {
	if d, ok := p.Policy.(describer); ok {
		return d.Describe(*c)
	}
	return Description{}
}

func (p yours) validate(c *Config) error {
	if err := checkRetired(p.Policy); err != nil {
		return err
	}
	if v, ok := p.Policy.(validator); ok {
		if err := v.Validate(c.Servers, c.sizes()); err != nil {
			return err
		}
	}
	return checkShares(p.Policy, p.describe(c).WorkShares, c.Servers)
}

func (p yours) start(v *View) Policy {
	if s, ok := p.Policy.(starter); ok {
		return s.Start(v)
	}
	return p.Policy
}

func (p yours) theory(c Config) (Reference, bool) {
	if t, ok := p.Policy.(theorist); ok {
		return t.Theory(c)
	}
	return Reference{}, false
}

// newDispatcher picks through a View, on Start's value.
func (p yours) newDispatcher(s *sim) dispatcher {
	d := &viewDispatcher{v: View{s: s}}
	d.p = p.start(&d.v)
	return d
}

// retiredMethods are the optional methods a policy of one's own had before
// its Description: one that still has one would run without what it says,
// so it is refused with where to say it now.
var retiredMethods = []struct{ name, field string }{
	{"Reads", "Reads"}, {"Label", "Label"}, {"RowParams", "D and C"}, {"Probes", "Probes"}, {"Classes", "Classes"}, {"WorkShares", "WorkShares"},
}

func checkRetired(p Policy) error {
	for _, m := range retiredMethods {
		if _, ok := reflect.TypeOf(p).MethodByName(m.name); ok {
			return fmt.Errorf("policy %s has a method %s, which lbsim no longer asks: say it in the policy's Description, a method Describe(c lbsim.Config) lbsim.Description returning lbsim.Description{%s: ...} (see lbsim.Policy)", p, m.name, m.field)
		}
	}
	return nil
}

// Describe is what lbsim knows of p under c: its Description, read as its
// zero value says where it is silent, and Probes -1 when not known.
func Describe(p Policy, c Config) Description {
	d := describe(p, &c)
	d.Classes = d.sizeClasses()
	return d
}

func describe(p Policy, c *Config) Description {
	if p == nil {
		return Description{Label: "no policy"}
	}
	b := impl(p)
	d := b.describe(c)
	if d.Label == "" {
		d.Label = p.String()
	}
	if _, own := b.(yours); !own {
		d.builtin = true // every fact exact, Probes 0 included
		return d
	}
	if d.Reads == 0 {
		d.Reads = Workload | Count
	}
	if d.Probes == 0 {
		switch {
		case d.Reads == NoState:
		case d.D > 0:
			d.Probes = d.D
		default:
			d.Probes = -1
		}
	}
	_, d.history = p.(starter)
	d.stateBytes = indexBytes * int64(c.Servers) // its View's samples
	if d.history {
		d.stateBytes = serverBytes * int64(c.Servers) // anything Start keeps: as much per server as the heaviest
	}
	if d.WorkShares != nil && c.Sizes != nil && checkShares(p, d.WorkShares, c.Servers) == nil {
		d.split = func() []classSplit { return allJobs(c, d.WorkShares) }
	}
	return d
}

// jobSplit is the policy's split of the jobs, nil when it has none.
func (d *Description) jobSplit() (split []classSplit) {
	if d.split != nil {
		split = d.split()
	}
	return split
}

// sizeClasses are the policy's size classes, Classes or a built-in's.
func (d *Description) sizeClasses() []SizeClass {
	if d.Classes == nil && d.classes != nil {
		return d.classes()
	}
	return d.Classes
}

// checkShares checks a Description's WorkShares at K servers: none, or a
// share a server, none below 0, summing to 1.
func checkShares(p Policy, shares []float64, k int) error {
	sum := 0.0
	for i, w := range shares {
		if !(w >= 0) {
			return fmt.Errorf("policy %s: WorkShares[%d] is %v: need every share >= 0", p, i, w)
		}
		sum += w
	}
	switch {
	case shares != nil && len(shares) != k:
		return fmt.Errorf("policy %s describes %d WorkShares for K=%d servers: need one share a server (or none: nil), from its Describe's Config", p, len(shares), k)
	case shares != nil && math.Abs(sum-1) > 1e-9:
		return fmt.Errorf("policy %s: its WorkShares sum to %v: need shares of the jobs, summing to 1", p, sum)
	}
	return nil
}

// Label is p's name in tables and figures (RND, LL-2, SITA-20): its
// Description's Label, else its spec. It asks Describe with a zero Config.
func Label(p Policy) string { return describe(p, &Config{Policy: p}).Label }

// Start is p's value for one replication and dispatcher, whose Pick it
// calls: its Start's, or p itself if it keeps no state. A policy of your
// own that wraps another must forward it: Start(v) returning the wrapper
// of lbsim.Start(inner, v).
func Start(p Policy, v *View) Policy { return impl(p).start(v) }

// newDispatcher is p's dispatcher for one replication: a built-in's own, or yours.
func newDispatcher(p Policy, s *sim) dispatcher { return impl(p).newDispatcher(s) }

// policyTheory asks c's policy: under Poisson arrivals any, under
// deterministic ones a built-in one whose theory knows them (a user's
// Theory may assume Poisson arrivals without saying).
func policyTheory(c Config) (Reference, bool) {
	switch c.arrivals().(type) {
	case Poisson:
	case DeterministicArrivals:
		if !describe(c.Policy, &c).detTheory {
			return Reference{}, false
		}
	default:
		return Reference{}, false
	}
	return impl(c.Policy).theory(c)
}

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
// the K servers with the given shares (nil: evenly); none without a size law.
func allJobs(c *Config, shares []float64) []classSplit {
	sizes := c.sizes()
	if sizes == nil {
		return nil
	}
	return []classSplit{{ClassMoments: theory.ClassMoments{Prob: 1, M1: sizes.Mean(), M2: sizes.SecondMoment()}, to: c.Servers, shares: shares, hi: math.Inf(1)}}
}

// gapSCV is the SCV of the gaps between the jobs of the servers of q for
// arrival gaps of SCV c0: the policy's, else a random split's. A server
// that gets every n-th job has gaps of SCV (E[n] c0 + Var n) / E[n]^2; a
// random split makes n geometric, E[n] = 1/p, Var n = (1 - p)/p^2 for the
// share p: p c0 + 1 - p.
func gapSCV(d *Description, c0 float64, q serverLoad) float64 {
	if d.gapSCV != nil {
		return d.gapSCV(c0, q)
	}
	return q.share*c0 + 1 - q.share
}

// balances reports whether c's policy, on live state, sends every job to a
// server least loaded of all K: no server's queue grows while another's
// is shorter, so a server busy near 1 below the system's load is not a
// queue near critical (nearCritical).
func balances(c *Config) bool {
	ownOnly := c.View == OwnView && c.dispatchers() > 1 // each balances its own jobs only
	return c.Refresh == 0 && c.Delay == 0 && !ownOnly && describe(c.Policy, c).balances
}

// State is the server state a policy reads: a set of flags.
type State uint8

const (
	// Workload is the remaining work at each server, in time units.
	Workload State = 1 << iota
	// Count is the number of jobs present at each server.
	Count
	// NoState is a policy that reads no server state (RND, RR, SITA): no
	// board, no server asked. Not combined with the others.
	NoState
)

// dispatcher is one replication's instance of a policy: built-in policies
// have fast ones; others pick through a View. The run loop asks what else
// it does: observer, refresher, leaner, foreseer, holder.
type dispatcher interface {
	// pick chooses the server for a job of size x arriving at time t.
	pick(t, x float64) int
}

// observer is a dispatcher with its own index of the servers, told of each send.
type observer interface {
	sent(k int, t, x float64)
}

// refresher is a dispatcher that rebuilds its index when the board is refreshed.
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
