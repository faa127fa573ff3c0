package lbsim

import (
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
//     low by about tau/n (first order; exp(-w/tau) less after a warm-up of
//     w jobs). Past a quarter of the relative half-width, the interval
//     misses more often than it says, and more replications only narrow it.
//   - RuleCorrelatedBatches, with one replication: batches of n/B jobs per
//     server with a batch index n/B / (2 tau) below 6 (shorter than 12
//     relaxation times) are correlated, and the interval too narrow.
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
	var weight, bias, perBatch, tau, rho, share float64
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
		bias += w * t / (n * q.share) * math.Exp(-warm*q.share/t)
		perBatch += w * t / (n * q.share / b)
		weight += w
		if t > tau {
			tau, rho, share = t, q.rho, q.share
		}
	}
	if !(weight > 0) {
		return false
	}
	bias, perBatch = bias/weight, perBatch/weight
	rel := metric.CI95 / math.Abs(metric.Mean)
	if !(rel > 0) && bias > noIntervalBias {
		// No interval shows the bias (one batch, or every job alike): it is
		// stated alone, with the jobs that bring it below noIntervalBias.
		d.add(RuleInitialTransient, "started empty, %s %.3g relaxes in about %.3g jobs (tau): the mean is biased low by about %.2g%% (tau/n, first order), and the interval (none, or of width 0) cannot show it; use a warm-up (-warmup auto, or about %.2g jobs) or about %.2g jobs per replication",
			queue, rho, tau, 100*bias, math.Ceil(3*tau/share), math.Ceil(n*bias/noIntervalBias))
		return false
	}
	if metric.CI95 > 0 && bias > transientShare*rel {
		// Jobs per replication for bias <= transientShare rel, with rel
		// shrinking as 1/sqrt(n): n' = n (bias / (transientShare rel))^2.
		need := n * (bias / (transientShare * rel)) * (bias / (transientShare * rel))
		d.add(RuleInitialTransient, "started empty, %s %.3g relaxes in about %.3g jobs (tau): the mean is biased low by about %.2g%% (tau/n, first order), over a quarter of the ±%.2g%% half-width; use a warm-up (-warmup auto, or about %.2g jobs) or about %.2g jobs per replication",
			queue, rho, tau, 100*bias, 100*rel, math.Ceil(3*tau/share), need)
	}
	if len(reps) == 1 && metric.CI95 > 0 && 1/perBatch < 2*minBatchRelaxations { // index n_batch/(2 tau) < minBatchRelaxations
		d.add(RuleCorrelatedBatches, "the %d batch means of one replication are %.2g relaxation times (2 tau) of %s %.3g long, below %d: they are correlated and the interval is too narrow; %s",
			min(int64(cfg.ciBatches()), cfg.jobs()), 1/(2*perBatch), queue, rho, minBatchRelaxations, d.independentBatches(2*minBatchRelaxations*perBatch))
		return true
	}
	return false
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
