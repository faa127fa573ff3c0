package course

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// Theory is the exact (or limiting) mean waiting time of one policy, as a
// function of the per-server load rho, for one Metric. All constructors assume
// K servers of speed 1 and Poisson arrivals at total rate lambda = K rho / E[X].
type Theory struct {
	Policy string // the label of the simulated policy it belongs to, e.g. "RND"
	Name   string // legend text, e.g. "RND exact (M/G/1)"
	Metric Metric
	Wait   func(rho float64) (float64, error)
}

// RNDExact is random dispatching: every server is an M/G/1 queue with rate
// lambda/K (theory.RandomDispatch), E[W] = (lambda/K) E[X^2] / (2 (1 - rho)).
// For the handout's sizes this is 400 rho/(1 - rho) (E[X^2]/(2 E[X]) ~ 400).
func RNDExact(k int, sizes theory.Moments) Theory {
	speeds := make([]float64, k)
	for i := range speeds {
		speeds[i] = 1
	}
	return Theory{Policy: "RND", Name: "RND exact (M/G/1)", Wait: func(rho float64) (float64, error) {
		r, err := theory.RandomDispatch(float64(k)*rho/sizes.Mean(), sizes, speeds)
		return r.Wait, err
	}}
}

// RRExpExact is round robin with exponential sizes of mean m: every server sees
// Erlang-K interarrival times, an E_K/M/1 queue (theory.RoundRobinExp).
func RRExpExact(k int, m float64) Theory {
	return Theory{Policy: "RR", Name: fmt.Sprintf("RR exact (E_%d/M/1)", k), Wait: func(rho float64) (float64, error) {
		r, err := theory.RoundRobinExp(float64(k)*rho/m, k, m)
		return r.Wait, err
	}}
}

// LLdLimit is the mean-field limit (K -> infinity) of LL-d with exponential
// sizes of mean m (theory.LLdMeanField, scaled by m): for d = 2,
// E[W] = m (-ln(1 - rho^2)/rho^2 - 1). A finite K waits a little longer.
func LLdLimit(d int, m float64) Theory {
	return Theory{Policy: fmt.Sprintf("LL-%d", d), Name: fmt.Sprintf("LL-%d limit K→∞", d), Wait: func(rho float64) (float64, error) {
		r, err := theory.LLdMeanField(d, rho)
		return m * r.Wait, err
	}}
}

// SITAExact is SITA-c with random splitting and the two-point sizes s on K
// servers: each group is M/D/1 (theory.SITATwoPoint). metric picks the overall,
// short-job or long-job mean wait. Loads at which a group is unstable return
// theory's error, which names the stable range of c.
func SITAExact(k, c int, s lbsim.TwoPoint, metric Metric) Theory {
	return Theory{
		Policy: PolicyLabel(lbsim.SITA{C: c}.String()),
		Name:   fmt.Sprintf("SITA-%d exact (M/D/1)%s", c, metric.suffix()),
		Metric: metric,
		Wait: func(rho float64) (float64, error) {
			r, err := theory.SITATwoPoint(float64(k)*rho/s.Mean(), k, c, s.Xm, s.XM, s.P)
			if err != nil {
				return 0, err
			}
			return metric.exact(r), nil
		},
	}
}

func theoryFor(theories []Theory, label string) (Theory, bool) {
	for _, th := range theories {
		if th.Policy == label && th.Metric == MeanWait {
			return th, true
		}
	}
	return Theory{}, false
}
