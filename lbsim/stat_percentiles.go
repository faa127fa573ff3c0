package lbsim

import (
	"fmt"
	"math"
	"slices"
)

// Percentile is a quantile lbsim measures of the waiting and the response
// time: its probability P and the prefix of its columns (p99_wait,
// p99_wait_ci95, exact_p99_wait, p99_response, ...).
type Percentile struct {
	Name string
	P    float64
}

// percentiles is the one table of the measured quantiles, in increasing P.
var percentiles = [...]Percentile{{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p999", 0.999}}

const nPercentiles = len(percentiles)

// Percentiles are the quantiles every result measures, in increasing P.
func Percentiles() []Percentile { return slices.Clone(percentiles[:]) }

// percentileProbs are the percentiles' P, for histogram.quantiles.
var percentileProbs = func() []float64 {
	out := make([]float64, nPercentiles)
	for i, p := range percentiles {
		out[i] = p.P
	}
	return out
}()

// Quantiles are estimates at Percentiles, in order.
//
// The point estimate q is the p-quantile of all measured jobs, pooled. The
// interval comes from the fraction of each unit's jobs at most q
// (Result.CIMethod's units; batches in recording order, departures under
// PS and SRPT), a mean of indicators that batch means and replications
// treat as any mean: with F_u the n units' fractions and
// h = t_{0.975,n-1} s_F / sqrt(n), the interval is [Q(p - h), Q(p + h)] of
// the pooled law (the inverse of the distribution function's interval: the
// quantile's batching interval of Alexopoulos, Goldsman and coauthors),
// written q ± the larger side. Unlike an interval on the units' own
// quantiles, it keeps the unit's few long excursions as what they are, a
// fraction of jobs beyond q that varies from unit to unit.
//
// No interval (CI95 NaN; the summary says why on the percentile's line):
// fewer than minExcursions independent excursions of the queues beyond q
// in the run (excursions), an interval that reaches p + h >= 1, or one
// whose larger side would take q ± h below 0 (its ends are printed).
type Quantiles [nPercentiles]Estimate

// ExactQuantiles are the exact steady-state quantiles of the waiting and
// the response time at Percentiles, where theory knows them
// (Reference.Quantiles).
type ExactQuantiles struct {
	Wait, Response [nPercentiles]float64
	// Method is how they were found when the mean's formula
	// (Reference.Method) does not say it, else "": the row's exact_method
	// adds it.
	Method string
}

// responseAtoms are the response times of positive probability: a job that
// does not wait is served alone at its speed, so each atom x of the size law
// (lawAtoms: det, two-point, empirical and a trace's sizes) over each speed
// mu_k, ascending; nil for a law without atoms. The waiting time's atom, 0,
// is the histogram's bin 0.
func responseAtoms(cfg *Config) []float64 {
	law, speeds := cfg.sizes(), slices.Compact(slices.Sorted(slices.Values(cfg.speeds())))
	if e, ok := law.(Empirical); ok && e.tab != nil {
		return e.tab.responseAtoms(e, speeds) // n of them: once, not each replication
	}
	return atomsOver(law, speeds)
}

// atomsOver is responseAtoms for the size law s and the distinct speeds.
func atomsOver(s SizeLaw, speeds []float64) []float64 {
	sizes, ok := lawAtoms(s)
	if !ok {
		return nil
	}
	out := make([]float64, 0, len(sizes)*len(speeds))
	for _, x := range sizes {
		for _, mu := range speeds {
			out = append(out, x/mu)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// minExcursions is the fewest independent excursions of the queues beyond
// a quantile, in the whole run, for which it gets an interval. Below, the
// run holds so few that the fraction of jobs beyond the quantile is set by
// which excursions it happened to meet, and the units' spread with it: a
// run that met fewer has a low quantile and a narrow interval. The
// coverage studies (the note of issue 49; TestPercentileCoverage) found
// 0.27 to 0.73 at 2 to 6 excursions, 0.90 to 0.98 from 20.
const minExcursions = 16

// excursions is the number of independent excursions of the queues beyond
// a quantile in the run, from beyond, its jobs beyond it. Where the model
// knows the queues' relaxation time tau (slowestRelaxation), an excursion
// above a high level lasts about tau jobs (in heavy traffic the workload
// is a reflected Brownian motion, whose excursions above a level last of
// the order of its relaxation time whatever the level): beyond / tau,
// each job one where tau < 1. This count does not come from the units'
// spread, which a run that met few excursions underestimates. Without a
// model (a trace, a ramp) it does: the units' counts e_u beyond it, if
// they come in clusters, a Poisson number of mean lambda per unit of
// i.i.d. sizes S, have E[e] = lambda E[S] and Var[e] = lambda E[S^2], so
// n mean^2/var estimates n lambda E[S]^2/E[S^2] <= n lambda (n units), the
// clusters that count; independent jobs (var <= mean) count each.
func excursions(beyond, tau float64, e []float64) float64 {
	if tau > 0 {
		return beyond / max(tau, 1)
	}
	m, v := meanOf(e), 0.0
	for _, x := range e {
		v += (x - m) * (x - m) / float64(len(e)-1)
	}
	if v <= m {
		return float64(len(e)) * m
	}
	return float64(len(e)) * m * m / v
}

// noCI is why a percentile has no interval written q ± h (Quantiles): the
// metric (p999_wait), the reason in brief for the summary's line (in
// parentheses after the value), in full for a note below it ("": none),
// and how many times longer a run would give one (0: unknown).
type noCI struct {
	metric, short, why string
	longer             float64
}

// sectioned are the pooled histogram's quantiles with their intervals
// (Quantiles) from the units' times, each unit's quantiles by percentile
// (Result.Units), and why a quantile has no interval. A unit counts its
// jobs beyond a quantile over copies (a trace's replays: one job replayed
// five times is one job); units without jobs are left out. tau is the
// queues' relaxation time in jobs (excursions) and side names the times
// ("wait", "response").
func sectioned(pooled *histogram, units []*histogram, copies, tau float64, side string) (Quantiles, [nPercentiles][]float64, []noCI) {
	var at [nPercentiles]float64
	pooled.quantiles(percentileProbs, at[:])
	units = slices.DeleteFunc(slices.Clone(units), func(u *histogram) bool { return u.counts == nil || u.count() == 0 })
	var out Quantiles
	var own [nPercentiles][]float64
	var why []noCI
	for _, u := range units {
		var q [nPercentiles]float64
		u.quantiles(percentileProbs, q[:])
		for i := range q {
			own[i] = append(own[i], q[i])
		}
	}
	for i, p := range percentiles {
		q := at[i]
		out[i] = Estimate{Mean: q, CI95: math.NaN()}
		if len(units) < 2 {
			continue // no interval for the mean either: the summary says why
		}
		f, e := make([]float64, len(units)), make([]float64, len(units))
		for j, u := range units {
			n, b := float64(u.count()), u.below(q)
			f[j], e[j] = b/n, (n-b)/copies
		}
		metric := p.Name + "_" + side
		beyond := (float64(pooled.count()) - pooled.below(q)) / copies
		if x := excursions(beyond, tau, e); x < minExcursions {
			why = append(why, noCI{metric, "no CI: few excursions*", fmt.Sprintf(
				"the %.0f jobs beyond it came in about %.2g independent excursions of the queues (%d needed)", beyond, x, minExcursions), minExcursions / x})
			continue
		}
		h := MeanCI95(f).CI95
		if p.P+h >= 1 {
			why = append(why, noCI{metric, "no CI: few jobs beyond*", fmt.Sprintf(
				"its interval reaches beyond the longest %s measured", side), 0})
			continue
		}
		var ends [2]float64
		pooled.quantiles([]float64{p.P - h, p.P + h}, ends[:])
		half := max(q-ends[0], ends[1]-q)
		if half > q {
			// Not ± (it would reach below 0): its ends on its line.
			why = append(why, noCI{metric, fmt.Sprintf("95%% CI %.2g to %.2g", ends[0], ends[1]), "", 0})
			continue
		}
		out[i].CI95 = half
	}
	return out, own, why
}
