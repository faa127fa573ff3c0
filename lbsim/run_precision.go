package lbsim

import (
	"fmt"
	"math"
	"time"
)

// Precision-driven run length (sequential stopping on the relative
// half-width, Law and Kelton, Simulation Modeling and Analysis, sec. 9.4.1):
// run R replications (Reps, at least 4) of N jobs; while the 95% half-width
// of the metric (mean wait, or mean response under PS) exceeds Precision
// times its mean, or a warning says the run is too short, grow the run and
// aggregate again:
//
//   - when a warning says the replications are too short to be trusted
//     (drift, the initial transient, under-sampled tail, correlated batches, the
//     exact value outside the interval), more
//     of them would only narrow a biased interval, so N doubles and the
//     replications start again (the first N jobs of each are the same);
//   - otherwise replications are added: R' = R (h/(Precision m))^2 with a
//     10% margin, at least R+1 and at most 4R.
//
// The budget is MaxJobs simulated jobs in all (default 1e10) and MaxSeconds
// of wall time. Decisions depend only on the results, so the same seed gives
// the same answer on any machine, unless MaxSeconds stops the run.

const defaultMaxJobs = 10_000_000_000

// lengthRules are the warnings that more replications of the same length cannot fix.
// A run that meets the target while one of them fires is not done either.
var lengthRules = []string{RuleDrift, RuleInitialTransient, RuleSampleMoment, RuleCorrelatedBatches, RuleExactOutside, RuleBelowBound}

// invalidRules are the warnings that say the interval itself is not valid
// (no steady state, or no finite variance for the CLT): no run length meets
// a precision target then, so the run stops at once and says so.
var invalidRules = []string{RuleUnstable, RuleInfiniteVariance, RuleInfiniteThirdMoment}

func runPrecise(cfg *Config, workers int) (Result, error) {
	start := time.Now()
	budget := cfg.MaxJobs
	if budget == 0 {
		budget = defaultMaxJobs
	}
	c := *cfg
	c.Reps = max(cfg.reps(), 4) // fewer make a fragile interval (t quantile 12.7 at R = 2)
	var reps []replication
	var used int64
	for {
		more, err := runReps(&c, len(reps), c.Reps, workers)
		if err != nil {
			return Result{}, err
		}
		for _, rep := range more {
			used += rep.simulated
		}
		reps = append(reps, more...)
		r := aggregate(&c, reps)
		r.Config, r.Seconds, r.TotalJobs = *cfg, time.Since(start).Seconds(), used
		metric := r.Wait
		if c.Discipline == PS {
			metric = r.Response
		}
		rel := metric.CI95 / math.Abs(metric.Mean)
		tooShort := hasAny(r.Warnings, lengthRules)
		for _, rule := range invalidRules {
			if r.Warnings.Has(rule) {
				r.Warnings = append(r.Warnings, Warning{Rule: RulePrecision, Message: fmt.Sprintf(
					"the precision target %.3g%% cannot be met: the 95%% interval is not valid here (see %s), however long the run; after %d jobs the half-width is %.3g%% of the mean", 100*cfg.Precision, rule, used, 100*rel)})
				return r, nil
			}
		}
		if rel <= cfg.Precision && !tooShort {
			r.PrecisionMet = true
			return r, nil
		}
		next := c
		if tooShort {
			next.Jobs *= 2
			next.Reps = c.Reps
		} else {
			grow := float64(c.Reps) * (rel / cfg.Precision) * (rel / cfg.Precision) * 1.1
			next.Reps = int(min(max(math.Ceil(grow), float64(c.Reps+1)), float64(4*c.Reps)))
		}
		cost := int64(next.Reps-len(reps)) * (next.jobs() + next.Warmup)
		if next.Jobs != c.Jobs {
			cost = int64(next.Reps) * (next.jobs() + next.Warmup)
		}
		timeUp := cfg.MaxSeconds > 0 && time.Since(start).Seconds() >= cfg.MaxSeconds
		overLimits := next.checkBounds() // replications, jobs and memory (config_limits.go)
		if used+cost > budget || timeUp || math.IsNaN(rel) || overLimits != nil {
			why := fmt.Sprintf("the next round needs %d more jobs, over the budget of %d (-max-jobs)", cost, budget)
			if timeUp {
				why = fmt.Sprintf("the time budget of %g s (-max-seconds) is spent", cfg.MaxSeconds)
			}
			if overLimits != nil {
				why = "the next round would exceed lbsim's limits: " + overLimits.Error()
			}
			r.Warnings = append(r.Warnings, Warning{Rule: RulePrecision, Message: fmt.Sprintf(
				"the 95%% half-width is %.3g%% of the mean, above the target %.3g%%, after %d jobs (%d replications of %d): %s", 100*rel, 100*cfg.Precision, used, c.Reps, c.Jobs, why)})
			return r, nil
		}
		if next.Jobs != c.Jobs {
			reps = nil
		}
		c = next
	}
}

func hasAny(ws Warnings, rules []string) bool {
	for _, rule := range rules {
		if ws.Has(rule) {
			return true
		}
	}
	return false
}

type PrecisionProgress struct {
	Precision               float64
	Round                   int
	Jobs, Projected, Budget int64
	HalfWidth               float64
}

func (p PrecisionProgress) String() string { return "" }

func RunWithProgress(cfg Config, progress func(PrecisionProgress)) (Result, error) { return Run(cfg) }
