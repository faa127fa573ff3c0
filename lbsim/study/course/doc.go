// Package course holds what the course notebooks (01 dispatching, 02 exponential
// sizes, 03 SITA) share: the handout's experiment and its printed results, the
// mean waiting times of job classes (all, short and long jobs) with what theory knows of them
// (lbsim.Theory, plus SITA's per-class M/D/1 waits), and the builders of the
// "mean waiting time vs load, one curve per policy, with 95% confidence
// intervals and dashed exact curves" figure and table.
//
// The handout is "Job dispatching among parallel servers" (TD Evaluation de
// Performances, INFO4 Polytech Grenoble, 2023): K = 50 FIFO servers of speed 1,
// Poisson arrivals, two-point sizes x_m = 1 or x_M = 1000 with P(X = x_M) =
// x_M^-beta, beta = 0.8, N = 2e6 jobs, seed 17, loads 0.05, 0.15, ..., 0.95.
//
// The package depends on the simulator, its theory and the plots package, but not
// on GoNB, so everything here is testable with go test.
package course
