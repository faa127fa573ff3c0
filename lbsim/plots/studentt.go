package plots

import "github.com/perfeval/lbsim/lbsim"

// StudentT95 returns the sample mean of samples and the half-width of its
// 95% confidence interval, t_{0.975, n-1} s / sqrt(n) (lbsim.MeanCI95).
// Use it for means over n independent replications; the normal z = 1.96
// with the population standard deviation (plotutil.MeanAndConf95) is too
// narrow for the small n typical of simulation studies (t_{0.975,4} = 2.776).
//
// With fewer than two samples the width cannot be estimated and half is NaN
// (mean is NaN for no samples); Figure draws no error bar for a NaN CI.
func StudentT95(samples []float64) (mean, half float64) {
	e := lbsim.MeanCI95(samples)
	return e.Mean, e.CI95
}
