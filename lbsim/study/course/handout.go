package course

import (
	"github.com/perfeval/lbsim/lbsim"
)

// Handout is the experiment of the handout's R code: N jobs on K servers of
// speed Mu, two-point sizes (Xm with probability 1 - XM^-Beta, else XM), Poisson
// arrivals at every load of Loads, one seed for all runs (common random numbers).
type Handout struct {
	Jobs    int64   // N, jobs per run
	Servers int     // K
	Speed   float64 // mu, the speed of every server
	Beta    float64 // tail index: P(X = x_M) = x_M^-beta
	XM, Xm  float64 // long and short job sizes
	Seed    uint64
	Loads   []float64 // rho = lambda E[X] / (K mu)
}

// TheHandout returns the handout's values: N = 2e6, K = 50, mu = 1, beta = 0.8,
// x_M = 1000, x_m = 1, seed 17 and the B = 10 loads (0.5:(B-0.5))/B.
func TheHandout() Handout {
	return Handout{Jobs: 2_000_000, Servers: 50, Speed: 1, Beta: 0.8, XM: 1000, Xm: 1, Seed: 17, Loads: MidpointLoads(10)}
}

// MidpointLoads returns the handout's grid of B loads, the midpoints
// (b + 1/2)/B, b = 0..B-1, of B equal slices of (0, 1).
func MidpointLoads(b int) []float64 {
	loads := make([]float64, b)
	for i := range loads {
		loads[i] = (float64(i) + 0.5) / float64(b)
	}
	return loads
}

// Sizes is the handout's two-point law.
func (h Handout) Sizes() lbsim.TwoPoint { return lbsim.NewTwoPointBeta(h.Xm, h.XM, h.Beta) }

// HandoutPolicies are the three policies the handout compares: RND, RR and LL-2.
func HandoutPolicies() []lbsim.Policy {
	return []lbsim.Policy{lbsim.Random{}, lbsim.RoundRobin{}, lbsim.LeastLoaded{D: 2}}
}
