package theory

import (
	"fmt"
	"math"
)

// RNDServer is one server's share under random dispatching.
type RNDServer struct {
	Speed float64
	Load  float64 // rho_k = p_k lambda E[X] / mu_k (p_k = 1/K when uniform)
	Delay
}

// RND holds the exact mean delays under random (uniform) dispatching.
type RND struct {
	Delay               // job-weighted mean over servers
	Servers []RNDServer // per server, in the order of the speeds given
}

// RandomDispatch returns the exact mean delays when each job goes to one of
// K = len(speeds) FCFS servers chosen uniformly at random: WeightedRandomDispatch
// with every probability 1/K (the overall means are then the plain averages
// over servers).
func RandomDispatch(lambda float64, size Moments, speeds []float64) (RND, error) {
	probs := make([]float64, len(speeds))
	for k := range probs {
		probs[k] = 1 / float64(len(speeds))
	}
	return WeightedRandomDispatch(lambda, size, speeds, probs)
}

// WeightedRandomDispatch returns the exact mean delays when each job goes to
// server k with probability p_k, K = len(speeds) FCFS servers. Poisson
// thinning makes server k an M/G/1 queue with rate p_k lambda and speed mu_k
// (Pollaczek-Khinchine):
//
//	rho_k = p_k lambda E[X] / mu_k,
//	E[W_k] = p_k lambda E[X^2] / mu_k^2 / (2 (1 - rho_k)),
//
// and the overall means weigh the servers by their share of the jobs,
// E[W] = sum_k p_k E[W_k]. Conditions: Poisson arrivals, E[X^2] < inf,
// p_k >= 0 summing to 1, every rho_k < 1 (the error names the first
// unstable server).
func WeightedRandomDispatch(lambda float64, size Moments, speeds, probs []float64) (RND, error) {
	K := len(speeds)
	if K == 0 {
		return RND{}, fmt.Errorf("theory: number of servers K=0 is invalid: need K >= 1; pass at least one speed (e.g. []float64{1})")
	}
	if len(probs) != K {
		return RND{}, fmt.Errorf("theory: %d probabilities for K=%d servers: need one per server", len(probs), K)
	}
	if err := checkArrivalRate(lambda); err != nil {
		return RND{}, err
	}
	total := 0.0
	for k, p := range probs {
		if !(p >= 0 && p <= 1) {
			return RND{}, fmt.Errorf("theory: probability p[%d]=%g is invalid: need 0 <= p <= 1", k, p)
		}
		total += p
	}
	if math.Abs(total-1) > 1e-9 {
		return RND{}, fmt.Errorf("theory: probabilities sum to %g: need 1; divide them by their sum", total)
	}
	out := RND{Servers: make([]RNDServer, K)}
	for k, mu := range speeds {
		if err := checkPositive(fmt.Sprintf("speed mu[%d]", k), mu); err != nil {
			return RND{}, err
		}
		q := MG1{Lambda: lambda * probs[k], Size: size, Mu: mu}
		d, err := q.FCFS()
		if err != nil {
			rho, _ := q.Load()
			if rho >= 1 {
				return RND{}, fmt.Errorf("theory: server %d (speed %g) is unstable under random dispatching: its load rho=%g needs 0 <= rho < 1; lower lambda below %g or raise its speed",
					k, mu, rho, mu/(probs[k]*size.Mean()))
			}
			return RND{}, err
		}
		out.Servers[k] = RNDServer{Speed: mu, Load: q.Lambda * size.Mean() / mu, Delay: d}
		out.Wait += probs[k] * d.Wait
		out.Response += probs[k] * d.Response
	}
	return out, nil
}
