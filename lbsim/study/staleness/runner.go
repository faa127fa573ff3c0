package staleness

import (
	"math"
	"time"

	"github.com/perfeval/lbsim/lbsim"
)

// Timed is the rows of a set of runs and the wall-clock seconds they took when computed (a
// cached result keeps the time of the run that made it, so a report states its real cost).
type Timed struct {
	Rows    []lbsim.Row
	Seconds float64
}

// Runner runs configurations. In a notebook, Run is nb.RunAll (progress bar, row cache) and
// Cache is nb.Cached[Timed]; zero fields run directly with lbsim.RunAll, without a cache.
type Runner struct {
	Run   func(label string, cfgs []lbsim.Config) ([]lbsim.Row, error)
	Cache func(key any, compute func() (Timed, error)) (Timed, error)
}

// Timed runs cfgs and measures the wall time, cached under the label and every config's key.
func (r Runner) Timed(label string, cfgs []lbsim.Config) (Timed, error) {
	compute := func() (Timed, error) {
		start := time.Now()
		rows, err := r.run(label, cfgs)
		return Timed{Rows: rows, Seconds: time.Since(start).Seconds()}, err
	}
	if r.Cache == nil {
		return compute()
	}
	key := []string{"staleness.Timed", label}
	for _, c := range cfgs {
		key = append(key, c.Key())
	}
	return r.Cache(key, compute)
}

func (r Runner) run(label string, cfgs []lbsim.Config) ([]lbsim.Row, error) {
	if r.Run != nil {
		return r.Run(label, cfgs)
	}
	res, err := lbsim.RunAll(cfgs, nil)
	return lbsim.Rows(res), err
}

// Live runs the live-board table of the setup.
func (s Setup) Live(r Runner) (Timed, error) {
	cfgs, err := s.LiveConfigs()
	if err != nil {
		return Timed{}, err
	}
	return r.Timed("live board, "+s.Discipline.String(), cfgs)
}

// Stale runs the staleness sweep of the setup (with the tally if s.Tally).
func (s Setup) Stale(r Runner) (Timed, error) {
	cfgs, err := s.StaleConfigs()
	if err != nil {
		return Timed{}, err
	}
	label := "staleness sweep, " + s.Discipline.String()
	if s.Tally {
		label += ", tally"
	}
	return r.Timed(label, cfgs)
}

// Trap runs the Pareto trap (TrapLaws at every run length, reps replications) and tabulates it.
// Lengths are run lengths N in jobs (floats so that notebook parameters like 1e6 read naturally).
func (s Setup) Trap(r Runner, lengths []float64, reps int) ([]TrapRow, Timed, error) {
	ns := make([]int64, len(lengths))
	for i, x := range lengths {
		ns[i] = int64(math.Round(x))
	}
	laws, err := TrapLaws()
	if err != nil {
		return nil, Timed{}, err
	}
	cfgs, err := s.TrapConfigs(laws, ns, reps)
	if err != nil {
		return nil, Timed{}, err
	}
	t, err := r.Timed("Pareto trap", cfgs)
	if err != nil {
		return nil, t, err
	}
	rows, err := s.TrapTable(laws, ns, t.Rows)
	return rows, t, err
}

// Evidence runs (or reads from the cache) the live table and the staleness sweep without tally,
// finds the crossings, and bundles them with the trap rows for Compare.
func (s Setup) Evidence(r Runner, trap []TrapRow) (Evidence, error) {
	s.Tally = false
	live, err := s.Live(r)
	if err != nil {
		return Evidence{}, err
	}
	stale, err := s.Stale(r)
	if err != nil {
		return Evidence{}, err
	}
	res := NewResults(live.Rows, stale.Rows)
	return Evidence{Setup: s, Results: res, Crossings: s.Crossings(res), Trap: trap}, nil
}
