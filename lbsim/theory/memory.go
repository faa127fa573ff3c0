package theory

import "math"

// JSQdMemoryMeanField returns the mean-field limit (K -> infinity) of
// JSQ(d,1), join-the-shortest-queue of d sampled servers with a memory of one
// (Mitzenmacher, Prabhakar and Shah, "Load balancing with memory", FOCS
// 2002): each job also considers the server remembered from the previous
// job, joins the one with the fewest jobs, and the dispatcher then remembers
// the shortest of them after the job joined. Poisson arrivals at rate rho K,
// exponential sizes of mean 1.
//
// Derivation (time-scale separation, as in that paper's queueing variant):
// jobs arrive at rate rho K, so between two jobs no queue changes and the
// remembered queue length l is a fast Markov chain in a frozen environment
// s_i (fraction of servers with at least i jobs, p_i = s_i - s_{i+1}); the d
// samples are independent draws from it. From l, with j the shortest sample,
// the job joins length min(l, j) and l becomes l+1 if j > l, stays l if
// j = l, and for j < l becomes j+1 if one sample is at j, else j. The chain
// only steps up by one and, from any l > i, falls to <= i with probability
// 1 - s_{i+1}^d - d p_i s_{i+1}^(d-1) whatever l is, so the cut equations give
// the tail L_i = P(l >= i) in closed form:
//
//	L_0 = 1,  L_{i+1} = L_i s_{i+1}^d / (1 - d p_i s_{i+1}^(d-1)).
//
// A job joins a queue of length >= i when the shortest sample and l both are,
// with probability s_i^d L_i, and the flow across level i balances the
// departures of servers with more than i jobs:
//
//	s_0 = 1,  s_{i+1} = rho s_i^d L_i,
//
// a forward recursion (L_i needs s up to s_i only). E[R] = (1/rho) sum s_i by
// Little's law. Without the L_i factor this is Mitzenmacher's JSQ-d; for
// d = 1 it gives s_2 = rho^2 (as random dispatch) and a faster decay from
// s_3 on.
func JSQdMemoryMeanField(d int, rho float64) (Delay, error) {
	if err := checkMeanField(d, rho); err != nil {
		return Delay{}, err
	}
	if rho == 0 {
		return Delay{Wait: 0, Response: 1}, nil
	}
	sum := 0.0
	s, _ := memoryFixedPoint(d, rho)
	for _, v := range s[1:] {
		sum += v
	}
	return Delay{Wait: sum/rho - 1, Response: sum / rho}, nil
}

// memoryFixedPoint returns s_i and L_i, i >= 0, until s_i < 1e-17 sum s.
func memoryFixedPoint(d int, rho float64) (s, l []float64) {
	fd := float64(d)
	s, l = []float64{1}, []float64{1}
	sum := 0.0
	for i := 0; ; i++ {
		next := rho * math.Pow(s[i], fd) * l[i] // s_{i+1}
		sum += next
		s = append(s, next)
		if next < 1e-17*sum {
			return s, l
		}
		p := s[i] - next // p_i
		l = append(l, l[i]*math.Pow(next, fd)/(1-fd*p*math.Pow(next, fd-1)))
	}
}
