package lbsim

import "math"

// Over is the ratio a/b of two estimates with a first-order (delta-method)
// 95% half-width,
//
//	CI(a/b) ~ |a/b| sqrt((CI_a/a)^2 + (CI_b/b)^2),
//
// which treats a and b as independent; runs on common random numbers are
// positively correlated, which makes it conservative.
func (a Estimate) Over(b Estimate) Estimate {
	r := a.Mean / b.Mean
	return Estimate{Mean: r, CI95: math.Abs(r) * math.Hypot(a.CI95/a.Mean, b.CI95/b.Mean)}
}
