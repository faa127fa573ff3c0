package lbsim

import "math"

// WeightedRoundRobin is smooth weighted round robin (nginx's): for each job
// every server's current value grows by its weight, the job goes to the
// server with the largest value (the first of equal ones), and that value
// drops by the sum of the weights. Over any sum(w) jobs with whole weights,
// server k gets exactly w_k of them, spread out rather than in a burst. The
// weights are the speeds (rr:weights=speed) or given (rr:weights=2/1/1);
// with equal weights it is RR, job n to server n mod K.
type WeightedRoundRobin struct{ Weights Weights }

func (p WeightedRoundRobin) String() string { return "rr:weights=" + p.Weights.String() }
func (p WeightedRoundRobin) label() string  { return "RR-" + p.Weights.label() }
func (WeightedRoundRobin) reads() State     { return 0 }
func (p WeightedRoundRobin) validate(k int, _ SizeLaw) error {
	return p.Weights.validate("rr", k)
}

// start gives each replication its own turns.
func (p WeightedRoundRobin) start(v *View) Policy { return newSmoothRR(p, viewSpeeds(v)) }

// Pick is only valid on the value Start returns.
func (p WeightedRoundRobin) Pick(v *View, _ float64) int { return unstarted(p) }

func (p WeightedRoundRobin) newDispatcher(s *sim) dispatcher {
	d := newSmoothRR(p, s.cfg.speeds())
	if s.cfg.dispatchers() > 1 {
		d.advance(startingTurn(s, wrrPhases), func(n int) int { return startingTurn(s, n) })
	}
	return d
}

// dispatcherState: its own groups of the servers by weight, a group a
// server at worst.
func (p WeightedRoundRobin) dispatcherState(c *Config) int64 {
	return (indexBytes + groupBytes) * int64(c.Servers)
}

// smoothRR is one replication's smooth weighted round robin in O(G) a job,
// G the number of distinct weights. After n jobs, of which c_k went to
// server k, server k's current value is n w_k - W c_k (W = sum(w)), and the
// job goes to the first server of the largest. Among servers of one weight
// that is the first of those with the fewest jobs: they take turns in
// server order, so each group keeps its turn (next) and the count of its
// completed rounds (c of the server whose turn it is), and a job compares
// only the G servers whose turn it is.
type smoothRR struct {
	groups []wrrGroup
	total  float64 // W
	n      float64 // jobs dispatched, this one included
	spec   WeightedRoundRobin
}

// wrrGroup is the servers of one weight, in server order.
type wrrGroup struct {
	w       float64
	servers []int
	next    int     // index in servers of the server whose turn it is
	rounds  float64 // its count of jobs
}

func newSmoothRR(p WeightedRoundRobin, speeds []float64) *smoothRR {
	d := &smoothRR{spec: p}
	of := map[float64]int{}
	for k, w := range p.Weights.of(speeds) {
		g, ok := of[w]
		if !ok {
			g = len(d.groups)
			of[w] = g
			d.groups = append(d.groups, wrrGroup{w: w})
		}
		d.groups[g].servers = append(d.groups[g].servers, k)
		d.total += w
	}
	return d
}

// wrrPhases is the range of a dispatcher's starting phase, in jobs: with
// whole weights the picks repeat every sum(w) jobs, so a phase drawn
// uniformly from many such cycles is close to uniform over one.
const wrrPhases = 1 << 20

// advance puts d where it would be after about n0 jobs in O(G), each
// group's turns rotated by turn(size) (see startingTurn): group g has had
// floor(n0 |g| w_g / W) of them, so every value n w_g - W rounds stays in
// the range the algorithm keeps it in, and the long-run shares are those
// of the weights.
func (d *smoothRR) advance(n0 int, turn func(int) int) {
	d.n = float64(n0)
	for g := range d.groups {
		grp := &d.groups[g]
		size := len(grp.servers)
		r := turn(size)
		grp.servers = append(grp.servers[r:], grp.servers[:r]...)
		jobs := int(math.Floor(d.n * float64(size) * grp.w / d.total))
		grp.rounds, grp.next = float64(jobs/size), jobs%size
	}
}

func (d *smoothRR) next() int {
	d.n++
	best, bestK, bestV := 0, -1, 0.0
	for g := range d.groups {
		grp := &d.groups[g]
		k, v := grp.servers[grp.next], d.n*grp.w-d.total*grp.rounds
		if bestK < 0 || v > bestV || v == bestV && k < bestK {
			best, bestK, bestV = g, k, v
		}
	}
	grp := &d.groups[best]
	if grp.next++; grp.next == len(grp.servers) {
		grp.next, grp.rounds = 0, grp.rounds+1
	}
	return bestK
}

func (d *smoothRR) pick(float64, float64) int { return d.next() }

// String and Pick make the started value a Policy.
func (d *smoothRR) String() string          { return d.spec.String() }
func (d *smoothRR) Pick(*View, float64) int { return d.next() }

// gapSCV: server k gets every n-th job, n not always the same: weights 3,1
// give A A B A (A's n: 1, 2, 1), and servers of one weight take their
// turns in a burst (weights 2,2,2,2,2,1,1,1,1,1: the fast servers' n are
// 5 and 10). So E[n] and Var n (see gapSCV) are measured on 2^16 of its
// picks, with up to 16 weights (G picks cost O(G)); beyond, or with fewer
// than two turns of k in them, n is taken as 1/p_k (Var n = 0).
func (p WeightedRoundRobin) gapSCV(c *Config, c0 float64, k int) float64 {
	d, n := newSmoothRR(p, c.speeds()), 0.0
	var sum, sum2 float64 // of the gaps between k's turns
	for j, last := 0, -1; j < 1<<16 && len(d.groups) <= 16; j++ {
		if d.next() == k {
			if last >= 0 {
				g := float64(j - last)
				n, sum, sum2 = n+1, sum+g, sum2+g*g
			}
			last = j
		}
	}
	if n < 2 {
		return c0 * p.Weights.shares(c.speeds())[k]
	}
	mean := sum / n
	return (mean*c0 + sum2/n - mean*mean) / (mean * mean)
}

// split: w_k of every sum(w) jobs to server k.
func (p WeightedRoundRobin) split(c *Config) []classSplit {
	return allJobs(c, p.Weights.shares(c.speeds()))
}

// theory: with equal weights the picks are RR's (job n to server n mod K),
// and so is the theory (E_K/M/1 per server); with unequal weights a
// server's gaps are sums of varying numbers of arrival gaps, in a fixed
// cycle, which is not a renewal process: no exact value.
func (p WeightedRoundRobin) theory(c Config) (Reference, bool) {
	if !allEqual(p.Weights.of(c.speeds())) {
		return Reference{}, false
	}
	return RoundRobin{}.theory(c)
}
