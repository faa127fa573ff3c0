package lbsim

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Run simulates one configuration: Reps independent replications, in
// parallel on Workers cores, aggregated in replication order so that the
// result does not depend on scheduling.
func Run(cfg Config) (Result, error) {
	res, err := RunAll([]Config{cfg}, nil)
	if err != nil {
		return Result{}, err
	}
	return res[0], nil
}

// RunAll simulates several configurations, spreading all their replications
// over the cores; progress (may be nil) is called after each configuration
// completes with the number done and the total.
func RunAll(cfgs []Config, progress func(done, total int)) ([]Result, error) {
	for i := range cfgs {
		if err := cfgs[i].Validate(); err != nil {
			if len(cfgs) == 1 {
				return nil, err
			}
			return nil, fmt.Errorf("configuration %d (%s, load %v): %w", i+1, policyName(cfgs[i]), cfgs[i].Load, err)
		}
	}
	type task struct{ cfg, rep int }
	var tasks []task
	for i := range cfgs {
		for r := range cfgs[i].reps() {
			tasks = append(tasks, task{i, r})
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if len(cfgs) > 0 && cfgs[0].Workers > 0 {
		workers = cfgs[0].Workers
	}
	workers = max(1, min(workers, len(tasks)))

	results := make([]Result, len(cfgs))
	reps := make([][]replication, len(cfgs))
	left := make([]int, len(cfgs))
	started := make([]time.Time, len(cfgs))
	for i := range cfgs {
		reps[i] = make([]replication, cfgs[i].reps())
		left[i] = cfgs[i].reps()
	}
	var mu sync.Mutex
	var errs []error // per configuration: the first replication that failed
	done := 0
	next := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(tasks) {
					mu.Unlock()
					return
				}
				tk := tasks[next]
				next++
				if tk.rep == 0 {
					started[tk.cfg] = time.Now()
				}
				mu.Unlock()

				rep, err := runReplication(&cfgs[tk.cfg], tk.rep)

				mu.Lock()
				if err != nil && errs == nil {
					errs = make([]error, len(cfgs))
				}
				if err != nil && errs[tk.cfg] == nil {
					errs[tk.cfg] = err
				}
				reps[tk.cfg][tk.rep] = rep
				left[tk.cfg]--
				if left[tk.cfg] == 0 && (errs == nil || errs[tk.cfg] == nil) {
					results[tk.cfg] = aggregate(&cfgs[tk.cfg], reps[tk.cfg])
					results[tk.cfg].Seconds = time.Since(started[tk.cfg]).Seconds()
					reps[tk.cfg] = nil // free the histograms
					done++
					if progress != nil {
						progress(done, len(cfgs))
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			if len(cfgs) == 1 {
				return nil, err
			}
			return nil, fmt.Errorf("configuration %d (%s, load %v): %w", i+1, policyName(cfgs[i]), cfgs[i].Load, err)
		}
	}
	return results, nil
}

// runReplication simulates replication rep of cfg. A policy's mistake (a
// server out of range, a panic in its Pick method) stops the replication
// with an error instead of the program.
func runReplication(cfg *Config, rep int) (out replication, err error) {
	defer func() {
		if v := recover(); v != nil {
			if pe, ok := v.(policyError); ok {
				err = pe.err
				return
			}
			err = fmt.Errorf("replication %d stopped by a panic (in policy %s or lbsim itself): %v", rep, policyName(*cfg), v)
		}
	}()
	return newSim(cfg, rep).run(), nil
}

func policyName(c Config) string {
	if c.Policy == nil {
		return "no policy"
	}
	return c.Policy.String()
}
