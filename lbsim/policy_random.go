package lbsim

import "github.com/perfeval/lbsim/lbsim/theory"

// Random (RND) sends each job to a server chosen uniformly at random: with
// Poisson arrivals every server is an M/G/1 queue of rate lambda/K.
type Random struct{}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "rnd", Aliases: []string{"random"}, Example: "rnd",
		Params: []string{"weights"}, Lists: []string{"weights"},
		Summary: "random: a server uniformly at random (weights=speed: in proportion to speed; weights=2/1/1: to the given weights)",
		New: func(p Params) (Policy, error) {
			w, ok, err := weightsParam("rnd", p)
			if err != nil || !ok {
				return Random{}, err
			}
			return WeightedRandom{Weights: w}, nil
		}})
}

func (Random) String() string              { return "rnd" }
func (Random) Pick(v *View, _ float64) int { return v.Rand().IntN(v.K()) }

// describe: 1/K of the jobs to every server.
func (Random) describe(c *Config) Description {
	return Description{Label: "RND", Reads: NoState, builtinFacts: builtinFacts{split: func() []classSplit { return allJobs(c, nil) }, detTheory: true}}
}

func (Random) validate(*Config) error          { return nil }
func (p Random) start(*View) Policy            { return p }
func (Random) newDispatcher(s *sim) dispatcher { return &randomDispatcher{k: s.k, r: s.rDispatch} }

type randomDispatcher struct {
	k int
	r *Stream
}

func (d *randomDispatcher) pick(float64, float64) int { return d.r.IntN(d.k) }

// foresee: the next n draws, from a copy of the stream (sim_ahead.go).
func (d *randomDispatcher) foresee(n int, out []int32) []int32 {
	r := *d.r
	for range n {
		out = append(out, int32(r.IntN(d.k)))
	}
	return out
}

func (*randomDispatcher) lean(*sim) leanPolicy { return leanRandom }

// theory: every server is an M/G/1 queue of rate lambda/K at its own speed,
// any sizes, FCFS, PS or SRPT (see splitTheory).
func (p Random) theory(c Config) (Reference, bool) {
	if _, det := c.arrivals().(DeterministicArrivals); det {
		return p.gapTheory(c)
	}
	return splitTheory(c, "M/G/1 per server (Pollaczek-Khinchine)", "M/G/1-PS per server (insensitive)")
}

// gapTheory: under deterministic arrivals (gap a = 1/lambda) a server's gaps
// are a geometric number of a's: a GI/M/1 queue with exponential sizes
// (FCFS or PS), D/M/1 for one server.
func (Random) gapTheory(c Config) (Reference, bool) {
	s := systemOf(c)
	if !s.exp || !s.under(FCFS, PS) {
		return Reference{}, false
	}
	g, err := theory.ThinnedDetGaps(1/s.lambda, 1/float64(s.k))
	if err != nil {
		return Reference{}, false
	}
	method := "GI/M/1 per server, geometric sums of deterministic gaps"
	if s.k == 1 {
		method = "D/M/1 (GI/M/1 root)"
	}
	return perServer(s, method, func(mu float64) (theory.Delay, error) {
		return theory.GIM1(g, mu/s.sizes.Mean())
	})
}
