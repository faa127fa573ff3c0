package theory

import "fmt"

// RNDServer is one server's share under random dispatching.
type RNDServer struct {
	Speed float64
	Load  float64 // rho_k = (lambda/K) E[X] / mu_k
	Delay
}

// RND holds the exact mean delays under random (uniform) dispatching.
type RND struct {
	Delay               // job-weighted mean over servers
	Servers []RNDServer // per server, in the order of the speeds given
}

// RandomDispatch returns the exact mean delays when each job goes to one of
// K = len(speeds) FCFS servers chosen uniformly at random. Poisson thinning
// makes server k an M/G/1 queue with rate lambda/K and speed mu_k:
//
//	rho_k = (lambda/K) E[X] / mu_k,
//	E[W_k] = (lambda/K) E[X^2] / mu_k^2 / (2 (1 - rho_k)),
//
// and since every server receives the same share of jobs the overall means
// are the plain averages over servers, E[W] = (1/K) sum_k E[W_k].
// Conditions: Poisson arrivals, E[X^2] < inf, every rho_k < 1 (the error
// names the first unstable server).
func RandomDispatch(lambda float64, size Moments, speeds []float64) (RND, error) {
	K := len(speeds)
	if K == 0 {
		return RND{}, fmt.Errorf("theory: number of servers K=0 is invalid: need K >= 1; pass at least one speed (e.g. []float64{1})")
	}
	if err := checkArrivalRate(lambda); err != nil {
		return RND{}, err
	}
	out := RND{Servers: make([]RNDServer, K)}
	for k, mu := range speeds {
		q := MG1{Lambda: lambda / float64(K), Size: size, Mu: mu}
		if err := checkPositive(fmt.Sprintf("speed mu[%d]", k), mu); err != nil {
			return RND{}, err
		}
		d, err := q.FCFS()
		if err != nil {
			rho, _ := q.Load()
			if rho >= 1 {
				return RND{}, fmt.Errorf("theory: server %d (speed %g) is unstable under random dispatching: its load rho=%g needs 0 <= rho < 1; lower lambda below %g or raise its speed",
					k, mu, rho, float64(K)*mu/size.Mean())
			}
			return RND{}, err
		}
		out.Servers[k] = RNDServer{Speed: mu, Load: q.Lambda * size.Mean() / mu, Delay: d}
		out.Wait += d.Wait / float64(K)
		out.Response += d.Response / float64(K)
	}
	return out, nil
}
