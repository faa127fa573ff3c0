package lbsim

import (
	"math"
	"slices"
)

// sim is one replication of one configuration.
type sim struct {
	cfg *Config
	k   int
	rep int // the replication, which names its streams
	srv *servers
	// policy is the replication's own value of the policy (ownPolicy),
	// and policyHash its data's hash before the run (0: it cannot change).
	policy     Policy
	policyHash uint64
	// The dispatcher of the job at hand (sim_dispatchers.go).
	board *board
	disp  dispatcher
	obs   observer       // nil when the dispatcher keeps no index
	ref   refresher      // nil when the dispatcher keeps no board index
	many  *dispatcherSet // the M dispatchers; nil for one
	front int            // the index of the dispatcher at hand
	own   *ownView       // under the own view, its counts of its own jobs (View.Count); else nil
	m     *metrics
	ctl   *controlSums // nil unless Config.ControlVariates

	rArrivals, rSizes, rDispatch *Stream

	// reports counts the messages servers sent the dispatchers on their
	// own (Result.MessagesPerJob): JIQ's idle tokens (with one dispatcher,
	// countTokens: a job sent to an idle server), I-queues', LSQ's reports.
	reports     int64
	countTokens bool
	shared      observer // what the dispatchers share beyond the servers, if anything (sharedState)

	series  []TimePoint
	sampled []float64 // the counts of the sample at hand

	nX, sumX2 float64 // sizes drawn so far: count and sum of squares

	ka, kb  []int32 // a lean block's pairs (LL-2, JSQ-2), or RND's servers beyond farServers
	classes []int32 // a lean block's size classes (classify)

	lean    leanPolicy // the policy run inline by leanBlock, if any
	touched uint64     // sum of the values loaded by drawServers and touchAhead, unused
	ahead   []int32    // the servers a block's jobs will look at (touchAhead)
	late    []lateWork // beyond farServers, the general loop's work done, added after each block

	budget *probeBudget // the View calls a probe run of Config.Key may make; nil in a run
}

// replication is what one replication measured.
type replication struct {
	m            *metrics
	busy         []float64
	tStart, tEnd float64    // arrival times of the first and last measured jobs
	cutShort     []cutShort // the servers holding measured jobs after the tail (hasTail), drained without arrivals
	series       []TimePoint
	nX, sumX2    float64      // sizes drawn (warm-up included): count and sum of squares
	ctl          *controlSums // the control variates' sums, with Config.ControlVariates
	warmup       int64        // jobs discarded before measuring
	simulated    int64        // jobs simulated, warm-up and an MSER pilot run included
	messages     float64      // caused by the measured jobs (messagesPerJob)
}

func newSim(cfg *Config, rep int) *sim { return newSimWithin(cfg, rep, nil) }

// newSimWithin is newSim with its policy's View calls charged to budget (nil: none).
func newSimWithin(cfg *Config, rep int, budget *probeBudget) *sim {
	s := &sim{
		cfg: cfg, k: cfg.Servers, rep: rep, budget: budget,
		rArrivals: newStream(cfg.Seed, rep, streamArrivals),
		rSizes:    newStream(cfg.Seed, rep, streamSizes),
		rDispatch: newStream(cfg.Seed, rep, streamDispatch),
	}
	s.policy, s.policyHash = ownPolicy(cfg.Policy)
	desc := describe(cfg.Policy, cfg)
	kind := desc.Reads
	// Under the own view, or with a delay, the dispatchers count the jobs
	// they are told of: the servers keep departures only for the time series.
	counting := kind&Count != 0 && cfg.View == LiveView && cfg.Delay == 0 || cfg.samplesIn(rep)
	s.srv = newServers(cfg.speeds(), cfg.Discipline, counting)
	s.srv.held.limit = cfg.backlogLimit()
	if s.srv.preemptive() && (cfg.View == OwnView || cfg.Delay > 0) {
		s.srv.watchDepartures(cfg.dispatchers()*btoi(cfg.View == OwnView), cfg.Delay > 0 || desc.stamps)
	}
	s.m = newMetrics(cfg.classCount(), cfg.fineBatches(), cfg.jobs(), responseAtoms(cfg), cfg.keepsUnits(rep))
	if cfg.ControlVariates && cfg.Trace == nil {
		s.ctl = newControlSums(s.m, cfg.Warmup)
	}
	s.countTokens = cfg.Refresh == 0 && desc.reportsIdle
	if cfg.Trace == nil && s.k > farServers { // a trace is one block
		s.late = make([]lateWork, blockSize)
	}
	if cfg.dispatchers() > 1 {
		s.many = newDispatcherSet(s, rep, kind) // not lean: the general loop routes each job
		return s
	}
	if cfg.Refresh > 0 {
		s.board = newBoard(s.k, cfg.Refresh, cfg.Tally, kind)
	}
	var f front
	var told []completionWatcher
	s.enlist(&f, &told, nil)
	s.disp, s.own, s.obs, s.ref = f.disp, f.own, f.obs, f.ref
	if s.shared != nil {
		s.obs = s.shared
	}
	if s.own == nil { // else the counts it reads are the view's, told of each send in the general loop
		s.lean = s.leanOf()
	}
	return s
}

// run simulates Warmup + Jobs arrivals, a block of jobs at a time. Each
// job: draw its arrival time and size, refresh the board if due, let the
// policy pick a server, and join that server: under FCFS the wait is
// max(free_k - t, 0) at once; under PS and SRPT the server keeps the job
// and records it when it leaves. The blocks of the common case are run by
// leanBlock (sim_lean.go), without the tests of the general loop below.
func (s *sim) run() replication {
	cfg, srv, m := s.cfg, s.srv, s.m
	warm, total := cfg.Warmup, cfg.Warmup+cfg.jobs()
	tr := cfg.Trace
	sizes := cfg.sizes()
	cuts := classCuts(cfg.classes())
	var gen arrivalGen
	if tr == nil {
		gen = cfg.arrivals().start(cfg.Capacity()/sizes.Mean(), cfg.Load)
	}
	fcfs := !srv.preemptive()
	nextSample := math.Inf(1)
	if cfg.samplesIn(s.rep) {
		nextSample = 0
		s.series = make([]TimePoint, 0, cfg.samples())
		s.sampled = make([]float64, s.k)
	}
	lean := s.lean != notLean && fcfs && tr == nil && s.obs == nil && !cfg.samplesIn(s.rep)
	var ahead foreseer
	if s.many == nil {
		ahead = s.lookAhead()
	}

	var out replication
	t, pending := 0.0, 0.0 // the last arrival, and its wait plus service time
	// Arrival times and sizes are drawn a block at a time, one call instead
	// of two a job: the streams are separate, so the numbers are the same.
	var times, xs []float64
	scale := 1.0 // a trace's arrival times are scaled to the load (exactly as they are at 1)
	if tr != nil {
		times, xs, scale = tr.Times, tr.Sizes, cfg.traceScale()
	} else {
		times, xs = make([]float64, blockSize), make([]float64, blockSize)
	}
	size := total  // jobs in the block: a trace is one block
	limit := total // the arrivals simulated: the measured, then a preemptive run's tail
	tail := s.hasTail()
	for n := int64(0); n < limit; n += size {
		if tr == nil {
			size = min(blockSize, limit-n)
		}
		// Lean: whole, and every job measured, its predecessor too (the
		// handout's quantity of job n-1 is recorded with job n).
		if lean && n > warm && size == blockSize {
			s.drawBlock(gen, sizes, n, t, times, xs, true)
			s.classify(xs, cuts)
			t, pending = s.leanBlock(n, t, pending, times, xs, gen)
			continue
		}
		if tr == nil {
			s.drawBlock(gen, sizes, n, t, times, xs, false)
		}
		if ahead != nil {
			s.touchAhead(ahead, int(size))
		}
		late := s.late[:min(len(s.late), int(size))] // nil: added job by job
		for i := range size {
			n := n + i
			prevT := t
			t = times[i] * scale
			x := xs[i]
			if fcfs && n > warm {
				m.recordHandoutLast(orZero(pending - (t - prevT)))
			}
			for nextSample <= t {
				s.sample(nextSample)
				nextSample += cfg.SampleEvery
			}
			if n == warm {
				out.messages = -s.messages() // the messages of the measured jobs only
			}
			s.learnBefore(t, n)
			k := s.disp.pick(t, x)
			if s.countTokens && srv.free[k] <= t {
				s.reports++
			}
			service := srv.service(k, x)
			start := srv.join(k, t, service)
			wait := start - t
			measured := n >= warm && n < total
			class := classOf(x, cuts)
			if fcfs {
				if srv.deps != nil {
					srv.deps[k].push(start+service, &srv.held)
				}
				if measured {
					if m.left == 0 { // recordNext, inlined
						m.enterNext()
					}
					m.sumNext(class, wait, wait+service, service)
					if !m.wait.addFast(wait, int(n)) {
						m.wait.addSlow(wait)
					}
					if !m.resp.addFast(wait+service, int(n)) {
						m.resp.addSlow(wait + service)
					}
				}
				pending = wait + service
			} else {
				srv.enqueue(k, t, jobRecord{arrival: t, service: service, class: int32(class), owner: int32(s.front), seq: n - warm}, m)
			}
			if late != nil { // added after the block, see lateWork
				late[i] = lateWork{int32(k), service}
				if !measured {
					late[i].service = 0 // x + 0 is x: a warm-up job adds nothing
				}
			} else if measured {
				srv.busy[k] += service
			}
			if n == warm {
				out.tStart = t
			}
			s.learnSent(k, t, x, service, fcfs)
		}
		srv.addLate(late)
		switch {
		case n+size == total && tail: // the last measured arrival
			s.endMeasured(&out, t)
			limit = total + tailLimit(total)
			nextSample = math.Inf(1)
		case n+size > total && srv.measuredGone(t, cfg.jobs()):
			limit = n + size // every measured job has left
		}
	}
	if limit == total {
		s.endMeasured(&out, t)
	}
	if fcfs && total > warm {
		// The handout's quantity for the last job needs the next interarrival:
		// the next number of the arrival stream.
		next := math.Inf(1)
		switch last := int((total - 1) % blockSize); {
		case gen != nil && last+1 < blockSize:
			next = times[last+1]
		case gen != nil:
			next = gen.next(t, s.rArrivals)
		}
		m.recordHandoutLast(orZero(pending - (next - t)))
	}
	if tail {
		out.cutShort = srv.measuredLeft(t, cfg.jobs())
	}
	srv.drain(m)
	m.endUnit(-1)
	out.m, out.busy, out.series = m, srv.busy, s.series
	out.warmup, out.simulated = warm, limit
	return out
}

// tailLimit is the most arrivals a tail may take after total arrivals,
// four times as many: the run costs at most five times as much, and a
// job still present then is warned about if it matters (RuleCutShort).
// SRPT with H2 sizes (SCV 4) on RND, K = 10 of speed 0.1 at load 0.98,
// 250,000 arrivals a replication, needed a median 137,000 and at most
// 567,000 in 100 replications; at load 0.95 on K = 4, 2,000 measured
// after 100,000, at most 26,368 in 200.
func tailLimit(total int64) int64 { return 4 * total }

// endMeasured keeps what the run measured by its last measured arrival, at
// t: what follows, the tail, is not measured.
func (s *sim) endMeasured(out *replication, t float64) {
	out.tEnd = t
	out.messages += s.messages()
	out.nX, out.sumX2, out.ctl = s.nX, s.sumX2, s.ctl
	s.ctl = nil
}

// hasTail reports whether the run goes on after its last measured arrival.
// Under PS and SRPT the jobs present then are slowed by the jobs that
// arrive after them: draining the servers without arrivals would serve
// them too fast and bias their response times low (the more, the shorter
// the run and the higher the load). So the arrivals go on, dispatched as
// any other but not measured, until every measured job has left, for at
// most tailLimit arrivals; what is left then is drained and counted
// (replication.cutShort, RuleCutShort). FCFS needs no tail: a job's
// departure is fixed when it arrives. Neither does a trace, whose arrivals
// end where it does, a probe run (policy_fingerprint.go), which measures
// nothing, or a run at or above its stability limit (load 1, a server's
// share, or LL-d's and JSQ-d's sampling bound), whose queues never empty.
func (s *sim) hasTail() bool {
	c := s.cfg
	return s.srv.preemptive() && c.Trace == nil && s.budget == nil &&
		c.offeredLoad() < min(1, c.StabilityLimit())
}

// classify sets s.classes to the size classes of a lean block's jobs, of
// sizes xs, in a loop of its own: in the run loop the loop over cuts holds
// registers the job needs. With a few cuts it counts the cuts below each
// job a cut at a time, a pass over the block each, without a branch or a
// call a job.
func (s *sim) classify(xs, cuts []float64) {
	if s.classes == nil {
		s.classes = make([]int32, blockSize) // all 0: one class needs no cuts
	}
	if len(cuts) == 0 {
		return
	}
	classes := s.classes[:len(xs)]
	if len(cuts) > fewCuts {
		for j, x := range xs {
			classes[j] = int32(classOf(x, cuts))
		}
		return
	}
	c := cuts[0]
	for j, x := range xs {
		classes[j] = int32(btoi(x > c))
	}
	for _, c := range cuts[1:] {
		for j, x := range xs {
			classes[j] += int32(btoi(x > c))
		}
	}
}

// fewCuts is the most cuts classOf counts one by one; beyond, it searches.
const fewCuts = 8

// classOf is the size class of a job of size x: the number of cuts below x
// (cuts increase), counted for a few, by binary search for many (SITA-E's).
func classOf(x float64, cuts []float64) int {
	if len(cuts) > fewCuts {
		class, _ := slices.BinarySearch(cuts, x)
		return class
	}
	class := 0
	for _, c := range cuts {
		if x > c {
			class++
		}
	}
	return class
}

// workBits is max(w, 0) as its float64 encoding: non-negative floats order
// as their encodings, so comparing workloads is an integer comparison,
// which the run loop turns into a mask rather than a branch.
func workBits(w float64) int64 {
	i := int64(math.Float64bits(w))
	return i &^ (i >> 63) // negative (and -0) to +0
}

// blockSize is the number of arrivals and sizes drawn at a time.
const blockSize = 256

// drawBlock fills times with the arrivals after t and xs with the sizes of
// jobs n, n+1, ... For a lean block it leaves Poisson arrivals to leanBlock
// (unless control variates need them here: the same numbers) and draws the
// servers sampled (drawServers).
func (s *sim) drawBlock(gen arrivalGen, sizes SizeLaw, n int64, t float64, times, xs []float64, lean bool) {
	t0 := t
	p, poisson := gen.(poissonGen)
	switch {
	case poisson && lean && s.ctl == nil:
	case poisson: // the common case, without an interface call per job
		s.rArrivals.fillExp(times, p.mean) // the gaps, then their running sum: poissonGen.next
		for j, gap := range times {
			t += gap
			times[j] = t
		}
	default:
		for j := range times {
			t = gen.next(t, s.rArrivals)
			times[j] = t
		}
	}
	if f, ok := sizes.(filler); ok {
		f.fill(s.rSizes, xs)
	} else {
		for j := range xs {
			xs[j] = sizes.Rand(s.rSizes)
		}
	}
	if lean {
		s.drawServers()
	}
	if s.ctl != nil {
		s.ctl.add(n, t0, times, xs)
	}
	// Four partial sums: with one, each addition would wait for the last.
	// Four variables, not an array, which the compiler keeps in memory.
	var s0, s1, s2, s3 float64
	for j := 0; j+4 <= len(xs); j += 4 {
		q := xs[j : j+4 : j+4] // one bounds check for the four
		s0 += q[0] * q[0]
		s1 += q[1] * q[1]
		s2 += q[2] * q[2]
		s3 += q[3] * q[3]
	}
	for _, x := range xs[len(xs)&^3:] {
		s0 += x * x
	}
	s.nX, s.sumX2 = s.nX+float64(len(xs)), s.sumX2+(s0+s1)+(s2+s3)
}

// TimePoint is the state of the servers at one sampling instant: the moments
// of the number of jobs present across the K servers.
type TimePoint struct {
	T                                  float64
	Mean, Variance, Skewness, Kurtosis float64
	Max                                int
}

func (s *sim) sample(at float64) {
	var sum float64
	counts := s.sampled
	mx := 0
	for k := range s.k {
		c := s.srv.count(k, at, s.m)
		counts[k] = float64(c)
		sum += float64(c)
		mx = max(mx, int(c))
	}
	n := float64(s.k)
	mean := sum / n
	var m2, m3, m4 float64
	for _, c := range counts {
		d := c - mean
		m2 += d * d
		m3 += d * d * d
		m4 += d * d * d * d
	}
	m2, m3, m4 = m2/n, m3/n, m4/n
	p := TimePoint{T: at, Mean: mean, Variance: m2, Max: mx}
	if m2 > 0 {
		p.Skewness = m3 / math.Pow(m2, 1.5)
		p.Kurtosis = m4 / (m2 * m2)
	}
	s.series = append(s.series, p)
}

// later is max(a, b) for a, b >= 0, not NaN: non-negative floats order as
// their encodings, and the integer maximum is one conditional move, where
// the builtin max, which must order -0 and NaN, is a chain of instructions
// on the Lindley step's critical path.
func later(a, b float64) float64 {
	return math.Float64frombits(uint64(max(int64(math.Float64bits(a)), int64(math.Float64bits(b)))))
}

// orZero is max(v, 0) for v not NaN, by its encoding (see workBits).
func orZero(v float64) float64 { return math.Float64frombits(uint64(workBits(v))) }
