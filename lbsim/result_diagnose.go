package lbsim

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// A diagnosis is a run being checked against the rules, and its warnings.
type diagnosis struct {
	cfg      *Config
	reps     []replication
	r        *Result
	resp     bool     // the metric is the mean response (PS, SRPT), else the mean wait
	metric   Estimate // r.Response or r.Wait
	what     string   // the metric's name: "mean wait" or "mean response"
	unstable string   // why the run is unstable (instability), "" if it is not
	ws       Warnings
}

func (d *diagnosis) add(rule, format string, args ...any) {
	d.ws = append(d.ws, Warning{Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// diagnose applies the rules to an aggregated result, in its warnings' order.
func diagnose(cfg *Config, reps []replication, r *Result) Warnings {
	d := &diagnosis{cfg: cfg, reps: reps, r: r, resp: cfg.Discipline.Preemptive(), metric: r.Wait, what: "mean wait"}
	if d.resp {
		d.metric, d.what = r.Response, "mean response"
	}
	d.stability()
	d.timeScales()
	d.sizeMoments()
	d.sizesDrawn()
	d.runEnd()
	d.stationarity(d.unstable == "" && d.runLength())
	d.theory()
	d.percentiles()
	return d.ws
}

// stability applies RuleUnstable.
func (d *diagnosis) stability() {
	if d.unstable = instability(d.cfg, d.reps, d.r); d.unstable != "" {
		d.add(RuleUnstable, "%s: the queues grow without bound, so every mean depends on the run length (N=%d) and is not a steady-state value", d.unstable, d.cfg.jobs())
	}
}

// timeScales applies RuleFewRefreshes and RuleRampNotReached: a run too
// short for the time scale of its board or of its ramp.
func (d *diagnosis) timeScales() {
	cfg := d.cfg
	end := math.Inf(1) // the shortest replication's last arrival
	for _, rep := range d.reps {
		end = math.Min(end, rep.tEnd)
	}
	if cfg.Refresh > 0 && cfg.Servers > 1 && end/cfg.Refresh < 10 {
		d.add(RuleFewRefreshes, "the board (refresh period T=%v) was refreshed only %d times in a replication (%.4g time units): the policy saw mostly the board of the start, with empty queues, so this is not the steady state of period T; run at least %.2g jobs per replication (10 refreshes)", cfg.Refresh, int(end/cfg.Refresh), end, math.Ceil(10*cfg.Refresh/end*float64(cfg.jobs()+cfg.Warmup)))
	}
	if ramp, ok := cfg.arrivals().(Ramp); ok && cfg.Trace == nil && end < ramp.Over {
		reached := ramp.From + (ramp.To-ramp.From)*end/ramp.Over
		d.add(RuleRampNotReached, "the ramp reaches load %v at t=%v, but the run ends at t=%.4g, at load %.4g: the result is not at the final load; shorten the ramp (over) or run more jobs", ramp.To, ramp.Over, end, reached)
	}
}

// sizeMoments applies RuleInfiniteSecondMoment and RuleInfiniteThirdMoment
// to the size law, each in the words of the discipline.
func (d *diagnosis) sizeMoments() {
	sizes := d.cfg.sizes()
	alpha := lawTailIndex(sizes)
	infinite := math.IsInf(sizes.SecondMoment(), 1)
	switch {
	case infinite && d.cfg.Discipline == PS:
		d.add(RuleInfiniteSecondMoment, "sizes %s have E[X^2] = inf: under PS the mean response E[X]/(1-rho) exists, but a job's response grows with its size (E[R | x] = x/(1-rho) per server), so the response time has infinite variance: the 95%% interval (which assumes a finite one) is not valid and too narrow, and the mean converges slower than 1/sqrt(N); compare runs of 10x the length", sizes)
	case infinite && d.cfg.Discipline == SRPT:
		d.add(RuleInfiniteSecondMoment, "sizes %s have E[X^2] = inf: under SRPT the mean response exists (at most PS's E[X]/(1-rho) per server), but a job's response is at least its own service time x/mu, so the response time has infinite variance: the 95%% interval (which assumes a finite one) is not valid and too narrow, and the mean converges slower than 1/sqrt(N); compare runs of 10x the length", sizes)
	case infinite && d.cfg.Discipline == FCFS:
		d.add(RuleInfiniteSecondMoment, "sizes %s have E[X^2] = inf: the mean wait of every FCFS server that gets such jobs is infinite, so the reported %.4g only grows with the run length; the percentiles (p50 to p999) still mean something, and under PS or SRPT the mean response exists", sizes, d.r.Wait.Mean)
	case infinite:
		d.add(RuleInfiniteSecondMoment, "sizes %s have E[X^2] = inf: under %s a job's response is at least its own service time x/mu, so the response time has infinite variance: the 95%% interval (which assumes a finite one) is not valid and too narrow; compare runs of 10x the length", sizes, d.cfg.Discipline)
	case !d.resp && alpha <= 3:
		d.add(RuleInfiniteThirdMoment, "sizes %s have E[X^3] = inf (tail index %v <= 3): the waiting time has infinite variance, so the 95%% interval (which assumes a finite one) is too narrow and the mean converges slowly; compare runs of 10x the length, or use PS or SRPT", sizes, alpha)
	}
}

// sizesDrawn applies RuleTailUndersampled: the sample E[X^2] of the sizes
// drawn against the law's (a trace's sizes are its own).
func (d *diagnosis) sizesDrawn() {
	var nX, sumX2 float64
	for _, rep := range d.reps {
		nX, sumX2 = nX+rep.nX, sumX2+rep.sumX2
	}
	if m2 := d.cfg.sizes().SecondMoment(); d.cfg.Trace == nil && nX > 0 && !math.IsInf(m2, 1) {
		if ratio := sumX2 / nX / m2; ratio < 0.5 || ratio > 2 {
			d.add(RuleTailUndersampled, "the %.0f sizes drawn have E[X^2] = %.4g, %.0f%% of the law's %.4g: the tail that sets the mean wait is under-sampled; run at least 10x more jobs (or replications) and compare", nX, sumX2/nX, 100*ratio, m2)
		}
	}
}

// runEnd applies RuleCutShort: the measured jobs a preemptive run's tail
// did not see leave (sim.hasTail). Drained, a job leaves by the time its
// server's work W runs out; with arrivals going on it would leave by the
// end of the busy period W starts, W/(1-u) on average at load u (as
// configured, else as measured). So each is short by at most W/(1-u), and
// the mean by the sum of those over all measured jobs; it warns when that
// could exceed a quarter of the half-width (1% of the mean without an
// interval).
func (d *diagnosis) runEnd() {
	var cut, tail int64
	short := 0.0
	loads := d.cfg.serverLoads()
	for _, rep := range d.reps {
		tail = max(tail, tailLimit(rep.warmup+d.cfg.jobs()))
		for _, c := range rep.cutShort {
			cut += c.jobs
			u := d.r.ServerUtilization[c.k] // as configured, if it is
			for _, q := range loads {
				if q.from <= c.k && c.k < q.to {
					u = q.rho
				}
			}
			short += float64(c.jobs) * c.work / orZero(1-u)
		}
	}
	n := d.cfg.jobs() * int64(len(d.reps))
	bias := short / float64(n)
	limit := d.metric.CI95 / 4
	if !(limit > 0) {
		limit = math.Abs(d.metric.Mean) / 100
	}
	if cut > 0 && !(bias <= limit) {
		d.add(RuleCutShort, "%d of the %d measured jobs were still present after the run went on for %d unmeasured arrivals: under %s they were then served with no further arrivals, so their responses are too short and the %s may be biased low by up to %.3g (%.2g%% of it), over a quarter of the half-width; run more jobs (the tail grows with the run) or lower the load", cut, n, tail, d.cfg.Discipline, d.what, bias, 100*bias/math.Abs(d.metric.Mean))
	}
}

// independentBatches is the advice for correlated batches, longer (> 1:
// that many times longer, else unknown) runs or replications; a trace's
// replays are summed into the same batches (ciReplications), which more of
// them cannot make independent.
func (d *diagnosis) independentBatches(longer float64) string {
	times := "longer"
	if longer > 1 {
		times = fmt.Sprintf("%.2g times longer", longer)
	}
	if d.cfg.Trace != nil {
		return fmt.Sprintf("a trace's replays are summed into the same batches, so more replications do not help: use fewer, longer batches (-batches 5) or a %s trace", times)
	}
	return fmt.Sprintf("use replications (-reps 5) or %s runs", times)
}

// stationarity applies the lag-1 half of RuleCorrelatedBatches (unless
// runLength found the batches short) and RuleDrift.
func (d *diagnosis) stationarity(shortBatches bool) {
	units := ciReplications(d.cfg, d.reps)
	if len(units) == 1 && !shortBatches {
		if b, r1 := batchLag1(d.cfg, units[0]); r1 > math.Max(0.3, 2.5/math.Sqrt(float64(b-1))) {
			d.add(RuleCorrelatedBatches, "the %d batch means have lag-1 autocorrelation %.2f: batches are too short to be independent and the interval is too narrow; %s", b, r1, d.independentBatches(0))
		}
	}
	if first, second, sig := drift(d.cfg, units); sig && math.Abs(second-first) > d.metric.CI95 {
		advice := "use a warm-up (-warmup auto) or longer runs"
		if d.unstable != "" {
			advice = "see unstable: a warm-up does not cure an overloaded server"
		}
		d.add(RuleDrift, "the %s is %.4g in the first half of the run and %.4g in the second: not in steady state; %s", d.what, first, second, advice)
	}
}

// theory applies RuleExactOutsideCI and RuleBelowLowerBound: the simulated
// metric against what theory knows of it.
func (d *diagnosis) theory() {
	r, what, metric := d.r, d.what, d.metric
	if v, o, ok := d.halfWidthsFrom(r.Exact); r.HasExact && ok && math.Abs(o) > 2 {
		d.add(RuleExactOutsideCI, "the exact %s is %.6g (%s%s), %.1f half-widths from the simulated %s %s%s: the interval is confidently wrong (too short a run for this load and size law); trust the exact value", what, v, r.Exact.Method, asResponse(d.resp, r.Exact.Response), math.Abs(o), what, metric, asResponse(d.resp, r.Response.Mean))
	}
	if v, o, ok := d.halfWidthsFrom(r.Limit); r.HasLimit && r.Limit.Kind == LowerBound && ok && o < -2 {
		d.add(RuleBelowLowerBound, "the %s cannot be below %.6g (%s%s), but the simulated %s %s%s is %.1f half-widths below it: the interval is confidently wrong (too short a run for this load and size law)", what, v, r.Limit.Method, asResponse(d.resp, r.Limit.Response), what, metric, asResponse(d.resp, r.Response.Mean), -o)
	}
}

// percentiles applies RuleExactOutsideCI to the percentiles: the exact
// ones their interval misses, in one warning. (A percentile without an
// interval is no claim, and its reason is on its line: not a warning on a
// run whose other numbers hold, nor a footnote in a table without it.)
func (d *diagnosis) percentiles() {
	r := d.r
	if !r.HasExact || r.Exact.Quantiles == nil {
		return
	}
	var off []string
	for _, side := range []struct {
		name  string
		sim   Quantiles
		exact [nPercentiles]float64
	}{{"wait", r.WaitQuantiles, r.Exact.Quantiles.Wait}, {"response", r.ResponseQuantiles, r.Exact.Quantiles.Response}} {
		for i, p := range percentiles {
			est, v := side.sim[i], side.exact[i]
			if math.IsNaN(est.CI95) || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(est.Mean-v) <= 1e-9*math.Max(1, math.Abs(v)) {
				continue // no interval, no exact value, or equal (an atom, or every unit alike, has width 0)
			}
			// The mean's 2 half-widths are a chance of 6e-5 with many units; a
			// percentile's units may be 5 replications, and 8 are checked:
			// the t statistic's chance must be below 1e-5 each.
			o := math.Abs(est.Mean-v) / est.CI95
			df := float64(len(r.Units[p.Name+"_"+side.name]) - 1)
			if t, law := o*tQuantile(0.975, int(df)+1), (distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}); df >= 1 && 2*law.Survival(t) < 1e-5 {
				off = append(off, fmt.Sprintf("the exact %s %s is %.6g, %.1f half-widths from the simulated %s", p.Name, side.name, v, o, est))
			}
		}
	}
	if len(off) > 0 {
		d.add(RuleExactOutsideCI, "%s: the interval is confidently wrong (too short a run for this load and size law); trust the exact value", strings.Join(off, "; "))
	}
}

// halfWidthsFrom is ref's value v of the metric and the simulated metric's
// distance o from it, in half-widths; ok if they can be compared.
func (d *diagnosis) halfWidthsFrom(ref Reference) (v, o float64, ok bool) {
	v, m := ref.Wait, d.metric
	if d.resp {
		v = ref.Response
	}
	if m.CI95 == 0 { // every batch alike (e.g. no job waited): any other value is outside
		return v, math.Copysign(math.Inf(1), m.Mean-v), !math.IsInf(v, 0) && math.Abs(m.Mean-v) > 1e-9*math.Max(1, math.Abs(v))
	}
	return v, (m.Mean - v) / m.CI95, !math.IsInf(v, 0) && m.CI95 > 0
}

// asResponse names, under FCFS, the mean response that goes with a mean wait
// (a table of times in system shows that one): "; mean response 23.5".
func asResponse(resp bool, response float64) string {
	if resp || math.IsNaN(response) {
		return ""
	}
	return fmt.Sprintf("; mean response %.6g", response)
}

// instability says why the run is unstable (RuleUnstable), "" if it is not:
// a ramp passed its policy's StabilityLimit; the offered load, or a
// server's in the model, is >= 1 (a trace, or -overload); or a server's
// measured utilisation reached 1. Where theory keeps every server below 1
// (a built-in split of generated arrivals, or a symmetric policy on equal
// speeds), a measured 1 must be far above 1 (farAbove): just above is the
// sampling error of a short run. A trace's load is an average and a
// policy's own WorkShares a claim: under them a measured 1 is unstable.
func instability(cfg *Config, reps []replication, r *Result) string {
	loads, rho, what := cfg.serverLoads(), cfg.offeredLoad(), "load"
	if cfg.Trace != nil {
		what = "the trace's offered load"
	}
	var over []string
	ramp, isRamp := cfg.arrivals().(Ramp)
	switch {
	case isRamp && cfg.Trace == nil:
		limit := cfg.StabilityLimit()
		if limit > 1-1e-12 {
			limit = 1 // the capacity, up to rounding
		}
		// The load reaches the limit at From + (To-From) t/Over = limit.
		at := max(0, ramp.Over*(limit-ramp.From)/(ramp.To-ramp.From))
		for _, rep := range reps {
			if ramp.To >= limit && rep.tEnd > at {
				return fmt.Sprintf("the ramp reaches load %s at t=%.4g, before the run ends (t=%.4g)", loadText(limit), at, rep.tEnd)
			}
		}
	case rho >= 1:
		return fmt.Sprintf("%s %s reaches 1", what, loadText(rho))
	default:
		for _, q := range loads {
			if q.rho >= 1 {
				over = append(over, fmt.Sprintf("%s at %s", cfg.serversText(q), loadText(q.rho)))
			}
		}
		if len(over) > 0 {
			return fmt.Sprintf("under %s, which splits jobs without reading the servers, %s: configured load >= 1 (the work sent to them at %s %s, over their speed); lower the load, or weigh the split by speed (rnd:weights=speed, rr:weights=speed)",
				policyName(*cfg), strings.Join(clip(over), ", "), what, loadText(rho))
		}
	}
	desc := describe(cfg.Policy, cfg)
	exact := loads != nil && cfg.Trace == nil && desc.builtin || loads == nil && allEqual(cfg.Speeds) && desc.symmetric
	for k, u := range r.ServerUtilization {
		if u >= 1 && (!exact || farAbove(cfg, loads, k, u, len(reps))) {
			over = append(over, fmt.Sprintf("server %d (speed %v) at %.4g", k+1, cfg.speed(k), u))
		}
	}
	switch {
	case len(over) == 0:
		return ""
	case exact:
		return fmt.Sprintf("under %s, %s reached measured utilisation far above 1 (work sent per unit time over the speed), beyond the sampling error of a run at its load %s: the jobs came to it in bursts the steady state does not have; lower the load, or run longer",
			policyName(*cfg), strings.Join(clip(over), ", "), loadText(cfg.Load))
	}
	return fmt.Sprintf("under %s, %s reached measured utilisation 1 (work sent per unit time over the speed): overloaded, or too close to 1 for this run to tell; lower the load, or send them less work", policyName(*cfg), strings.Join(clip(over), ", "))
}

// farAbove reports whether server k's measured utilisation u, over reps
// replications, lies beyond what sampling can give a server that theory
// keeps at load rho_k < 1. It received about n = p_k N jobs in all, so
// its work has relative variance v = (1 + c^2)/n (the work of a Poisson
// number of jobs of SCV c^2), and a Bernstein bound for sub-exponential
// sums puts the largest of K servers' relative deviations below
//
//	sqrt(2 v L) + v L,   L = ln(K / overloadLevel),
//
// but with probability overloadLevel; the v L term covers the skew of a
// few jobs a server. Theory's split holds only in the long run (M
// round-robin pointers started in step send every server M jobs at once).
// Without a model (a symmetric policy on equal speeds) a server's share is
// 1/K and its load the offered one.
func farAbove(cfg *Config, loads []serverLoad, k int, u float64, reps int) bool {
	sizes := cfg.sizes()
	q := serverLoad{share: 1 / float64(cfg.Servers), m1: sizes.Mean(), m2: sizes.SecondMoment(), rho: cfg.offeredLoad()}
	// loads are contiguous runs in server order: a binary search
	if i := sort.Search(len(loads), func(i int) bool { return loads[i].to > k }); i < len(loads) && loads[i].from <= k {
		q = loads[i]
	}
	v := (1 + q.scv()) / (q.share * float64(cfg.jobs()) * float64(reps))
	l := math.Log(float64(cfg.Servers) / overloadLevel)
	return u-q.rho > q.rho*(math.Sqrt(2*v*l)+v*l)
}

const overloadLevel = 1e-9 // the chance that sampling alone makes farAbove report a correct run's server

// clip keeps the first 3 of a list of servers, and says how many more.
func clip(over []string) []string {
	if n := len(over); n > 3 {
		return append(over[:3:3], fmt.Sprintf("and %d more", n-3))
	}
	return over
}

// batchMeans are a replication's means of the metric over groups of
// `group` consecutive fine batches (empty groups skipped).
func batchMeans(cfg *Config, rep replication, group int) []float64 {
	m := rep.m
	metric := waitIn
	if cfg.Discipline.Preemptive() {
		metric = respIn
	}
	var out []float64
	for b0 := 0; b0+group <= m.batches; b0 += group {
		s, n := m.sum(b0, b0+group, -1, metric), m.sum(b0, b0+group, -1, jobsIn)
		if n > 0 {
			out = append(out, s/n)
		}
	}
	return out
}

// batchLag1 is the lag-1 autocorrelation of the CI's batch means.
func batchLag1(cfg *Config, rep replication) (int, float64) {
	y := batchMeans(cfg, rep, fineFactor)
	n := len(y)
	if n < 3 {
		return n, 0
	}
	var mean, num, den float64
	for _, v := range y {
		mean += v / float64(n)
	}
	for i, v := range y {
		den += (v - mean) * (v - mean)
		if i > 0 {
			num += (v - mean) * (y[i-1] - mean)
		}
	}
	if den == 0 {
		return n, 0
	}
	return n, num / den
}

// drift compares the metric over the first and second halves of the
// measured jobs: over replications with a paired t test (R >= 3), or over
// one replication's batch means with a two-sample t test (at the 0.1% level).
func drift(cfg *Config, reps []replication) (first, second float64, significant bool) {
	halves := func(rep replication) (a, b []float64) {
		y := batchMeans(cfg, rep, fineFactor)
		return y[:len(y)/2], y[len(y)/2:]
	}
	meanSD := func(x []float64) (m, sd float64) {
		for _, v := range x {
			m += v / float64(len(x))
		}
		for _, v := range x {
			sd += (v - m) * (v - m)
		}
		return m, math.Sqrt(sd / float64(len(x)-1))
	}
	if len(reps) == 1 {
		a, b := halves(reps[0])
		if len(a) < 3 || len(b) < 3 {
			return 0, 0, false
		}
		ma, sa := meanSD(a)
		mb, sb := meanSD(b)
		se := math.Sqrt(sa*sa/float64(len(a)) + sb*sb/float64(len(b)))
		return ma, mb, se > 0 && math.Abs(mb-ma) > tQuantile(driftQuantile, len(a)+len(b)-1)*se
	}
	if len(reps) < 3 {
		return 0, 0, false
	}
	var d, fa, fb []float64
	for _, rep := range reps {
		a, b := halves(rep)
		if len(a) == 0 || len(b) == 0 {
			return 0, 0, false
		}
		ma, mb := meanOf(a), meanOf(b)
		fa, fb, d = append(fa, ma), append(fb, mb), append(d, mb-ma)
	}
	md, sd := meanSD(d)
	se := sd / math.Sqrt(float64(len(d)))
	return meanOf(fa), meanOf(fb), se > 0 && math.Abs(md) > tQuantile(driftQuantile, len(d))*se
}

const driftQuantile = 0.9995 // the drift test's two-sided 0.1% level

func meanOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
