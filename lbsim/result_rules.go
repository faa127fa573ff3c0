package lbsim

// The warning rules, as [Warning].Rule names them. What each means and what
// to do is in their table (rules); the comments here say why.
const (
	// RuleUnstable catches what Validate cannot prove unstable
	// (config_stability.go), whatever the policy (see instability).
	RuleUnstable = "unstable"
	// RuleInfiniteSecondMoment: under FCFS, by Pollaczek-Khinchine the mean
	// wait of an M/G/1 queue is lambda E[X^2]/(2(1-rho)): infinite. Under
	// PS, E[R | x] = x/(1-rho). Under SRPT the mean response exists for
	// every law of finite mean: mu E[T] = E[X] + int Psi dG / 2 with
	// Psi <= 2 E[X] and int dG = rho/(1-rho) (theory.MG1SRPT), so
	// E[T] <= E[X]/(mu (1-rho)), PS's; but T >= X/mu, so
	// E[T^2] >= E[X^2]/mu^2 = inf.
	RuleInfiniteSecondMoment = "infinite-second-moment"
	// RuleInfiniteThirdMoment: E[W] exists but E[W^2] needs E[X^3] < inf
	// (Takacs' recurrence; Asmussen, Applied Probability and Queues, ch.
	// VIII), so the CLT behind the interval fails. Not under PS or SRPT:
	// their response time's tail is the size's, P(T > t) ~ P(X > (1-rho)
	// mu t) for regularly varying sizes (SRPT: Nunez-Queija, "Queues with
	// equally heavy sojourn time and service requirement distributions",
	// Ann. Oper. Res. 2002; PS: Zwart and Boxma 2000), so E[T^2] is finite
	// when E[X^2] is.
	RuleInfiniteThirdMoment = "infinite-third-moment"
	// RuleTailUndersampled: the mean wait is proportional to E[X^2] (the
	// Pareto trap); finite-moment laws drawn a few thousand times pass easily.
	RuleTailUndersampled = "tail-undersampled"
	// RuleInitialTransient: the bias is about tau/n for a relaxation time
	// of tau jobs and n jobs per server; result_runlength.go gives tau and
	// the coverage study behind the threshold.
	RuleInitialTransient = "initial-transient"
	// RuleCutShort: under PS and SRPT the jobs present at the last
	// measured arrival are slowed by those that follow it, so the run goes
	// on (sim.hasTail), for at most tailLimit arrivals; a job still present
	// then is drained without arrivals and served too fast. A longer run
	// has a longer tail.
	RuleCutShort = "cut-short"
	// RuleCorrelatedBatches: batches shorter than 12 relaxation times
	// (result_runlength.go), or with a lag-1 autocorrelation above max(0.3,
	// 2.5/sqrt(B-1)) (Law and Kelton, sec. 9.5.3). The lag-1 estimate from
	// 20 batches has a standard deviation near 0.2: the relaxation index
	// catches most cases first.
	RuleCorrelatedBatches = "correlated-batches"
	// RuleDrift: a paired t test at the 0.1% level over replications, or a
	// t test on the batch means of one replication. The level is a
	// false-alarm rate per configuration: at 1% a sweep of a hundred points
	// showed one or two at random (TestDriftFalseAlarmRate).
	RuleDrift = "drift"

	RuleExactOutsideCI  = "exact-outside-ci"
	RuleBelowLowerBound = "below-lower-bound"
	RuleFewRefreshes    = "few-refreshes"
	RuleRampNotReached  = "ramp-not-reached"
	RulePrecisionNotMet = "precision-not-met"
)

// The rules' former names, kept for one release.
const (
	// Deprecated: use RuleInfiniteSecondMoment.
	RuleInfiniteVariance = RuleInfiniteSecondMoment
	// Deprecated: use RuleTailUndersampled.
	RuleSampleMoment = RuleTailUndersampled
	// Deprecated: use RuleExactOutsideCI.
	RuleExactOutside = RuleExactOutsideCI
	// Deprecated: use RuleBelowLowerBound.
	RuleBelowBound = RuleBelowLowerBound
	// Deprecated: use RuleRampNotReached.
	RuleRampShort = RuleRampNotReached
	// Deprecated: use RulePrecisionNotMet.
	RulePrecision = RulePrecisionNotMet
)

// A rule is a row of the table of warning rules.
type rule struct {
	id      string // as a Warning names it
	cure    cure   // whether a longer run cures it
	meaning string // what fired, and why the number is not to be trusted
	fix     string // what to do
}

// cure says whether a longer run cures a rule, as a precision run
// (run_precision.go) acts on it.
type cure uint8

const (
	cureAside  cure = iota // a precision run does not act on it (few-refreshes and ramp-not-reached name the jobs they need)
	cureLonger             // longer replications cure it, more of the same length would only narrow a biased interval: N doubles
	cureNone               // the interval is not valid (no steady state, or no finite variance for the CLT), however long the run: it stops
)

// rules is the table of warning rules, in Rules' order; the package doc's
// list and the README's table are generated from it (result_rules_test.go).
var rules = [...]rule{
	{RuleUnstable, cureNone, "the load, or a server's load as the configuration fixes it, reached 1 (allowed by `-overload`, a trace's own load, a ramp past the stability limit), or a server's measured utilisation reached 1 where the configuration does not fix the loads (a trace, a policy of your own, JIQ, JSQ, LL-d or LSQ on unequal speeds), or far above 1 beyond sampling error where it does: the queues grow, every mean depends on the run length", "lower the load or send that server less work; no warm-up helps"},
	{RuleInfiniteSecondMoment, cureNone, "E[X²] = ∞ (Pareto α <= 2): under FCFS the mean wait is infinite and a simulated one only grows with the run; under PS and SRPT the mean response exists, but the response time has infinite variance, so its interval is not valid", "read the percentiles, or use PS or SRPT and compare runs of 10x the length"},
	{RuleInfiniteThirdMoment, cureNone, "E[X³] = ∞ (Pareto α <= 3), FCFS: the wait has infinite variance, so the interval is too narrow and the mean converges slower than 1/sqrt(N)", "compare runs of 10x the length, or use PS or SRPT"},
	{RuleTailUndersampled, cureLonger, "the sizes drawn have E[X²] below half or above twice the law's: the run has not seen the tail that sets the mean", "run at least 10x more jobs and compare"},
	{RuleInitialTransient, cureLonger, "the run started empty and is biased low by more than a quarter of its interval's half-width", "use `-warmup auto` (`WarmupAuto: true`) or the jobs the message names"},
	{RuleCutShort, cureLonger, "under PS or SRPT, measured jobs were still present after the run went on for four times as many unmeasured arrivals as it simulated: they were served with no further arrivals, so their responses are too short, by up to more than a quarter of the half-width of the mean", "run more jobs (the tail grows with the run), or lower the load"},
	{RuleCorrelatedBatches, cureLonger, "one replication whose batch means are not independent: the interval is too narrow", "use replications (`-reps 5`) or longer runs"},
	{RuleDrift, cureLonger, "the two halves of the run differ beyond chance and by more than the half-width: not in steady state", "use `-warmup auto` or longer runs"},
	{RuleExactOutsideCI, cureLonger, "the exact mean is more than 2 half-widths from the simulated one (a correct run: probability about 6e-5), or an exact percentile so far from its interval that a correct run would be there with probability below 1e-5: the interval is confidently wrong", "trust the exact value; run longer"},
	{RuleBelowLowerBound, cureLonger, "the mean is more than 2 half-widths below a lower bound theory gives (LowerBound): the interval is confidently wrong", "run longer"},
	{RuleFewRefreshes, cureAside, "the board was refreshed fewer than 10 times in a replication: the policy mostly saw the empty board of the start, not the steady state of its refresh period", "run more jobs (the message says how many)"},
	{RuleRampNotReached, cureAside, "the run ended before the ramp reached its final load: the result is not at the load it is reported at", "shorten the ramp or run more jobs"},
	{RulePrecisionNotMet, cureAside, "a `-precision` target was not reached within the budget, or cannot be", "raise `-max-jobs` / `-max-seconds`, or see the other warnings"},
}

// Rules lists the rules a Warning may name, so that a list of warnings printed
// as one text (Warnings.String) can be split at each rule.
func Rules() []string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.id
	}
	return ids
}

// fired is the first rule of the table with cure c that fired in ws; ""
// if none.
func fired(ws Warnings, c cure) string {
	for _, r := range rules {
		if r.cure == c && ws.Has(r.id) {
			return r.id
		}
	}
	return ""
}
