package lbsim

import (
	"math"
	"math/bits"
)

// A lean block is a block of jobs with nothing to do but FCFS queueing and
// its measurement: every job measured, no observer, sampling or trace, and
// a policy whose choice leanBlock writes out (reading live state or a
// board). It is the common case, whose speed BenchmarkMinimalLoop compares
// with a hand-written loop. Everything else stays in the general loop on
// purpose: each further case slows every lean job even when not taken,
// because the compiler then keeps more of the loop's values on the stack.

// leanPolicy is the built-in policy a lean block runs inline.
type leanPolicy int8

const (
	notLean leanPolicy = iota
	leanRandom
	leanRoundRobin
	leanLL2  // LL-2: the less loaded of two servers
	leanJSQ2 // JSQ-2 under FCFS: the shorter of two queues
	leanSED2 // SED-2 under FCFS: the less expected delay of two (sim_lean_sed.go)
	leanSITA // SITA: a server at random in the job's size group (its class)
)

// leaner is a dispatcher that leanBlock may run inline: lean says which
// inline policy it is for the replication s (notLean: none).
type leaner interface {
	lean(s *sim) leanPolicy
}

// leanOf is the replication's lean policy: notLean unless its dispatcher is a leaner.
func (s *sim) leanOf() leanPolicy {
	if l, ok := s.disp.(leaner); ok {
		return l.lean(s)
	}
	return notLean
}

// leanBlock runs the jobs n .. n+blockSize-1 of a lean block (sizes xs,
// classes s.classes, arrival times in times unless Poisson without control
// variates), after the arrival at t whose wait plus service is pending: the
// general loop's steps, in the same order and to the last bit
// (TestLeanBlocks), without its tests and its interface call a job. It
// draws the Poisson arrivals, and RND's and SITA's servers, job by job on
// local copies of their generators, so that the draws overlap the queueing
// and the metrics; LL-2's and JSQ-2's pairs come drawn with the block
// (drawServers): here they would cost more registers than they save.
func (s *sim) leanBlock(n int64, t, pending float64, timesBlock, xsBlock []float64, gen arrivalGen) (float64, float64) {
	mean := 0.0 // the Poisson arrivals' mean gap; 0: they are in times
	if p, ok := gen.(poissonGen); ok && s.ctl == nil {
		mean = p.mean
	}
	srv, m, K, bd := s.srv, s.m, s.k, s.board
	// The block's arrays by pointer: no length in a register, no bounds check a job.
	times, xs, classes := (*[blockSize]float64)(timesBlock), (*[blockSize]float64)(xsBlock), (*[blockSize]int32)(s.classes)
	// The dispatchers written out below, asserted here: kept in fields of s
	// they cost the loop more instructions a job (register allocation).
	rr, _ := s.disp.(*rrDispatcher)
	sita, _ := s.disp.(*sitaDispatcher)
	drawn := K > farServers // RND's servers were drawn with the block (drawServers)
	ra, rd := s.rArrivals.pcg, s.rDispatch.pcg
	for j := range blockSize {
		prev := t
		if mean > 0 { // poissonGen.next, as drawBlock
			p0 := ra
			e, ok := zigFast(ra.Uint64())
			if !ok {
				e, ra = s.rArrivals.expFrom(p0)
			}
			t += e * mean
		} else {
			t = times[j]
		}
		x := xs[j]
		m.recordHandoutLast(orZero(pending - (t - prev)))
		if bd != nil && bd.due(t) {
			bd.refresh(t, srv, m) // s.ref is nil: no dispatcher index
		}

		var k int
		switch {
		case s.lean == leanRoundRobin:
			k = rr.pick(t, x)
		case drawn && s.lean == leanRandom:
			k = int(s.ka[j])
		case s.lean == leanRandom || s.lean == leanSITA: // lo + IntN(n), as rDispatch.fillIntN
			lo, n := 0, K
			if s.lean == leanSITA {
				lo, n = sita.groups.group(int(classes[j])) // its size class is its group
			}
			p0 := rd
			hi, low := bits.Mul64(rd.Uint64(), uint64(n))
			if low < uint64(n) {
				k, rd = s.rDispatch.intNFrom(p0, n)
			} else {
				k = int(hi)
			}
			k += lo
		default: // LL-2, JSQ-2 and SED-2
			a, b := int(s.ka[j]), int(s.kb[j])
			// b if its workload or count is smaller than a's, as sampleMin;
			// without a branch, as which of the two is chosen is a coin toss.
			var wa, wb int64
			switch {
			case bd != nil && s.lean == leanLL2:
				wa, wb = workBits(bd.work[a]-bd.r0), workBits(bd.work[b]-bd.r0)
			case bd != nil:
				wa, wb = int64(bd.count[a]), int64(bd.count[b])
			case s.lean == leanLL2:
				wa, wb = workBits(srv.free[a]-t), workBits(srv.free[b]-t)
			default:
				wa, wb = int64(srv.deps[a].popUntil(t, &srv.held)), int64(srv.deps[b].popUntil(t, &srv.held))
			}
			k = a ^ (a^b)&int((wb-wa)>>63)
			if s.lean == leanSED2 {
				k = srv.sedOfPair(a, b, wa, wb)
			}
		}

		service := srv.service(k, x)
		start := srv.join(k, t, service)
		wait := start - t
		if srv.deps != nil {
			srv.deps[k].push(start+service, &srv.held)
		}
		if m.left == 0 { // recordNext, inlined
			m.enterNext()
		}
		m.sumNext(int(classes[j]), wait, wait+service, service)
		// The histogram's slot: j, the same counter as the general loop's
		// n+j (n is a multiple of blockSize), without n in a register.
		if !m.wait.addFast(wait, j) {
			m.wait.addSlow(wait)
		}
		if !m.resp.addFastPositive(wait + service) {
			m.resp.addSlow(wait + service)
		}
		pending = wait + service
		srv.busy[k] += service
		if bd != nil {
			bd.sent(k, service)
		}
	}
	s.rArrivals.pcg, s.rDispatch.pcg = ra, rd
	return t, pending
}

// Beyond farServers servers their state (several MB) outgrows the cache, and
// a job's reads of its servers miss it: about 100 ns, paid one job after the
// other, since each job's choice waits for its reads.
const farServers = 4096

// drawServers draws the servers sampled by a lean block's jobs before the
// block is run: the pairs of LL-2, JSQ-2 and SED-2 (s.ka, s.kb), and beyond
// farServers RND's servers (s.ka), whose state it then loads: independent
// loads, whose misses overlap, so that the jobs find the state in cache.
// The dispatch stream serves nothing else: the numbers of drawing job by job.
func (s *sim) drawServers() {
	pairs := s.lean == leanLL2 || s.lean == leanJSQ2 || s.lean == leanSED2
	far := s.k > farServers
	if !pairs && !(far && s.lean == leanRandom) {
		return
	}
	if s.ka == nil {
		s.ka = make([]int32, blockSize)
		if pairs {
			s.kb = make([]int32, blockSize)
		}
	}
	if pairs {
		s.rDispatch.fillPairs(s.ka, s.kb, s.k)
	} else {
		s.rDispatch.fillIntN(s.ka, s.k)
	}
	if !far {
		return
	}
	srv := s.srv
	var sum uint64
	if !pairs {
		for _, a := range s.ka {
			sum += math.Float64bits(srv.free[a])
		}
	} else {
		for j, a := range s.ka {
			b := s.kb[j]
			sum += math.Float64bits(srv.free[a]) + math.Float64bits(srv.free[b])
			if srv.deps != nil {
				sum += uint64(srv.deps[a].size + srv.deps[b].size)
			}
		}
		if s.lean == leanSED2 {
			sum += srv.touchSpeeds(s.ka, s.kb)
		}
	}
	s.touched += sum
}
