package lbsim

import "fmt"

// WeightedRandom sends each job to server k with probability w_k / sum(w),
// the weights being the speeds (rnd:weights=speed, so every server carries
// the load rho) or given (rnd:weights=2/1/1). With Poisson arrivals server k
// is an M/G/1 queue of rate lambda w_k / sum(w).
type WeightedRandom struct{ Weights Weights }

func (p WeightedRandom) String() string { return "rnd:weights=" + p.Weights.String() }

// describe: the share w_k / sum(w) of the jobs to server k, and an alias table.
func (p WeightedRandom) describe(c *Config) Description {
	return Description{Label: "RND-" + p.Weights.label(), Reads: NoState, builtinFacts: builtinFacts{
		split: func() []classSplit { return allJobs(c, p.Weights.shares(c.speeds())) }, stateBytes: indexBytes * int64(c.Servers)}}
}

func (p WeightedRandom) validate(c *Config) error { return p.Weights.validate("rnd", c.Servers) }
func (p WeightedRandom) start(*View) Policy       { return p }

// Pick draws by the cumulative weights in O(K); the run uses an alias table, O(1).
func (p WeightedRandom) Pick(v *View, _ float64) int {
	shares := p.Weights.shares(viewSpeeds(v))
	u := v.Rand().Float64()
	for k, s := range shares {
		if u -= s; u < 0 {
			return k
		}
	}
	return len(shares) - 1
}

func (p WeightedRandom) newDispatcher(s *sim) dispatcher {
	return &weightedRandomDispatcher{t: newAliasTable(p.Weights.shares(s.cfg.speeds())), r: s.rDispatch}
}

type weightedRandomDispatcher struct {
	t *aliasTable
	r *Stream
}

func (d *weightedRandomDispatcher) pick(float64, float64) int { return d.t.draw(d.r) }

// theory: server k is an M/G/1 queue of rate lambda w_k / sum(w) (splitTheory).
func (p WeightedRandom) theory(c Config) (Reference, bool) {
	return splitTheory(c, fmt.Sprintf("M/G/1 per server, weights %s (Pollaczek-Khinchine)", p.Weights), "M/G/1-PS per server, weighted split (insensitive)")
}
