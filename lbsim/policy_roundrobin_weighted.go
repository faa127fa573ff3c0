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

// describe: w_k of every sum(w) jobs to server k, each dispatcher with its
// own turns (a history) and groups of the servers by weight.
func (p WeightedRoundRobin) describe(c *Config) Description {
	return Description{Label: "RR-" + p.Weights.label(), Reads: NoState, builtinFacts: builtinFacts{history: true,
		split: func() []classSplit { return allJobs(c, p.Weights.shares(c.speeds())) }, stateBytes: (indexBytes + groupBytes) * int64(c.Servers),
		gapSCV: func(c0 float64, q serverLoad) float64 { return p.gapSCV(c, c0, q) }}}
}

func (p WeightedRoundRobin) validate(c *Config) error { return p.Weights.validate("rr", c.Servers) }

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

// smoothRR is one replication's smooth weighted round robin in O(log G) a
// job, G the number of distinct weights. After n jobs, c_k of them to server
// k, server k's current value is n w_k - W c_k (W = sum(w)). Servers of one
// weight take turns in server order, so each group keeps its turn (next)
// and its completed rounds, and a job needs only the largest of the G
// values v_g(n) = n w_g - W rounds_g (ties to the lower server): the upper
// envelope of G lines at n.
//
// A kinetic tournament keeps it (Basch, Guibas and Hershberger, "Data
// structures for mobile data", 1999): a complete binary tree over the
// groups whose every node holds the larger of its children's winners and
// the first step at which that may change, where a steeper loser's line
// crosses the winner's, n = W (r_l - r_w) / (w_l - w_w). Each job replays
// the nodes due (comparing at n as the linear scan does, on the total order
// of (value, server), so the picks are the scan's), picks the root's winner
// and replays the path of the group picked. A due step may be early
// (rounding), which only repeats a comparison. The replays are O(log G) a
// job amortised: a node's winner changes at most as often as the upper
// envelope of its subtree's line segments (one a pick) has pieces.
type smoothRR struct {
	groups []wrrGroup
	total  float64 // W
	n      float64 // jobs dispatched, this one included
	spec   WeightedRoundRobin
	// The tournament over the groups, heap-ordered: node i's children are
	// 2i and 2i+1, leaf g is node leaves+g.
	leaves int
	winner []int32   // per node: its subtree's winning group, -1 for none
	due    []float64 // per node: the first step its subtree's winners may change
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
	d.build()
	return d
}

// wrrPhases is the range of a dispatcher's starting phase, in jobs: with
// whole weights the picks repeat every sum(w) jobs, so a phase drawn
// uniformly from many such cycles is close to uniform over one.
const wrrPhases = 1 << 20

// advance puts d where it would be after about n0 jobs in O(G), each
// group's turns rotated by turn(size) (see startingTurn): group g has had
// floor(n0 |g| w_g / W) jobs, so every value n w_g - W rounds stays in the
// algorithm's range, and the long-run shares are the weights'.
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
	d.build()
}

// build makes the tournament for the next job, O(G).
func (d *smoothRR) build() {
	d.leaves = 1
	for d.leaves < len(d.groups) {
		d.leaves *= 2
	}
	d.winner = make([]int32, 2*d.leaves)
	d.due = make([]float64, 2*d.leaves)
	for i := d.leaves; i < 2*d.leaves; i++ {
		d.winner[i], d.due[i] = int32(i-d.leaves), math.Inf(1)
		if i-d.leaves >= len(d.groups) {
			d.winner[i] = -1
		}
	}
	for i := d.leaves - 1; i >= 1; i-- {
		d.play(i, d.n+1)
	}
}

// value is group g's current value at job n and the server whose turn it
// is: exactly the linear scan's expression, so the comparisons are too.
func (d *smoothRR) value(g int32, n float64) (float64, int) {
	grp := &d.groups[g]
	return n*grp.w - d.total*grp.rounds, grp.servers[grp.next]
}

// play decides node i at job n from its children's winners: the larger
// value, ties to the lower server; and when the loser, if steeper, may
// first win (less a margin for rounding: the values are rounded products
// of magnitude up to n w + W r, so may cross that many ulps, divided by
// the closing speed w_l - w_w, early).
func (d *smoothRR) play(i int, n float64) {
	a, b := d.winner[2*i], d.winner[2*i+1]
	due := math.Min(d.due[2*i], d.due[2*i+1])
	if b >= 0 {
		va, ka := d.value(a, n)
		vb, kb := d.value(b, n)
		if vb > va || vb == va && kb < ka {
			a, b = b, a
		}
		win, lose := &d.groups[a], &d.groups[b]
		if closing := lose.w - win.w; closing > 0 {
			x := d.total * (lose.rounds - win.rounds) / closing
			slack := 1e-14 * (math.Abs(x)*(lose.w+win.w) + d.total*(lose.rounds+win.rounds)) / closing
			due = math.Min(due, x-1-slack)
		}
	}
	d.winner[i], d.due[i] = a, due
}

// replay brings node i's subtree to job n, playing the nodes due, children first.
func (d *smoothRR) replay(i int, n float64) {
	if i >= d.leaves || d.due[i] > n {
		return
	}
	d.replay(2*i, n)
	d.replay(2*i+1, n)
	d.play(i, n)
}

func (d *smoothRR) next() int {
	d.n++
	d.replay(1, d.n)
	g := d.winner[1]
	grp := &d.groups[g]
	k := grp.servers[grp.next]
	if grp.next++; grp.next == len(grp.servers) {
		grp.next, grp.rounds = 0, grp.rounds+1
	}
	for i := (d.leaves + int(g)) / 2; i >= 1; i /= 2 {
		d.play(i, d.n+1)
	}
	return k
}

func (d *smoothRR) pick(float64, float64) int { return d.next() }

// String and Pick make the started value a Policy.
func (d *smoothRR) String() string          { return d.spec.String() }
func (d *smoothRR) Pick(*View, float64) int { return d.next() }

// gapSCV: server k gets every n-th job, n not always the same (weights 3,1
// give A A B A; servers of one weight take their turns in a burst), so E[n]
// and Var n (see gapSCV) are measured on 2^16 of its picks, with at most 16
// weights (checked without a pass over all K); beyond, or with fewer than
// two turns of k, n is taken as 1/p_k (Var n = 0).
func (p WeightedRoundRobin) gapSCV(c *Config, c0 float64, q serverLoad) float64 {
	n, k := 0.0, q.from
	var sum, sum2 float64 // of the gaps between k's turns
	if p.Weights.fewGroups(c, 16) {
		d := newSmoothRR(p, c.speeds())
		for j, last := 0, -1; j < 1<<16; j++ {
			if d.next() == k {
				if last >= 0 {
					g := float64(j - last)
					n, sum, sum2 = n+1, sum+g, sum2+g*g
				}
				last = j
			}
		}
	}
	if n < 2 {
		return c0 * q.share
	}
	mean := sum / n
	return (mean*c0 + sum2/n - mean*mean) / (mean * mean)
}

// theory: with equal weights the picks, and the theory, are RR's; with
// unequal ones a server's gaps are sums of varying numbers of arrival gaps
// in a fixed cycle, not a renewal process: no exact value.
func (p WeightedRoundRobin) theory(c Config) (Reference, bool) {
	if !allEqual(p.Weights.of(c.speeds())) {
		return Reference{}, false
	}
	return RoundRobin{}.theory(c)
}
