package lbsim

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Precision-driven run length (sequential stopping on the relative
// half-width, Law and Kelton, Simulation Modeling and Analysis, sec. 9.4.1):
// run R replications of N jobs; while the 95% half-width h of the metric
// exceeds Precision times its mean m, or a warning says the run is too
// short, grow the run and aggregate again:
//
//   - when a warning says the replications are too short to be trusted
//     (cureLonger), more of them would only narrow a biased interval, so N
//     doubles and the replications start again (the first N jobs of each
//     are the same);
//   - otherwise replications are added: R' = R (h/(Precision m))^2 with a
//     10% margin, at least R+1 and at most 4R.
//
// Decisions depend only on the results, so the same seed gives the same
// answer on any machine, unless MaxSeconds stops the run.

const defaultMaxJobs = 10_000_000_000

// minPrecisionReps is the fewest replications a precision run starts with
// (t quantile 12.7 at R = 2): R = 1, the default, starts here; 2 or 3 are
// refused (checkPrecision), not silently raised.
const minPrecisionReps = 4

// PrecisionProgress is the state of a precision run after a round; the
// jobs the target needs are projected from the half-width shrinking as
// 1/sqrt(jobs).
type PrecisionProgress struct {
	Precision     float64 // the target
	Round, Reps   int     // rounds done, replications in the last
	Jobs          int64   // jobs simulated so far
	HalfWidth     float64 // the 95% half-width over the mean
	Projected     int64   // jobs needed in all, about
	Budget        int64   // MaxJobs, or its default
	DefaultBudget bool    // Budget is the default
}

func (p PrecisionProgress) String() string {
	s := fmt.Sprintf("precision %v: %s jobs so far (round %d, %d replications), half-width %.3g%% of the mean, about %s jobs needed",
		p.Precision, countText(p.Jobs), p.Round, p.Reps, 100*p.HalfWidth, countText(p.Projected))
	if p.Projected > p.Budget {
		limit := fmt.Sprintf("-max-jobs %s", countText(p.Budget))
		if p.DefaultBudget {
			limit += ", the default"
		}
		s += fmt.Sprintf(" (over %s: the run will stop there without meeting the target)", limit)
	}
	return s
}

// countText is a count as digits up to a million, else as 1.6e10.
func countText(n int64) string {
	if n < 1_000_000 {
		return fmt.Sprint(n)
	}
	m := fmt.Sprintf("%.2g", float64(n))
	return strings.Replace(strings.Replace(m, "e+0", "e", 1), "e+", "e", 1)
}

// RunWithProgress is Run, calling progress (if not nil) after each round
// of a precision run (Config.Precision > 0).
func RunWithProgress(cfg Config, progress func(PrecisionProgress)) (Result, error) {
	if cfg.Precision == 0 || progress == nil {
		return Run(cfg)
	}
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	return runPrecise(&cfg, cfg.poolWorkers(), progress)
}

// precisionBudget is a precision run's job budget, and whether it is the default.
func (c *Config) precisionBudget() (int64, bool) {
	if c.MaxJobs == 0 {
		return defaultMaxJobs, true
	}
	return c.MaxJobs, false
}

// precisionRound is the precision run's first round: its replications
// and the jobs they simulate at most (an MSER pilot run included).
func (c *Config) precisionRound() (int, int64) {
	reps := max(c.reps(), minPrecisionReps)
	per := c.jobs() + c.Warmup
	if c.WarmupAuto {
		per *= 2
	}
	return reps, int64(reps) * per
}

func runPrecise(cfg *Config, workers int, progress func(PrecisionProgress)) (Result, error) {
	start := time.Now()
	budget, defaultBudget := cfg.precisionBudget()
	c := *cfg
	c.Reps, _ = cfg.precisionRound()
	var reps []replication
	round := 0
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
		// the numbers' configuration: cfg with the last round's Reps and Jobs
		r.Config, r.Seconds, r.TotalJobs = *cfg, time.Since(start).Seconds(), used
		r.Config.Reps, r.Config.Jobs = c.Reps, c.Jobs
		metric := r.Wait
		if c.Discipline.Preemptive() {
			metric = r.Response
		}
		round++
		if metric.Mean == 0 {
			r.Warnings = append(r.Warnings, Warning{Rule: RulePrecisionNotMet, Message: fmt.Sprintf(
				"the precision target %.3g%% cannot be met: the mean %s is 0 after %d jobs (no job waited), and a half-width relative to 0 does not exist; drop -precision and give -jobs, or raise the load", 100*cfg.Precision, metricName(c.Discipline), used)})
			return r, nil
		}
		rel := metric.CI95 / math.Abs(metric.Mean)
		if progress != nil && !math.IsNaN(rel) {
			need := float64(used) * (rel / cfg.Precision) * (rel / cfg.Precision)
			progress(PrecisionProgress{Precision: cfg.Precision, Round: round, Reps: c.Reps, Jobs: used, HalfWidth: rel,
				Projected: int64(min(max(need, float64(used)), maxJobs)), Budget: budget, DefaultBudget: defaultBudget})
		}
		// A run that meets the target while a cureLonger rule fires is not
		// done either; no run length meets it while a cureNone rule fires.
		tooShort := fired(r.Warnings, cureLonger) != ""
		if rule := fired(r.Warnings, cureNone); rule != "" {
			r.Warnings = append(r.Warnings, Warning{Rule: RulePrecisionNotMet, Message: fmt.Sprintf(
				"the precision target %.3g%% cannot be met: the 95%% interval is not valid here (see %s), however long the run; after %d jobs the half-width is %.3g%% of the mean", 100*cfg.Precision, rule, used, 100*rel)})
			return r, nil
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
			r.Warnings = append(r.Warnings, Warning{Rule: RulePrecisionNotMet, Message: fmt.Sprintf(
				"the 95%% half-width is %.3g%% of the mean, above the target %.3g%%, after %d jobs (%d replications of %d): %s", 100*rel, 100*cfg.Precision, used, c.Reps, c.Jobs, why)})
			return r, nil
		}
		if next.Jobs != c.Jobs {
			reps = nil
		}
		c = next
	}
}

// metricName is the metric a precision target is for.
func metricName(d Discipline) string {
	if d.Preemptive() {
		return "response"
	}
	return "wait"
}
