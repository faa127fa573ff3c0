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

				rep := newSim(&cfgs[tk.cfg], tk.rep).run()

				mu.Lock()
				reps[tk.cfg][tk.rep] = rep
				left[tk.cfg]--
				if left[tk.cfg] == 0 {
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
	return results, nil
}

func policyName(c Config) string {
	if c.Policy == nil {
		return "no policy"
	}
	return c.Policy.String()
}
