package lbsim

// Random (RND) sends each job to a server chosen uniformly at random: with
// Poisson arrivals every server is an M/G/1 queue of rate lambda/K.
type Random struct{}

func init() {
	mustRegister(PolicyType{Name: "rnd", Aliases: []string{"random"}, Example: "rnd",
		Summary: "random: a server uniformly at random",
		New:     func(Params) (Policy, error) { return Random{}, nil }})
}

func (Random) String() string                  { return "rnd" }
func (Random) Label() string                   { return "RND" }
func (Random) Reads() State                    { return 0 }
func (Random) Pick(v *View, _ float64) int     { return v.Rand().IntN(v.K()) }
func (Random) newDispatcher(s *sim) dispatcher { return &randomDispatcher{k: s.k, r: s.rDispatch} }

type randomDispatcher struct {
	k int
	r *Stream
}

func (d *randomDispatcher) pick(float64, float64) int { return d.r.IntN(d.k) }
