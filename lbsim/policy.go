package lbsim

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// Policy is a dispatching policy: for each arriving job it picks the server
// the job joins, from a View of the servers. A policy of your own is a type
// with these two methods (see ExamplePolicy); lbsim gives it live state or a
// stale board, the dispatcher's tally and the dispatch random stream. With
// several dispatchers (Config.Dispatchers) the value is shared and each
// dispatcher has its own View, stream, board and Start's value.
//
// Optional methods tell lbsim more about it; each built-in policy keeps all
// of its knowledge in its own file this way:
//
//	Reads() State                         server state Pick looks at (default Workload|Count)
//	Validate(k int, sizes SizeLaw) error  checks it against K servers and the size law
//	Label() string                        its name in tables and figures (default String())
//	Start(v *View) Policy                 a fresh value per replication and dispatcher,
//	                                      for a policy that keeps state from one job
//	                                      to the next
//	Theory(c Config) (Reference, bool)    what queueing theory knows of c's mean delays:
//	                                      Exact, the exact-outside-ci warning and
//	                                      plots.TheoryCurve use it (see Exact for what
//	                                      c is checked for first)
//	RowParams(k int) (d, c int)           the d and c columns of its Row (servers
//	                                      sampled per job; servers of SITA's short jobs)
//	Probes(k int) int                     the servers it asks for their live state per
//	                                      job, two messages each (default: RowParams'
//	                                      d; see Result.MessagesPerJob)
//	WorkShares(c Config) []float64        for a policy that splits jobs without reading
//	                                      the servers: the fraction of the work each
//	                                      server gets, so Validate refuses an overloaded
//	                                      server (nil: not known for c)
//	Classes(k int, sizes SizeLaw) []SizeClass
//	                                      the size classes results are reported for, and
//	                                      the servers each class is sent to (default: the
//	                                      size law's Classifier, on all servers)
//
// Pick must not change the policy value itself unless Start gives each
// replication its own (replications run in parallel).
type Policy interface {
	// String is the policy's spec: for registered policies what ParsePolicy
	// reads back (e.g. "ll:d=2").
	String() string
	// Pick returns the server, 0 <= k < v.K(), for a job of size x.
	Pick(v *View, x float64) int
}

// rowParams are p's d and c columns (see Policy), 0 when it has none.
func rowParams(p Policy, k int) (d, c int) {
	if r, ok := p.(interface{ RowParams(k int) (d, c int) }); ok {
		return r.RowParams(k)
	}
	return 0, 0
}

// splitter is a built-in policy that splits the jobs without reading the
// servers (RND, RR, SITA, their weighted variants, LSQ without messages):
// split is the classes of jobs it tells apart, each with the servers it is
// sent to, nil when c does not determine it (SITA's cut on a law without
// Truncated). The model of the servers' loads asks it (serverLoads); so
// does SITA's theory.
type splitter interface {
	split(c *Config) []classSplit
}

// classSplit is a class of jobs, its share of all jobs and its conditional
// moments (Prob, M1 = E[X | class], M2 = E[X^2 | class]), sent to servers
// from..to-1 with the given shares (nil: evenly).
type classSplit struct {
	theory.ClassMoments
	from, to int
	shares   []float64 // per server of from..to-1, summing to 1
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

// allJobs is the split of a policy that tells no class apart: every job to
// the K servers with the given shares (nil: evenly).
func allJobs(c *Config, shares []float64) []classSplit {
	sizes := c.sizes()
	return []classSplit{{ClassMoments: theory.ClassMoments{Prob: 1, M1: sizes.Mean(), M2: sizes.SecondMoment()}, to: c.Servers, shares: shares}}
}

// splits reports whether p is a built-in policy that splits the jobs
// without reading the servers.
func splits(p Policy) bool {
	_, ok := p.(splitter)
	return ok
}

// jobSplit is c's policy's split (see splitter); for a policy of one's own,
// its WorkShares (see Policy) as the shares of all jobs: nil when it has
// neither.
func jobSplit(c *Config) []classSplit {
	switch p := c.Policy.(type) {
	case splitter:
		return p.split(c)
	case interface{ WorkShares(c Config) []float64 }:
		if shares := p.WorkShares(*c); shares != nil {
			return allJobs(c, shares)
		}
	}
	return nil
}

// loadAdviser is a built-in policy with advice for an overloaded server
// (SITA: the c that balances its groups), for Validate's error.
type loadAdviser interface {
	loadAdvice(c *Config) string
}

// loadAdvice is c's policy's advice, "" if it has none.
func loadAdvice(c *Config) string {
	if a, ok := c.Policy.(loadAdviser); ok {
		return a.loadAdvice(c)
	}
	return ""
}

// gapSCVer is a built-in policy whose servers see other gaps than a random
// split of the arrivals gives (round robin's turns): gapSCV is the SCV of
// the gaps between the jobs a server receiving the share p of them gets,
// arrival gaps having SCV c0. The run-length analysis asks it.
type gapSCVer interface {
	gapSCV(c0, p float64) float64
}

// gapSCV is p's gapSCV, else a random split's. A server that gets every
// n-th job has gaps of SCV (E[n] c0 + Var n) / E[n]^2; a random split makes
// n geometric, E[n] = 1/share, Var n = (1 - share)/share^2: share c0 + 1 - share.
func gapSCV(p Policy, c0, share float64) float64 {
	if g, ok := p.(gapSCVer); ok {
		return g.gapSCV(c0, share)
	}
	return share*c0 + 1 - share
}

// State is the server state a policy reads: a set of flags.
type State uint8

const (
	// Workload is the remaining work at each server, in time units.
	Workload State = 1 << iota
	// Count is the number of jobs present at each server.
	Count
)

// Reads returns the server state p looks at: p.Reads() if it says,
// else both (a policy of your own that reads neither can say Reads() State { return 0 }).
func Reads(p Policy) State {
	if r, ok := p.(interface{ Reads() State }); ok {
		return r.Reads()
	}
	return Workload | Count
}

// Label is p's human name (RND, LL-2, SITA-20): p.Label() if it has one,
// else its spec.
func Label(p Policy) string {
	if l, ok := p.(interface{ Label() string }); ok {
		return l.Label()
	}
	if p == nil {
		return "no policy"
	}
	return p.String()
}

// validatePolicy runs p's own checks, if it has any.
func validatePolicy(p Policy, k int, sizes SizeLaw) error {
	if v, ok := p.(interface {
		Validate(k int, sizes SizeLaw) error
	}); ok {
		return v.Validate(k, sizes)
	}
	return nil
}

// dispatcher is one replication's instance of a policy: built-in policies
// have fast ones (heaps, buckets, lazy state); others pick through a View.
type dispatcher interface {
	// pick chooses the server for a job of size x arriving at time t.
	pick(t, x float64) int
}

// fastPolicy is a built-in policy with its own dispatcher.
type fastPolicy interface {
	newDispatcher(s *sim) dispatcher
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

// newDispatcher is p's dispatcher for one replication.
func newDispatcher(p Policy, s *sim) dispatcher {
	if f, ok := p.(fastPolicy); ok {
		return f.newDispatcher(s)
	}
	d := &viewDispatcher{p: p, v: View{s: s}}
	if st, ok := p.(interface{ Start(v *View) Policy }); ok {
		d.p = st.Start(&d.v)
	}
	return d
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
