package lbsim

// WeightedRoundRobin is smooth weighted round robin (nginx's): for each job
// every server's current value grows by its weight, the job goes to the
// server with the largest value (the first of equal ones), and that value
// drops by the sum of the weights. Over any sum(w) jobs with whole weights,
// server k gets exactly w_k of them, spread out rather than in a burst. The
// weights are the speeds (rr:weights=speed) or given (rr:weights=2/1/1);
// with equal weights it is RR, job n to server n mod K.
type WeightedRoundRobin struct{ Weights Weights }

func (p WeightedRoundRobin) String() string { return "rr:weights=" + p.Weights.String() }
func (p WeightedRoundRobin) Label() string  { return "RR-" + p.Weights.label() }
func (WeightedRoundRobin) Reads() State     { return 0 }
func (p WeightedRoundRobin) Validate(k int, _ SizeLaw) error {
	return p.Weights.validate("rr", k)
}

// Start gives each replication its own current values.
func (p WeightedRoundRobin) Start(v *View) Policy { return newSmoothRR(p, viewSpeeds(v)) }

// Pick is only valid on the value Start returns.
func (p WeightedRoundRobin) Pick(v *View, _ float64) int { return unstarted(p) }

func (p WeightedRoundRobin) newDispatcher(s *sim) dispatcher {
	return newSmoothRR(p, s.cfg.speeds())
}

// smoothRR is one replication's smooth weighted round robin, O(K) a job.
type smoothRR struct {
	w, cur []float64
	total  float64
	spec   WeightedRoundRobin
}

func newSmoothRR(p WeightedRoundRobin, speeds []float64) *smoothRR {
	w := p.Weights.of(speeds)
	d := &smoothRR{w: w, cur: make([]float64, len(w)), spec: p}
	for _, x := range w {
		d.total += x
	}
	return d
}

func (d *smoothRR) next() int {
	best := 0
	for k, x := range d.w {
		d.cur[k] += x
		if d.cur[k] > d.cur[best] {
			best = k
		}
	}
	d.cur[best] -= d.total
	return best
}

func (d *smoothRR) pick(float64, float64) int { return d.next() }

// String and Pick make the started value a Policy.
func (d *smoothRR) String() string          { return d.spec.String() }
func (d *smoothRR) Pick(*View, float64) int { return d.next() }

// WorkShares: w_k of every sum(w) jobs, so of the work, to server k.
func (p WeightedRoundRobin) WorkShares(c Config) []float64 { return p.Weights.shares(c.speeds()) }

// Theory: with equal weights the picks are RR's (job n to server n mod K),
// and so is the theory (E_K/M/1 per server); with unequal weights a
// server's gaps are sums of varying numbers of arrival gaps, in a fixed
// cycle, which is not a renewal process: no exact value.
func (p WeightedRoundRobin) Theory(c Config) (Reference, bool) {
	if !p.Weights.equal(c.speeds()) {
		return Reference{}, false
	}
	return RoundRobin{}.Theory(c)
}
