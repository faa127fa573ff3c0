package lbsim

import (
	"fmt"
	"math"
)

// Run length. A queue started empty approaches its steady state in about
//
//	tau = rho^2 (c_a^2 + c_s^2) / (2 (1 - rho)^2)
//
// jobs, c_a^2 the SCV of the gaps between the jobs it receives and c_s^2
// that of their service times: the relaxation time of the reflected
// Brownian motion that approximates it in heavy traffic (Abate and Whitt
// 1987; Whitt 1989, "Planning queueing simulations"), with variance
// lambda E[S^2] and drift 1 - rho per unit time, times lambda jobs per
// unit time. The rho^2 keeps a lightly loaded queue, which empties after
// every few jobs, from looking slow. Two consequences, each a warning:
//
//   - RuleInitialTransient: a replication of n jobs per server is biased
//     low by about tau/n (first order; after a warm-up of w jobs the share
//     transientLeft(w/tau) of it, which falls far slower than
//     exp(-w/tau)). Past a quarter of the relative half-width, the
//     interval misses more often than it says, and more replications only
//     narrow it.
//   - RuleCorrelatedBatches, with one replication: batches of n/B jobs per
//     server with a batch index n/B / (2 tau) below 6 (shorter than 12
//     relaxation times; tau stretched by batchStretch for laws heavier
//     than the exponential in their third moment) are correlated, and the
//     interval too narrow.
//
// Both thresholds come from a coverage study of 8,000 runs on 40 families
// with exact values (coverage_test.go, families held out of the choice):
// with them the unwarned 95% intervals held the exact value 94% of the
// time, and no benign run was flagged. A batch index of 6 warns RR on
// speeds 2,2,1,1 with the slow servers at 0.93 (index 5.05, coverage
// 0.888), not PS with Pareto 2.5 sizes at 0.9 (index 6.9, coverage 0.92).
//
// tau is the workload's, the same under every work-conserving discipline.
// Under heavy tails the infinite-moment rules speak, not this one.
//
// Which queue: the servers of the model (serverLoads), each weighed by its
// share of the metric (Kingman's approximation of its mean wait); without
// a model, the pooled system (one queue of all K servers, the shortest
// relaxation a policy that reads the servers can have), unless a server
// ran near 1 (nearCritical). Not for a trace: its load is an average over
// its span (traces hold cycles and bursts), and its replications share its
// jobs, so that their half-width measures only the dispatcher's draws.

const (
	noIntervalBias      = 0.01 // the bias warned about when no interval (or one of width 0) can show it
	transientShare      = 0.25 // the bias, as a share of the relative half-width, that RuleInitialTransient warns about
	minBatchRelaxations = 6    // the least batch index n/B / (2 tau) with one replication
)

// relaxation is tau in jobs of a queue whose gaps have SCV ca2.
func (q serverLoad) relaxation(ca2 float64) float64 {
	return q.rho * q.rho * (ca2 + q.scv()) / (2 * (1 - q.rho) * (1 - q.rho))
}

// metric is the queue's weight in the result: Kingman's approximation of
// its mean wait (FCFS), or the M/G/1-PS mean response (PS; under SRPT its
// upper bound, as the moments do not give SRPT's).
func (q serverLoad) metric(ca2 float64, response bool) float64 {
	service := q.m1 / q.speed
	if response {
		return service / (1 - q.rho)
	}
	return (ca2 + q.scv()) / 2 * q.rho / (1 - q.rho) * service
}

// runLength applies RuleInitialTransient and the batch-length half of
// RuleCorrelatedBatches; it returns whether the batches are too short.
func (d *diagnosis) runLength() (shortBatches bool) {
	cfg, reps, metric := d.cfg, d.reps, d.metric
	qs, queue, c0, ok := relaxingQueues(cfg, d.r.ServerUtilization)
	if !ok {
		return false // no steady load to relax to (ramp-not-reached and unstable speak)
	}
	n := float64(cfg.jobs())
	warm := 0.0
	for _, rep := range reps {
		warm += float64(rep.warmup) / float64(len(reps))
	}
	b := float64(cfg.ciBatches())
	desc := describe(cfg.Policy, cfg)
	var weight, cold, bias, perBatch, tau, rho, share float64
	for _, q := range loadClasses(qs) { // alike servers relax alike: once a class
		if q.share == 0 {
			continue // no job comes
		}
		if q.rho >= 1 || math.IsInf(q.scv(), 0) || math.IsNaN(q.scv()) {
			return false // the unstable and infinite-moment rules speak
		}
		ca2 := gapSCV(&desc, c0, q.serverLoad)
		w := float64(q.n) * q.share * q.metric(ca2, d.resp)
		t := q.relaxation(ca2)
		cold += w * t / (n * q.share)
		bias += w * t / (n * q.share) * transientLeft(warm*q.share/t)
		perBatch += w * t / (n * q.share / b)
		weight += w
		if t > tau {
			tau, rho, share = t, q.rho, q.share
		}
	}
	if !(weight > 0) {
		return false
	}
	cold, bias, perBatch = cold/weight, bias/weight, perBatch/weight*batchStretch(cfg)
	// The warm-up that would bring the bias below target, from empty.
	warmup := func(target float64) string {
		w := warmupFor(tau, share, cold, target)
		if cfg.WarmupAuto { // a number the flag takes: 2 significant digits, up
			p := math.Pow(10, math.Floor(math.Log10(w))-1)
			return fmt.Sprintf("use a longer warm-up (-warmup %.0f; the automatic one cut %.2g jobs a replication)", math.Ceil(w/p)*p, warm)
		}
		return fmt.Sprintf("use a warm-up (-warmup auto, or about %.2g jobs)", w)
	}
	first := "tau/n, first order"
	if warm > 0 {
		first = fmt.Sprintf("tau/n, first order, after a warm-up of %.2g jobs", warm)
	}
	rel := metric.CI95 / math.Abs(metric.Mean)
	if !(rel > 0) && bias > noIntervalBias {
		// No interval shows the bias (one batch, or every job alike): it is
		// stated alone, with the jobs that bring it below noIntervalBias.
		d.add(RuleInitialTransient, "started empty, %s %.3g relaxes in about %.3g jobs (tau): the mean is biased low by about %.2g%% (%s), and the interval (none, or of width 0) cannot show it; %s or about %.2g jobs per replication",
			queue, rho, tau, 100*bias, first, warmup(noIntervalBias), math.Ceil(n*bias/noIntervalBias))
		return false
	}
	if metric.CI95 > 0 && bias > transientShare*rel {
		// Jobs per replication for bias <= transientShare rel, with rel
		// shrinking as 1/sqrt(n): n' = n (bias / (transientShare rel))^2.
		need := n * (bias / (transientShare * rel)) * (bias / (transientShare * rel))
		d.add(RuleInitialTransient, "started empty, %s %.3g relaxes in about %.3g jobs (tau): the mean is biased low by about %.2g%% (%s), over a quarter of the ±%.2g%% half-width; %s or about %.2g jobs per replication",
			queue, rho, tau, 100*bias, first, 100*rel, warmup(transientShare*rel), need)
	}
	if len(reps) == 1 && metric.CI95 > 0 && 1/perBatch < 2*minBatchRelaxations { // index n_batch/(2 tau) < minBatchRelaxations
		d.add(RuleCorrelatedBatches, "the %d batch means of one replication are %.2g relaxation times (2 tau) of %s %.3g long, below %d: they are correlated and the interval is too narrow; %s",
			min(int64(cfg.ciBatches()), cfg.jobs()), 1/(2*perBatch), queue, rho, minBatchRelaxations, d.independentBatches(2*minBatchRelaxations*perBatch))
		return true
	}
	return false
}

// transientLeft is the share of a queue's initial bias left after a
// warm-up of x relaxation times (x = w/tau). Reflected Brownian motion
// started empty approaches its mean as its first-moment cdf H1, 1 - H1(t)
// = 2[(1+t) Phi^c(sqrt t) - sqrt t phi(sqrt t)] in its own time, where
// H1's mean, 1/2, is tau (Abate and Whitt, "Transient behavior of
// regulated Brownian motion", 1987): the bias left is 1 - H1 integrated
// beyond the warm-up over its mean, 2 G(x/2) with
//
//	G(u) = (1 - 2u - u^2) Phi^c(sqrt u) + (1 + u) sqrt(u) phi(sqrt u)
//
// (G' = -(1 - H1), G(0) = 1/2). It falls off far slower than exp(-x):
// 0.54 at x = 1, 0.22 at 3, 0.017 at 10 (exp(-x): 0.37, 0.05, 4.5e-5). A
// study of 200 seeds (the note of issue 49) measured 0.49 and 0.15 of the
// bias left for M/M/1 at 0.95 after x = 1.4 and 4.2, 0.58 and 0.28 for
// M/H2/1 (SCV 10) at 0.9 after 1.1 and 3.4: exp(-x) said 0.25, 0.016,
// 0.33 and 0.034.
func transientLeft(x float64) float64 {
	if x <= 0 {
		return 1
	}
	if x > 80 {
		return 0 // below 1e-16
	}
	u := x / 2
	r := math.Sqrt(u)
	tail := math.Erfc(r/math.Sqrt2) / 2
	phi := math.Exp(-u/2) / math.Sqrt(2*math.Pi)
	return max(0, 2*((1-2*u-u*u)*tail+(1+u)*r*phi))
}

// warmupFor is the warm-up, in jobs, that leaves a queue's initial bias
// (bias without one) below target: tau/share jobs per relaxation time of
// the queue, which receives a share of them; x by bisection on
// transientLeft, which falls from 1 at x = 0.
func warmupFor(tau, share, bias, target float64) float64 {
	lo, hi := 0.0, 80.0
	for range 60 {
		if mid := (lo + hi) / 2; bias*transientLeft(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Ceil(hi * tau / share)
}

// batchStretch is how much longer than tau the batch means stay
// correlated, for the batch-length rule: the Brownian approximation sees
// the sizes through E[X^2] only, but where the third moment ratio
// k = E[X^3] E[X] / E[X^2]^2 exceeds the exponential's 1.5 the long jobs'
// effects outlast tau. One replication of 1e6 jobs, RND K=2, 100 seeds:
// H2 SCV 30 at 0.9 (batch index 10, k = 2.9) covered 0.84, at 2e6 jobs
// 0.93; H2 SCV 10 at 0.95 (index 6.3, k = 2.7) 0.87, at 2e6 0.92, where
// exponential sizes cover 0.94 from index 6. k/1.5 stretches tau by 1.9 and
// 1.8: those runs warn, the longer ones do not. Never below 1: lighter
// laws (deterministic, two-point, Erlang) keep the exponential's rule.
func batchStretch(cfg *Config) float64 {
	sizes := cfg.sizes()
	m3, ok := lawThirdMoment(sizes)
	m2 := sizes.SecondMoment()
	if !ok || math.IsInf(m3, 0) || !(m2 > 0) {
		return 1
	}
	return max(1, m3*sizes.Mean()/(m2*m2)/1.5)
}

// relaxingQueues are the queues whose relaxation sets the run length
// (see above: the model's servers, a server near 1, or the pooled system),
// what queue names them, and c0, the SCV of the arrivals' gaps; ok is
// false for a ramp or a trace, which have no steady load to relax to.
func relaxingQueues(cfg *Config, util []float64) (qs []serverLoad, queue string, c0 float64, ok bool) {
	if _, ramp := cfg.arrivals().(Ramp); ramp || cfg.Trace != nil {
		return nil, "", 0, false
	}
	c0 = 1 // Poisson gaps; deterministic arrivals have none
	if _, det := cfg.arrivals().(DeterministicArrivals); det {
		c0 = 0
	}
	qs, queue = cfg.serverLoads(), "a queue at load"
	if qs == nil {
		if qs = nearCritical(cfg, util); qs != nil {
			queue = "a server at measured utilisation"
		} else { // the pooled system: one server of speed sum(mu)
			sizes := cfg.sizes()
			qs = []serverLoad{{to: 1, share: 1, m1: sizes.Mean(), m2: sizes.SecondMoment(), speed: cfg.Capacity(), rho: cfg.Load}}
		}
	}
	return qs, queue, c0, true
}

// slowestRelaxation is the longest tau, in jobs, of the queues that
// receive jobs (relaxingQueues); 0 where it cannot be told: a ramp, a
// trace, a queue at load 1 or of infinite moments.
func slowestRelaxation(cfg *Config, util []float64) float64 {
	qs, _, c0, ok := relaxingQueues(cfg, util)
	if !ok {
		return 0
	}
	desc := describe(cfg.Policy, cfg)
	tau := 0.0
	for _, q := range loadClasses(qs) {
		if q.share == 0 {
			continue
		}
		if q.rho >= 1 || math.IsInf(q.scv(), 0) || math.IsNaN(q.scv()) {
			return 0
		}
		tau = max(tau, q.relaxation(gapSCV(&desc, c0, q.serverLoad)))
	}
	return tau
}

// nearCritical is the model of the servers' loads measured, for a policy
// without one (JIQ on unequal speeds), when a server ran within
// nearCriticalGap of 1 and closer to 1 than rho by half: the pooled system,
// which relaxes in a few jobs at rho, does not describe a server at 0.99.
// Server k is then a queue at its measured utilisation u_k, receiving the
// share u_k mu_k / (rho sum(mu)) of the jobs, with the law's sizes. Nil
// when no server is near critical, or under a policy that reads every
// server (balances), which keeps a slow server's queue short however busy.
func nearCritical(cfg *Config, util []float64) []serverLoad {
	if balances(cfg) {
		return nil
	}
	rho, near := cfg.Load, false
	for _, u := range util {
		near = near || u < 1 && u >= 1-nearCriticalGap && u-rho >= (1-rho)/2
	}
	if !near || !(rho > 0) {
		return nil
	}
	sizes, capacity := cfg.sizes(), cfg.Capacity()
	qs := make([]serverLoad, len(util))
	for k, u := range util {
		mu := cfg.speed(k)
		qs[k] = serverLoad{from: k, to: k + 1, share: u * mu / (rho * capacity), m1: sizes.Mean(), m2: sizes.SecondMoment(), speed: mu, rho: u}
	}
	return qs
}

const nearCriticalGap = 0.05 // how close to 1 a utilisation must be for nearCritical
