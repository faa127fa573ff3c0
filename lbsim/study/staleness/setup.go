package staleness

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfeval/lbsim/lbsim"
)

// Setup is the document's experiment: the model shared by every run (Config: K identical speed-1
// servers with their own queues, Poisson arrivals at per-server load Load, the discipline, the
// run length, replications and seed; Tally if board policies count their own sends since the
// last refresh), run at job sizes of mean 1 at each SCV, with a board of job counts refreshed
// every T in Refresh. Config's Sizes, Policy and Refresh are set per run and ignored here.
type Setup struct {
	lbsim.Config
	SCVs    []float64 // squared coefficients of variation of the sizes, each >= 1
	Refresh []float64 // board refresh periods T > 0, increasing (the staleness grid)
	// StaleReps, when set, is the replications of the staleness sweep (Reps when 0): a sweep
	// read for its curves and crossings can need fewer than the live table compared with the
	// document's numbers. Its rows carry their own intervals.
	StaleReps int
	// StaleJobs, when set, is the measured jobs per replication of the staleness sweep (Jobs
	// when 0), after the same warm-up of Warmup jobs: a sweep read for its curves and
	// crossings can measure fewer jobs, and keeps the start-up transient as well cut as the
	// live table's. Its rows carry their own intervals.
	StaleJobs int64
	// QuotedRefresh are the periods of the grid whose means are compared with quoted numbers:
	// the sweep runs them with Reps and Jobs even when StaleReps and StaleJobs are fewer.
	QuotedRefresh []float64
	// TrapLongReps, when set, is the replications of the Pareto trap's runs longer than every
	// run length in QuotedJobs (the trap's reps when 0): runs read for whether the mean still
	// climbs, which cost the most jobs, need not match the note's replications.
	TrapLongReps int
	// QuotedJobs are the trap run lengths compared with quoted numbers (see QuotedTrapJobs).
	QuotedJobs []int64
}

// Document returns the document's setup at its fidelity: 100 FCFS servers, load 0.9, SCV 1, 4, 10,
// 30, T on TGrid, 12 replications ("seeds") of 2 million jobs. The document does not say how it
// warmed up; we discard 10% of the measured length first, so that the queues start from a typical
// state rather than empty (an empty start biases heavy-tailed means low).
func Document() Setup {
	return Setup{
		Config: lbsim.Config{Servers: 100, Load: 0.9, Discipline: lbsim.FCFS,
			Jobs: 2_000_000, Warmup: 200_000, Reps: 12, Seed: 1},
		SCVs: []float64{1, 4, 10, 30}, Refresh: TGrid(),
	}
}

// TGrid is the staleness grid of the document, log-spaced from 1 to 500 service times in the
// 1-2-5 series, so that T = 10 (the document's quoted points) is on it.
func TGrid() []float64 { return []float64{1, 2, 5, 10, 20, 50, 100, 200, 500} }

// Validate checks the setup before any simulation runs.
func (s Setup) Validate() error {
	if s.Servers < 2 {
		return fmt.Errorf("servers K=%d is invalid: need K >= 2 (best of two samples two servers)", s.Servers)
	}
	if !(s.Load > 0 && s.Load < 1) {
		return fmt.Errorf("load %v is invalid: need 0 < load < 1; the document uses 0.9", s.Load)
	}
	if len(s.SCVs) == 0 {
		return fmt.Errorf("no SCV given: list at least one, e.g. 1, 4, 10, 30")
	}
	for _, c := range s.SCVs {
		if !(c >= 1) || math.IsInf(c, 0) {
			return fmt.Errorf("SCV %v is invalid: need a finite SCV >= 1 (H2 with balanced means; 1 is exponential)", c)
		}
	}
	for i, t := range s.Refresh {
		if !(t > 0) || math.IsInf(t, 0) {
			return fmt.Errorf("refresh period T=%v is invalid: need a finite T > 0 (live boards are the live table)", t)
		}
		if i > 0 && t <= s.Refresh[i-1] {
			return fmt.Errorf("refresh grid %v is not increasing at T=%v: sort it and drop duplicates", s.Refresh, t)
		}
	}
	for _, t := range s.QuotedRefresh {
		if !slices.Contains(s.Refresh, t) {
			return fmt.Errorf("quoted refresh period T=%v is not on the grid %v: add it to the grid or drop it", t, s.Refresh)
		}
	}
	if s.Jobs < 1 {
		return fmt.Errorf("jobs N=%d is invalid: need N >= 1 (the document uses 2000000)", s.Jobs)
	}
	if s.Warmup < 0 {
		return fmt.Errorf("warm-up %d is invalid: need >= 0", s.Warmup)
	}
	if s.Reps < 2 {
		return fmt.Errorf("reps R=%d is invalid: need R >= 2 for a confidence interval (the document uses 12)", s.Reps)
	}
	if s.StaleReps == 1 || s.StaleReps < 0 {
		return fmt.Errorf("staleness sweep reps %d is invalid: need 0 (the live table's %d) or >= 2 for a confidence interval", s.StaleReps, s.Reps)
	}
	if s.StaleJobs < 0 {
		return fmt.Errorf("staleness sweep jobs %d is invalid: need 0 (the live table's %d) or >= 1", s.StaleJobs, s.Jobs)
	}
	return s.checkTrapLongReps()
}

// checkTrapLongReps: TrapLongReps is 0 or at least 2 (Validate, TrapConfigs).
func (s Setup) checkTrapLongReps() error {
	if s.TrapLongReps == 1 || s.TrapLongReps < 0 {
		return fmt.Errorf("trap long-run reps %d is invalid: need 0 (the trap's reps) or >= 2 for a confidence interval", s.TrapLongReps)
	}
	return nil
}

// Sizes is the document's size law at squared coefficient of variation scv and mean 1: H2 with
// balanced means (each phase carries half the work), which at scv = 1 is the exponential law.
func Sizes(scv float64) (lbsim.SizeLaw, error) {
	if scv == 1 {
		return lbsim.Exponential{M: 1}, nil
	}
	h, err := lbsim.NewH2Balanced(1, scv)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// base is the configuration shared by every run of the setup.
func (s Setup) base(sizes lbsim.SizeLaw) lbsim.Config {
	c := s.Config
	c.Sizes, c.Policy, c.Refresh, c.Tally = sizes, nil, 0, false
	return c
}

// LiveConfigs lists every policy at every SCV with a live board (Refresh 0): the live table.
// All share the seed, so policies are compared on the same jobs (common random numbers).
func (s Setup) LiveConfigs() ([]lbsim.Config, error) {
	return s.configs(Dispatchers(), []float64{0})
}

// StaleConfigs lists the board policies at every SCV and every T of the grid: the staleness
// sweep, with StaleReps replications of StaleJobs jobs (Reps of Jobs at the QuotedRefresh
// periods). Policies that read no board do not depend on T and come from LiveConfigs.
func (s Setup) StaleConfigs() ([]lbsim.Config, error) {
	var board []Dispatcher
	for _, p := range Dispatchers() {
		if p.Board {
			board = append(board, p)
		}
	}
	cfgs, err := s.configs(board, s.Refresh)
	for i, c := range cfgs {
		if slices.Contains(s.QuotedRefresh, c.Refresh) {
			continue
		}
		if s.StaleReps > 0 {
			cfgs[i].Reps = s.StaleReps
		}
		if s.StaleJobs > 0 {
			cfgs[i].Jobs = s.StaleJobs
		}
	}
	return cfgs, err
}

func (s Setup) configs(pols []Dispatcher, refresh []float64) ([]lbsim.Config, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var out []lbsim.Config
	for _, scv := range s.SCVs {
		sizes, err := Sizes(scv)
		if err != nil {
			return nil, err
		}
		for _, t := range refresh {
			for _, p := range pols {
				c := s.base(sizes)
				c.Policy = p.Policy
				c.Refresh = t
				c.Tally = s.Tally && t > 0
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("%s at SCV %v, T=%v: %w", p.Name, scv, t, err)
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}
