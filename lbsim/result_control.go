package lbsim

import (
	"fmt"
	"math"
	"strings"
)

// controlVariate is a control a configuration has (see stat_control.go):
// its name, its known mean per job, and its sum over a fine batch.
type controlVariate struct {
	name string
	mu   float64
	sum  func(c *controlSums, b int) float64
}

// controlVariates are cfg's controls, by priority, and why theory rules out
// the others: the mean size (E[X]) and gap (1/lambda) need a finite,
// non-zero variance, the mean squared size (E[X^2]) a finite E[X^4].
func (c *Config) controlVariates() (cvs []controlVariate, notes []string) {
	sizes := c.sizes()
	m1, m2, alpha := sizes.Mean(), sizes.SecondMoment(), lawTailIndex(sizes)
	switch {
	case m2 <= m1*m1:
		notes = append(notes, "sizes: constant")
	case alpha <= 2 || math.IsInf(m2, 1):
		notes = append(notes, "sizes: infinite variance")
	default:
		cvs = append(cvs, controlVariate{"sizes", m1, func(s *controlSums, b int) float64 { return s.sumX[b] }})
	}
	if _, ok := c.arrivals().(Poisson); ok {
		cvs = append(cvs, controlVariate{"arrivals", 1 / c.ArrivalRate(), func(s *controlSums, b int) float64 { return s.before[b+1] - s.before[b] }})
	} else {
		notes = append(notes, "arrivals: deterministic")
	}
	switch {
	case m2 <= m1*m1:
	case alpha <= 4 || math.IsInf(m2, 1):
		notes = append(notes, "sizes²: infinite variance (E[X^4] = inf)")
	default:
		cvs = append(cvs, controlVariate{"sizes²", m2, func(s *controlSums, b int) float64 { return s.sumX2[b] }})
	}
	return cvs, notes
}

// checkControls refuses control variates where no control has a known
// mean: a trace (nothing is drawn) or a ramp (its rate changes).
func (c *Config) checkControls() error {
	if !c.ControlVariates {
		return nil
	}
	if c.Trace != nil {
		return fmt.Errorf("control variates need sizes and arrivals drawn from laws of known means, and a trace replays its own: drop -control-variates (ControlVariates) for a trace")
	}
	if _, ramp := c.arrivals().(Ramp); ramp {
		return fmt.Errorf("control variates need arrivals of known mean rate, and %s changes its rate: use -arrivals poisson or det, or drop -control-variates (ControlVariates)", c.arrivals())
	}
	return nil
}

// controlFit holds the CI units' control means (a row a unit, in
// aggregate's order) and the controls' known means.
type controlFit struct {
	names []string
	mu    []float64
	units [][]float64
	notes []string // controls ruled out by theory
}

// newControlFit is the fit of cfg's controls over the units of group fine
// batches of reps; nil without Config.ControlVariates.
func newControlFit(cfg *Config, reps []replication, group int) *controlFit {
	if !cfg.ControlVariates || reps[0].ctl == nil {
		return nil
	}
	cvs, notes := cfg.controlVariates()
	f := &controlFit{notes: notes}
	for _, cv := range cvs {
		f.names, f.mu = append(f.names, cv.name), append(f.mu, cv.mu)
	}
	for _, rep := range reps {
		s := rep.ctl
		for b0 := 0; b0 < len(s.sumX); b0 += group {
			b1 := min(b0+group, len(s.sumX))
			row := make([]float64, len(cvs))
			jobs := float64(s.first[b1] - s.first[b0])
			for j, cv := range cvs {
				for b := b0; b < b1; b++ {
					row[j] += cv.sum(s, b)
				}
				row[j] /= jobs
			}
			f.units = append(f.units, row)
		}
	}
	return f
}

// estimate is estimate(sums, counts) adjusted by the controls pickControls
// keeps over the units with jobs (none, or a nil fit: the plain estimate).
// The regression weighs the unit means equally, the pooled mean by their
// jobs: the same, as units hold N/units jobs each, to one job.
func (f *controlFit) estimate(sums, counts []float64) Estimate {
	plain := estimate(sums, counts)
	if f == nil {
		return plain
	}
	idx, c := f.rows(counts)
	kept, _ := pickControls(c)
	if len(kept) == 0 {
		return plain
	}
	y, rows, mu := make([]float64, len(idx)), make([][]float64, len(idx)), make([]float64, len(kept))
	for i, u := range idx {
		y[i] = sums[u] / counts[u]
		for _, j := range kept {
			rows[i] = append(rows[i], c[i][j])
		}
	}
	for k, j := range kept {
		mu[k] = f.mu[j]
	}
	adj, half := controlAdjust(y, rows, mu)
	return Estimate{Mean: plain.Mean - adj, CI95: half}
}

// rows are the indices and control means of the units with jobs.
func (f *controlFit) rows(counts []float64) (idx []int, c [][]float64) {
	for i, n := range counts {
		if n > 0 {
			idx, c = append(idx, i), append(c, f.units[i])
		}
	}
	return idx, c
}

// method is the CI method's note on the controls over the units with
// counts: "control variates (sizes, arrivals; dropped sizes²: constant or
// collinear)", or "control variates dropped (...)" when none is used.
func (f *controlFit) method(counts []float64) string {
	_, c := f.rows(counts)
	kept, dropped := pickControls(c)
	var used []string
	for _, j := range kept {
		used = append(used, f.names[j])
	}
	notes := append([]string(nil), f.notes...)
	for j, why := range dropped {
		if why == "too few units" {
			why = fmt.Sprintf("%d units leave fewer than %d degrees of freedom", len(c), minControlDF)
		}
		if why != "" {
			notes = append(notes, f.names[j]+": "+why)
		}
	}
	why := strings.Join(notes, ", ")
	switch {
	case len(kept) == 0:
		return fmt.Sprintf("control variates dropped (%s)", why)
	case why != "":
		return fmt.Sprintf("control variates (%s; dropped %s)", strings.Join(used, ", "), why)
	}
	return fmt.Sprintf("control variates (%s)", strings.Join(used, ", "))
}
