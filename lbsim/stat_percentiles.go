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
// The point estimate is the quantile of all measured jobs, pooled; the
// interval is sectioning's (Asmussen and Glynn, Stochastic Simulation, ch.
// III.5a): t_{0.975,n-1} s / sqrt(n), s the standard deviation of the n
// units' quantiles (Result.CIMethod's units; batches in recording order,
// departures under PS and SRPT). Centring on the pooled quantile avoids
// the units' bias, large at p99.9 of a small batch. Fewer than tailJobs
// jobs beyond the quantile in a unit: no interval (CI95 NaN).
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
// quantile hangs on the few long excursions of the queue it met, the
// units' spread is skewed with the estimate and the interval far too
// narrow. The coverage study (coverage_test.go, "pct:" families) found
// coverage 0.33 to 0.82 with 5 to 100 jobs beyond, 0.93 to 0.96 from 500.
const tailJobs = 200

// sectioned are the pooled histogram's quantiles with the half-widths of
// the units' (Quantiles): units[u][i] is unit u's at percentiles[i] (NaN:
// no jobs, left out), smallest the jobs of the smallest unit that has any.
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
