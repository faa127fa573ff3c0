package lbsim

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Estimate is a mean with the half-width of its 95% confidence interval
// (Student t over independent replications, or one replication's batch means).
type Estimate struct {
	Mean, CI95 float64
}

// String is "mean ± half-width"; without an interval (fewer than two
// replications or batch means) it says so rather than "± NaN".
func (e Estimate) String() string {
	if math.IsNaN(e.CI95) && !math.IsNaN(e.Mean) {
		return fmt.Sprintf("%.6g (no 95%% CI)", e.Mean)
	}
	return fmt.Sprintf("%.6g ± %.3g", e.Mean, e.CI95)
}

// ClassResult is the measurement of one size class (short or long jobs).
type ClassResult struct {
	Name     string
	Jobs     int64
	Wait     Estimate
	Response Estimate
}

// Result is what a configuration measured over its replications.
type Result struct {
	// Wait is the waiting time (arrival to start of service; under PS and
	// SRPT the response time minus the job's own service time x/mu).
	Wait     Estimate
	Response Estimate
	// Slowdown is the mean slowdown E[T/S]: a job's response time over its
	// service time S = x/mu on the server it was sent to (the time it would
	// take alone there), the measure of size-based dispatching (SITA-E,
	// SRPT). Its interval is made as the mean response's, from the same
	// units, with the same control variates; none (CI95 NaN) where the mean
	// is infinite (FCFS and sizes with E[1/X] = inf: exponential, H2).
	Slowdown Estimate
	// WaitQuantiles and ResponseQuantiles are the waiting and the response
	// time at Percentiles with their intervals (see Quantiles).
	WaitQuantiles, ResponseQuantiles Quantiles
	// Units holds each metric's (Metrics) value in each of the interval's
	// units, in order: a replication, or with one replication a batch that
	// holds jobs (CIMethod). Runs on the same seeds see the same arrivals and
	// sizes unit by unit, so compare pairs them.
	Units map[string][]float64
	// Handout is the course's R quantity, FCFS only (HasHandout): per job
	// max(V + X/mu - A_next, 0), the workload just after the job joined minus
	// the time to the next arrival. It is not the waiting time.
	Handout    Estimate
	HasHandout bool
	// LoadOnCapacity is the measured load: the work sent per unit time over
	// the capacity sum(mu_k), what Config.Load sets (sum_k mu_k u_k / sum(mu)).
	LoadOnCapacity float64
	// Utilization is the plain mean of ServerUtilization, u_k = the work sent
	// to server k per unit time over its speed: not the load (LoadOnCapacity).
	Utilization       float64
	ServerUtilization []float64
	Classes           []ClassResult // per size class, for two-point sizes
	Series            []TimePoint   // replication 0, when SampleEvery > 0
	CIMethod          string        // "replications" or "20 batch means", and the control variates (Config.ControlVariates)
	Seconds           float64       // wall-clock time of the run

	Config Config // the configuration that produced the result
	Label  string // its policy's name (RND, LL-2)
	// Exact is the exact steady-state mean of this configuration (see
	// Exact), when HasExact; without it, where an exact chain is promised
	// but out of reach, Exact.Method says why ("none: ...", delays NaN).
	// Limit is what theory knows short of it, a K -> infinity limit or a
	// lower bound (see Limit), when HasLimit.
	Exact    Reference
	HasExact bool
	Limit    Reference
	HasLimit bool
	Warnings Warnings // the reasons not to trust a number of this result (result_diagnose.go)
	// TotalJobs is the number of jobs simulated, warm-ups included (with a
	// Precision target: over every round); WarmupJobs the jobs discarded per
	// replication (chosen by MSER with WarmupAuto).
	TotalJobs    int64
	WarmupJobs   []int64
	PrecisionMet bool // a Precision target was reached
	// MessagesPerJob is what the dispatchers' knowledge costs in messages per
	// measured job: probes and replies, idle tokens, board refreshes.
	MessagesPerJob float64

	noCI []noCI // why a percentile has no interval, for the summary (quantilesText)
}

// Theory is the result's exact value, else its limit or bound, if any.
func (r Result) Theory() (Reference, bool) {
	if r.HasExact {
		return r.Exact, true
	}
	return r.Limit, r.HasLimit
}

// Class returns the named class result (short, long).
func (r Result) Class(name string) (ClassResult, bool) {
	for _, c := range r.Classes {
		if c.Name == name {
			return c, true
		}
	}
	return ClassResult{}, false
}

// maxClassLines is the most size classes String lists (SITA-E has a class
// a server: 10^5 lines would bury the rest).
const maxClassLines = 20

func (r Result) String() string {
	var b strings.Builder
	b.WriteString("policy " + r.Config.String())
	ci := "95% CI from " + r.CIMethod
	if math.IsNaN(r.Wait.CI95) && !math.IsNaN(r.Wait.Mean) {
		ci = fmt.Sprintf("no 95%% CI from %s (an interval needs at least 2: run more jobs, or -reps 2)", r.CIMethod)
	}
	fmt.Fprintf(&b, "\n%d jobs x %s, seed %d, %s\n", r.Config.jobs(), number.Count(r.Config.reps(), "replication"), r.Config.Seed, ci)
	fmt.Fprintf(&b, "  mean waiting time   %s\n", r.Wait)
	fmt.Fprintf(&b, "  mean response time  %s\n", r.Response)
	if infiniteSlowdown(&r.Config) {
		fmt.Fprintf(&b, "  mean slowdown       %.6g (no CI: sizes with E[1/X] = inf under FCFS, so the mean slowdown is infinite and the run's value only grows with it)\n", r.Slowdown.Mean)
	} else {
		fmt.Fprintf(&b, "  mean slowdown       %s\n", r.Slowdown)
	}
	b.WriteString(quantilesText(r))
	for i, c := range r.Classes {
		if i == maxClassLines && len(r.Classes) > maxClassLines+1 {
			fmt.Fprintf(&b, "  and %d more classes (every one in -json, or Result.Classes)\n", len(r.Classes)-i) // two or more
			break
		}
		if c.Jobs == 0 {
			fmt.Fprintf(&b, "  %-5s jobs: none measured\n", c.Name)
			continue
		}
		fmt.Fprintf(&b, "  %-5s jobs: wait %s, response %s (%d jobs)\n", c.Name, c.Wait, c.Response, c.Jobs)
	}
	if note := describe(r.Config.Policy, &r.Config).note; note != nil {
		if line := note(); line != "" {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	if r.HasHandout {
		fmt.Fprintf(&b, "  handout's quantity  %s  (not the waiting time; see \"What is measured\" in go doc ./lbsim)\n", r.Handout)
	}
	if r.HasExact {
		fmt.Fprintf(&b, "  exact (%s): mean wait %.6g, mean response %.6g", r.Exact.Method, r.Exact.Wait, r.Exact.Response)
		if !math.IsNaN(r.Exact.Slowdown) {
			fmt.Fprintf(&b, ", mean slowdown %.6g", r.Exact.Slowdown)
		}
		b.WriteString("\n")
	} else if r.Exact.Method != "" {
		fmt.Fprintf(&b, "  exact: %s\n", r.Exact.Method)
	}
	if r.HasLimit {
		fmt.Fprintf(&b, "  %s, not this system's value (%s): mean wait %.6g, mean response %.6g\n", r.Limit.Kind, r.Limit.Method, r.Limit.Wait, r.Limit.Response)
	}
	fmt.Fprintf(&b, "  messages per job %.4g (probes and replies, idle tokens, board refreshes)\n", r.MessagesPerJob)
	fmt.Fprintf(&b, "  load on capacity %.4g (work per unit time / sum of speeds)\n", r.LoadOnCapacity)
	fmt.Fprintf(&b, "  server utilisation: mean %.4g, max %.4g (per server: its work / its speed)\n", r.Utilization, slices.Max(r.ServerUtilization))
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  WARNING %s\n", w)
	}
	fmt.Fprintf(&b, "  %.3g s", r.Seconds)
	return b.String()
}

// infiniteSlowdown reports whether the mean slowdown is infinite whatever
// the policy: under FCFS a job's wait does not shrink with its size x, so
// its slowdown 1 + W mu/x has an infinite mean when E[1/X] is (a law with a
// positive density at 0: exponential, H2, Erlang k=1) and small jobs wait.
// Not under PS (1/(1-rho)) nor SRPT (T(x)/x stays bounded as x -> 0). The
// mean slowdown then has no interval (Result.Slowdown), and the summary
// says why: not a warning of the run, whose other metrics are sound.
func infiniteSlowdown(c *Config) bool {
	inv, ok := lawInverse(c.sizes(), 0, math.Inf(1))
	return c.Discipline == FCFS && ok && math.IsInf(inv, 1)
}

// tQuantile is the p quantile of Student's t with n-1 degrees of freedom.
func tQuantile(p float64, n int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(p)
}

// estimate pools sums over units (replications or batches): sum/count over
// all, with MeanCI95's half-width over the unit means (unitMeans).
func estimate(sums, counts []float64) Estimate {
	var s, c float64
	for i := range sums {
		s += sums[i]
		c += counts[i]
	}
	if c == 0 {
		return Estimate{Mean: math.NaN(), CI95: math.NaN()}
	}
	return Estimate{Mean: s / c, CI95: MeanCI95(unitMeans(sums, counts)).CI95}
}

// unitMeans are sum/count of each unit that holds jobs, in order.
func unitMeans(sums, counts []float64) []float64 {
	var means []float64
	for i := range sums {
		if counts[i] > 0 {
			means = append(means, sums[i]/counts[i])
		}
	}
	return means
}

// ciReplications are the replications the interval is made from: reps, or
// for the replays of one trace (R > 1) their sum. Replays share the trace's
// jobs and differ only in the dispatcher's draws (none under RR), so their
// spread says nothing of the workload's; a batch, the same block of the
// trace in every replay, summed over them is that block averaged over the
// draws: batch means over the trace (Asmussen and Glynn, Stochastic
// Simulation, ch. IV.5).
func ciReplications(cfg *Config, reps []replication) []replication {
	if cfg.Trace == nil || len(reps) < 2 {
		return reps
	}
	sum := replication{m: reps[0].m.clone()}
	for _, rep := range reps[1:] {
		sum.m.add(rep.m)
	}
	return []replication{sum}
}

// aggregate combines the replications of one configuration, in order.
func aggregate(cfg *Config, reps []replication) Result {
	r := Result{
		HasHandout: cfg.Discipline == FCFS, CIMethod: "replications",
		Config: *cfg, Label: describe(cfg.Policy, cfg).Label,
	}
	if ref, ok := Theory(*cfg); ok && ref.Kind == ExactValue {
		r.Exact, r.HasExact = ref, true
	} else {
		if ok {
			r.Limit, r.HasLimit = ref, true
		}
		if ref.NoExact != "" { // a promised exact value is missing: say why
			r.Exact = Reference{Wait: math.NaN(), Response: math.NaN(), Method: "none: " + ref.NoExact}
		}
	}
	// A CI unit is a replication, or with one (ciReplications) fineFactor
	// consecutive fine batches. Column -1 sums all classes.
	units := ciReplications(cfg, reps)
	group := cfg.fineBatches()
	if len(units) == 1 {
		group = fineFactor
	}
	// unit is the units' sums of f over class col (-1: every class), a
	// value a group of batches.
	unit := func(col int, f func(classSums) float64) []float64 {
		var out []float64
		for _, rep := range units {
			for b0 := 0; b0 < rep.m.batches; b0 += group {
				out = append(out, rep.m.sum(b0, b0+group, col, f))
			}
		}
		return out
	}
	all := -1
	counts := unit(all, jobsIn)
	if len(units) == 1 { // the batch means that hold jobs: fewer jobs than batches leave some empty
		n := 0
		for _, c := range counts {
			if c > 0 {
				n++
			}
		}
		r.CIMethod = fmt.Sprintf("%d batch means", n)
		if n == 1 {
			r.CIMethod = "1 batch mean"
		}
		if len(reps) > 1 {
			r.CIMethod += fmt.Sprintf(" of the trace, its %d replays summed", len(reps))
		}
	}
	cv := newControlFit(cfg, reps, group)
	if cv != nil {
		r.CIMethod += ", " + cv.method(counts)
	}
	w, resp, slow := unit(all, waitIn), unit(all, respIn), unit(all, slowIn)
	r.Wait, r.Response, r.Slowdown = cv.estimate(w, counts), cv.estimate(resp, counts), cv.estimate(slow, counts)
	r.Units = map[string][]float64{"mean_wait": unitMeans(w, counts), "mean_response": unitMeans(resp, counts), "mean_slowdown": unitMeans(slow, counts)}
	if infiniteSlowdown(cfg) {
		r.Slowdown.CI95 = math.NaN() // no interval holds an infinite mean
	}
	if r.HasHandout {
		var hand []float64
		for _, rep := range units {
			for b0 := 0; b0 < rep.m.batches; b0 += group {
				sum := 0.0
				for _, h := range rep.m.handout[b0 : b0+group] {
					sum += h
				}
				hand = append(hand, sum)
			}
		}
		r.Handout = cv.estimate(hand, counts)
	}
	if cls := cfg.classes(); len(cls) > 1 {
		for i, cl := range cls {
			cc := unit(i, jobsIn)
			var n float64
			for _, v := range cc {
				n += v
			}
			r.Classes = append(r.Classes, ClassResult{
				Name: cl.Name, Jobs: int64(n),
				Wait: cv.estimate(unit(i, waitIn), cc), Response: cv.estimate(unit(i, respIn), cc),
			})
		}
	}
	r.ServerUtilization = make([]float64, cfg.Servers)
	for _, rep := range reps {
		span := rep.tEnd - rep.tStart
		for k, b := range rep.busy {
			if span > 0 {
				r.ServerUtilization[k] += b / span / float64(len(reps))
			}
		}
	}
	capacity := cfg.Capacity()
	for k, u := range r.ServerUtilization {
		r.Utilization += u / float64(cfg.Servers)
		r.LoadOnCapacity += u * cfg.speed(k) / capacity
	}
	r.WaitQuantiles, r.ResponseQuantiles, r.noCI = quantilesOf(reps, units, slowestRelaxation(cfg, r.ServerUtilization), &r)
	r.Series = reps[0].series
	r.MessagesPerJob = messagesPerJob(cfg, reps)
	for _, rep := range reps {
		r.WarmupJobs = append(r.WarmupJobs, rep.warmup)
		r.TotalJobs += rep.simulated
	}
	r.Warnings = diagnose(cfg, reps, &r)
	return r
}

// quantilesOf are the replications' quantiles with their intervals
// (Quantiles) and why some have none, and each unit's in r.Units
// (p99_wait, ...): the interval's units (ciReplications) are the
// replications, or one replication's batches (a trace's: its replays'
// merged, each job counted once). tau is the queues' relaxation time in
// jobs (slowestRelaxation; 0: unknown).
func quantilesOf(reps, units []replication, tau float64, r *Result) (Quantiles, Quantiles, []noCI) {
	wait, resp := newHistogram(), newHistogram()
	resp.atoms = reps[0].m.respAll.atoms
	for _, rep := range reps {
		wait.merge(rep.m.waitAll)
		resp.merge(rep.m.respAll)
	}
	var uw, ur []*histogram
	if len(units) == 1 {
		for i := range units[0].m.units {
			t := &units[0].m.units[i]
			uw, ur = append(uw, &t.wait), append(ur, &t.resp)
		}
	} else {
		for _, rep := range units {
			uw, ur = append(uw, &rep.m.waitAll), append(ur, &rep.m.respAll)
		}
	}
	copies := float64(len(reps) / len(units))
	qw, ow, ww := sectioned(&wait, uw, copies, tau, "wait")
	qr, or, wr := sectioned(&resp, ur, copies, tau, "response")
	for i, p := range percentiles {
		r.Units[p.Name+"_wait"], r.Units[p.Name+"_response"] = ow[i], or[i]
	}
	return qw, qr, append(ww, wr...)
}

// quantilesText is the summary's quantile lines, measured and exact.
func quantilesText(r Result) string {
	var b strings.Builder
	for _, side := range []struct {
		name, metric string
		q            Quantiles
		exact        func(*ExactQuantiles) [nPercentiles]float64
	}{
		{"waiting time ", "wait", r.WaitQuantiles, func(e *ExactQuantiles) [nPercentiles]float64 { return e.Wait }},
		{"response time", "response", r.ResponseQuantiles, func(e *ExactQuantiles) [nPercentiles]float64 { return e.Response }},
	} {
		fmt.Fprintf(&b, "  %s", side.name)
		for i, p := range percentiles {
			fmt.Fprintf(&b, "  %s %.4g", p.Name, side.q[i].Mean)
			switch ci, i := side.q[i].CI95, slices.IndexFunc(r.noCI, func(n noCI) bool { return n.metric == p.Name+"_"+side.metric }); {
			case !math.IsNaN(ci):
				fmt.Fprintf(&b, " ± %.2g", ci)
			case i >= 0:
				b.WriteString(" (" + r.noCI[i].short + ")")
			default:
				b.WriteString(" (no CI)") // none for the mean either (the summary's head says why), or a result decoded
			}
		}
		b.WriteString("\n")
		if r.HasExact && r.Exact.Quantiles != nil {
			fmt.Fprintf(&b, "    exact      ")
			for i, p := range percentiles {
				fmt.Fprintf(&b, "  %s %.4g", p.Name, side.exact(r.Exact.Quantiles)[i])
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(noCIText(r))
	return b.String()
}

// noCIText is the note below the quantile lines on the percentiles marked
// "*": why they have no interval, and the run that would give one.
func noCIText(r Result) string {
	var whys []string // in order of first appearance
	which, longer := map[string][]string{}, map[string]float64{}
	for _, n := range r.noCI {
		if n.why == "" {
			continue
		}
		if which[n.why] == nil {
			whys = append(whys, n.why)
		}
		which[n.why] = append(which[n.why], strings.ReplaceAll(n.metric, "_", " "))
		longer[n.why] = n.longer
	}
	var b strings.Builder
	for _, w := range whys {
		fmt.Fprintf(&b, "    * %s: no interval: %s", strings.Join(which[w], " and "), w)
		switch l := longer[w]; {
		case l > 0 && r.Config.Trace != nil: // its replays are the same jobs again
			fmt.Fprintf(&b, "; a trace about %.2g times longer would give one", l)
		case l > 0 && l < 1.5: // "about 1 times longer" reads as no change
			fmt.Fprintf(&b, "; a slightly longer run (-jobs %.2g) would give one", math.Ceil(l*float64(r.Config.jobs())))
		case l > 0:
			fmt.Fprintf(&b, "; a run about %.2g times longer (-jobs %.2g) would give one", l, math.Ceil(l*float64(r.Config.jobs())))
		}
		b.WriteString("\n")
	}
	return b.String()
}
