package plots

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// StudentT95 returns the sample mean of samples and the half-width of its
// 95% confidence interval,
//
//	half = t_{0.975, n-1} * s / sqrt(n),
//
// where s is the sample standard deviation (divisor n-1) and t_{0.975, n-1}
// the Student-t quantile with n-1 degrees of freedom. Use it for means over
// n independent replications; the normal z = 1.96 with the population
// standard deviation (plotutil.MeanAndConf95) is too narrow for the small n
// typical of simulation studies (t_{0.975,4} = 2.776).
//
// With fewer than two samples the width cannot be estimated and half is NaN
// (mean is NaN for no samples); Figure draws no error bar for a NaN CI.
func StudentT95(samples []float64) (mean, half float64) {
	n := len(samples)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	if n == 1 {
		return samples[0], math.NaN()
	}
	mean, sd := stat.MeanStdDev(samples, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	return mean, t * sd / math.Sqrt(float64(n))
}
