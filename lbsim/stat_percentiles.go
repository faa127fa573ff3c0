package lbsim

import (
	"math"
	"slices"
)

// Percentile is a quantile lbsim measures of the waiting and the response
// time: its probability P and the prefix of its columns (p99_wait,
// p99_wait_ci95, exact_p99_wait, p99_response, ...).
type Percentile struct {
	Name string
	P    float64
}

// percentiles is the one table of the measured quantiles, in increasing P.
var percentiles = [...]Percentile{{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p999", 0.999}}

const nPercentiles = len(percentiles)

// Percentiles are the quantiles every result measures, in increasing P.
func Percentiles() []Percentile { return slices.Clone(percentiles[:]) }

// percentileProbs are the percentiles' P, for histogram.quantiles.
var percentileProbs = func() []float64 {
	out := make([]float64, nPercentiles)
	for i, p := range percentiles {
		out[i] = p.P
	}
	return out
}()

// Quantiles are estimates at Percentiles, in order.
//
// The point estimate is the quantile of all measured jobs (every
// replication's, pooled); the interval is sectioning's (Asmussen and
// Glynn, Stochastic Simulation, ch. III.5a): t_{0.975,n-1} s / sqrt(n), s
// the standard deviation of the n units' own quantiles. A unit is a
// replication, or with one replication one of the batches the means use
// (Result.CIMethod): batch b holds the b-th block of measured jobs in the
// order they are recorded, arrival order under FCFS and departure order
// under PS and SRPT (where jobs leave out of order; the blocks are still
// consecutive stretches of the run). Centring on the pooled quantile
// rather than the mean of the units' avoids the units' bias, which at
// p99.9 of a small batch is large. A quantile with fewer than tailJobs jobs
// beyond it in a unit has no interval (CI95 NaN).
type Quantiles [nPercentiles]Estimate

// ExactQuantiles are the exact steady-state quantiles of the waiting and
// the response time at Percentiles, where theory knows them
// (Reference.Quantiles).
type ExactQuantiles struct {
	Wait, Response [nPercentiles]float64
	// Method is how they were found when the mean's formula
	// (Reference.Method) does not say it, else "": the row's exact_method
	// adds it.
	Method string
}

// tailJobs is the fewest jobs beyond a quantile (n (1 - p), n the jobs of
// the smallest unit) for which it gets an interval: below, a unit's
// quantile hangs on the few long excursions of the queue it happened to
// meet, the units' spread is skewed with the estimate (a unit without a big
// excursion is low and its fellows alike) and the interval far too narrow.
// The coverage study (coverage_test.go, "pct:" families: RND, K=4,
// exponential sizes, 100,000 jobs, 200 seeds) measured, with 20 batches of
// one replication, 0.66 for p99 response at load 0.9 (50 jobs beyond it a
// batch) and 0.33 for p99.9 (5); with 5 replications, 0.82 for p99.9 at
// 0.9 (100 a replication); 0.93 to 0.96 from 500 jobs on. Such a quantile
// is shown without an interval (CI95 NaN): run longer or more
// replications.
const tailJobs = 200

// sectioned are the quantiles of the pooled histogram with the half-widths
// of the units' quantiles: units[u][i] is unit u's quantile at
// percentiles[i] (NaN: a unit without jobs, left out), smallest the jobs
// of the smallest unit that holds any (none without tailJobs beyond).
func sectioned(pooled *histogram, units [][nPercentiles]float64, smallest float64) Quantiles {
	var at [nPercentiles]float64
	pooled.quantiles(percentileProbs, at[:])
	var out Quantiles
	for i, p := range percentiles {
		out[i] = Estimate{Mean: at[i], CI95: math.NaN()}
		if smallest*(1-p.P) >= tailJobs {
			out[i].CI95 = MeanCI95(unitValues(units, i)).CI95
		}
	}
	return out
}

// unitValues are the units' quantiles at percentiles[i], in order, but
// those of units without jobs.
func unitValues(units [][nPercentiles]float64, i int) []float64 {
	var xs []float64
	for _, u := range units {
		if !math.IsNaN(u[i]) {
			xs = append(xs, u[i])
		}
	}
	return xs
}
