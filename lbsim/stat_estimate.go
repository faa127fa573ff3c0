package lbsim

import "math"

// MeanCI95 is the mean of n samples (independent replications or batch
// means) with the half-width t_{0.975, n-1} s / sqrt(n) of its 95% interval,
// s the sample standard deviation (divisor n-1); NaN for n < 2 (the mean
// too for none).
func MeanCI95(samples []float64) Estimate {
	n := len(samples)
	e := Estimate{Mean: math.NaN(), CI95: math.NaN()}
	if n == 0 {
		return e
	}
	var mu, ss float64
	for _, x := range samples {
		mu += x
	}
	mu /= float64(n)
	e.Mean = mu
	if n < 2 {
		return e
	}
	for _, x := range samples {
		ss += (x - mu) * (x - mu)
	}
	e.CI95 = tQuantile(0.975, n) * math.Sqrt(ss/float64(n-1)/float64(n))
	return e
}

// Ratio is a/b with the delta-method half-width |a/b| sqrt((ci_a/a)^2 +
// (ci_b/b)^2), which treats the two as independent: conservative when
// common random numbers correlate them positively.
func Ratio(a, b Estimate) Estimate {
	r := a.Mean / b.Mean
	return Estimate{Mean: r, CI95: math.Abs(r) * math.Hypot(a.CI95/a.Mean, b.CI95/b.Mean)}
}
