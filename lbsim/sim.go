package lbsim

import (
	"math"
)

// sim is one replication of one configuration.
type sim struct {
	cfg   *Config
	k     int
	srv   *servers
	board *board
	disp  dispatcher
	obs   observer  // nil when the dispatcher keeps no index
	ref   refresher // nil when the dispatcher keeps no board index
	m     *metrics

	rArrivals, rSizes, rDispatch *Stream

	series []TimePoint

	nX, sumX, sumX2 float64 // sizes drawn so far

	ka, kb []int32 // RND's servers, or LL-2's and JSQ-2's pairs, for the block's jobs

	touched uint64 // sum of the values loaded by touchBlock, unused
}

// replication is what one replication measured.
type replication struct {
	m            *metrics
	busy         []float64
	tStart, tEnd float64 // arrival times of the first and last measured jobs
	series       []TimePoint
	// sizes drawn (warm-up included): count, sum and sum of squares, for
	// the under-sampled tail diagnostic.
	nX, sumX, sumX2 float64
	warmup          int64 // jobs discarded before measuring
	simulated       int64 // jobs simulated, warm-up and an MSER pilot run included
}

func newSim(cfg *Config, rep int) *sim {
	s := &sim{
		cfg: cfg, k: cfg.Servers,
		rArrivals: newStream(cfg.Seed, rep, streamArrivals),
		rSizes:    newStream(cfg.Seed, rep, streamSizes),
		rDispatch: newStream(cfg.Seed, rep, streamDispatch),
	}
	kind := Reads(cfg.Policy)
	counting := kind&Count != 0 || cfg.SampleEvery > 0
	s.srv = newServers(cfg.speeds(), cfg.Discipline, counting)
	if cfg.Refresh > 0 {
		s.board = newBoard(s.k, cfg.Refresh, cfg.Tally, kind)
	}
	names, _ := cfg.classes()
	classes := max(1, len(names))
	s.m = newMetrics(classes, cfg.fineBatches(), cfg.jobs())
	s.disp = newDispatcher(cfg.Policy, s)
	s.obs, _ = s.disp.(observer)
	s.ref, _ = s.disp.(refresher)
	return s
}

// run simulates Warmup + Jobs arrivals. Each job: draw its arrival time and
// size, refresh the board if due, let the policy pick a server, and join that
// server: under FCFS the waiting time is max(free_k - t, 0) at once.
func (s *sim) run() replication {
	cfg, srv, m := s.cfg, s.srv, s.m
	warm, total := cfg.Warmup, cfg.Warmup+cfg.jobs()
	tr := cfg.Trace
	sizes := cfg.sizes()
	_, cuts := cfg.classes()
	cut0 := math.Inf(1)
	if len(cuts) > 0 {
		cut0 = cuts[0]
	}
	var gen arrivalGen
	if tr == nil {
		gen = cfg.arrivals().start(cfg.Capacity()/sizes.Mean(), cfg.Load)
	}
	fcfs := cfg.Discipline == FCFS
	nextSample := math.Inf(1)
	if cfg.SampleEvery > 0 {
		nextSample = 0
	}

	var out replication
	t, prevT, pending := 0.0, 0.0, 0.0
	// Arrival times and sizes are drawn a block at a time: one call per
	// block instead of two interface calls per job. The streams are
	// separate, so the numbers are the same as drawing job by job.
	var times, xs []float64
	if tr != nil {
		times, xs = tr.Times, tr.Sizes
	} else {
		times, xs = make([]float64, blockSize), make([]float64, blockSize)
	}
	i := -1 // index of job n in times and xs
	// RND, RR, and live LL-2 and JSQ-2 (FCFS) are run here rather than
	// through their dispatchers: no call per job. The servers drawn for
	// RND, and the pairs of LL-2 and JSQ-2, are drawn a block at a time
	// (s.ka, s.kb): at large K the processor then reaches the sampled
	// servers' state for several jobs at once.
	_, rnd := s.disp.(*randomDispatcher)
	rr, _ := s.disp.(*rrDispatcher)
	ll2, jsq2 := false, false
	if sm, ok := s.disp.(*sampleMin); ok && s.board == nil && sm.d == 2 && !sm.replace {
		ll2 = sm.kind == Workload
		jsq2 = sm.kind == Count && srv.deps != nil
	}
	if rnd = rnd && tr == nil; rnd || ((ll2 || jsq2) && tr == nil) {
		s.ka = make([]int32, blockSize)
		if !rnd {
			s.kb = make([]int32, blockSize)
		}
	}
	for n := int64(0); n < total; n++ {
		if i++; tr == nil && (i == blockSize || n == 0) {
			i = 0
			s.drawBlock(gen, sizes, t, times, xs)
			if s.k > farServers && s.ka != nil {
				s.touchBlock()
			}
		}
		t = times[i]
		x := xs[i]
		if fcfs && n > warm {
			m.recordHandoutNext(max(pending-(t-prevT), 0))
		}
		for nextSample <= t {
			s.sample(nextSample)
			nextSample += cfg.SampleEvery
		}
		if s.board != nil && s.board.due(t) {
			s.board.refresh(t, srv, m)
			if s.ref != nil {
				s.ref.refreshed(s.board.r0)
			}
		}
		var k int
		switch { // the built-in fast paths called directly: no interface call per job
		case rnd:
			k = int(s.ka[i])
		case rr != nil:
			k = rr.pick(t, x)
		case ll2 || jsq2:
			var a, b int
			if s.kb != nil {
				a, b = int(s.ka[i]), int(s.kb[i])
			} else { // replaying a trace: no blocks
				a, b = samplePair(s.rDispatch, s.k)
			}
			// b if its workload (View.Workload), or its count (View.Count),
			// is smaller than a's, as sampleMin; without a branch, as which
			// of the two is chosen is a coin toss.
			var wa, wb int64
			if ll2 {
				wa, wb = workBits(srv.free[a]-t), workBits(srv.free[b]-t)
			} else {
				wa, wb = int64(srv.deps[a].popUntil(t)), int64(srv.deps[b].popUntil(t))
			}
			k = a ^ (a^b)&int((wb-wa)>>63)
		default:
			k = s.disp.pick(t, x)
		}

		service := x // x * 1 is x: no read of inv at unit speeds
		if !srv.unit {
			service = x * srv.inv[k]
		}
		// Branch-free Lindley step: whether a job waits is a coin toss.
		start := max(srv.free[k], t)
		wait := start - t
		srv.free[k] = start + service
		measured := n >= warm
		class := 0
		if x > cut0 { // most laws have at most one cut: test it first
			class = 1
			for _, c := range cuts[1:] {
				if x > c {
					class++
				}
			}
		}
		if fcfs {
			if srv.deps != nil {
				srv.deps[k].push(start + service)
			}
			if measured {
				m.sumNext(class, wait, wait+service) // recordNext, inlined
				if !m.hist.addFast(wait, int(n)) {   // m.hist.add, inlined
					m.hist.addSlow(wait)
				}
			}
			pending = wait + service
		} else {
			ps := &srv.ps[k]
			ps.advance(t, m)
			ps.push(psJob{fin: ps.v + service, arrival: t, service: service, class: int32(class), measured: measured, seq: n - warm})
		}
		if measured {
			srv.busy[k] += service
			if n == warm {
				out.tStart = t
			}
		}
		if s.board != nil {
			s.board.sent(k, service)
		}
		if s.obs != nil {
			s.obs.sent(k, t, x)
		}
		prevT = t
	}
	out.tEnd = t
	if fcfs && total > warm {
		// The handout's quantity for the last job needs the next interarrival.
		next := math.Inf(1)
		switch {
		case gen != nil && i+1 < blockSize:
			next = times[i+1]
		case gen != nil:
			next = gen.next(t, s.rArrivals)
		}
		m.recordHandoutNext(max(pending-(next-t), 0))
	}
	if !fcfs {
		for k := range srv.ps {
			srv.ps[k].advance(math.Inf(1), m)
		}
	}
	out.m, out.busy, out.series = m, srv.busy, s.series
	out.nX, out.sumX, out.sumX2, out.warmup, out.simulated = s.nX, s.sumX, s.sumX2, warm, total
	return out
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

// Beyond farServers servers the servers' state (free times, work done,
// departure queues: several MB) is larger than the processor's cache, and
// a job's read of its sampled servers misses it: about 100 ns, paid one job
// after the other, since each job's choice waits for its reads.
const farServers = 4096

// touchBlock loads the state of the servers drawn for the block's jobs
// before the block is run: the loads do not depend on one another, so the
// processor has many misses in flight at once, and the jobs then find the
// state in cache. It does not change what is computed.
func (s *sim) touchBlock() {
	srv := s.srv
	var sum uint64
	for j, a := range s.ka {
		sum += math.Float64bits(srv.free[a])
		if s.kb != nil {
			b := s.kb[j]
			sum += math.Float64bits(srv.free[b])
			if srv.deps != nil {
				sum += uint64(srv.deps[a].size + srv.deps[b].size)
			}
		}
	}
	s.touched += sum
}

// drawBlock fills times with the arrivals after t and xs with their sizes.
func (s *sim) drawBlock(gen arrivalGen, sizes SizeLaw, t float64, times, xs []float64) {
	if p, ok := gen.(poissonGen); ok { // the common case, without an interface call per job
		s.rArrivals.fillExp(times, p.mean) // the gaps, then their running sum: poissonGen.next
		for j, gap := range times {
			t += gap
			times[j] = t
		}
	} else {
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
	// The dispatch draws of RND, LL-2 and JSQ-2: the dispatch stream serves nothing
	// else for them, so these are the numbers of drawing job by job.
	switch {
	case s.kb != nil:
		s.rDispatch.fillPairs(s.ka, s.kb, s.k)
	case s.ka != nil:
		s.rDispatch.fillIntN(s.ka, s.k)
	}
	var sum, sum2 float64
	for _, x := range xs {
		sum += x
		sum2 += x * x
	}
	s.nX, s.sumX, s.sumX2 = s.nX+float64(len(xs)), s.sumX+sum, s.sumX2+sum2
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
	counts := make([]float64, s.k)
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
