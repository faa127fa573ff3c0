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
// with the number done and the total. Configurations with a Precision target
// run after the others, one at a time, each round in parallel.
func RunAll(cfgs []Config, progress func(done, total int)) ([]Result, error) {
	results := make([]Result, len(cfgs))
	err := RunEach(cfgs, progress, func(i int, r Result) error {
		results[i] = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// RunEach is RunAll that hands each result to emit, in configuration order,
// as soon as it and all before it are done, and then forgets it: a sweep
// holds only the results that finished ahead of an earlier one. An error
// from emit stops the run (no further replication starts) and is returned.
func RunEach(cfgs []Config, progress func(done, total int), emit func(i int, r Result) error) error {
	for i := range cfgs {
		if err := cfgs[i].Validate(); err != nil {
			if len(cfgs) == 1 {
				return err
			}
			return fmt.Errorf("configuration %d (%s): %w", i+1, cfgs[i], err)
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if len(cfgs) > 0 {
		workers = cfgs[0].poolWorkers()
	}
	results := make([]Result, len(cfgs))
	errs := make([]error, len(cfgs))
	ready := make([]bool, len(cfgs))
	var mu sync.Mutex
	var emitErr error
	done, next := 0, 0
	finished := func(i int) { // called with mu held
		done++
		ready[i] = true
		if progress != nil {
			progress(done, len(cfgs))
		}
		for ; emitErr == nil && next < len(cfgs) && ready[next]; next++ {
			if errs[next] != nil {
				emitErr = errs[next]
				if len(cfgs) > 1 {
					emitErr = fmt.Errorf("configuration %d (%s): %w", next+1, cfgs[next], emitErr)
				}
				break
			}
			emitErr = emit(next, results[next])
			results[next] = Result{} // emitted: free it
		}
	}

	// Fixed-length configurations: all their replications share one pool;
	// a configuration is aggregated as soon as its last replication ends.
	type task struct{ cfg, rep int }
	var tasks []task
	reps := make([][]replication, len(cfgs))
	left := make([]int, len(cfgs))
	started := make([]time.Time, len(cfgs))
	for i := range cfgs {
		if cfgs[i].Precision > 0 {
			continue
		}
		reps[i], left[i] = make([]replication, cfgs[i].reps()), cfgs[i].reps()
		for r := range cfgs[i].reps() {
			tasks = append(tasks, task{i, r})
		}
	}
	forEach(len(tasks), workers, func(j int) {
		tk := tasks[j]
		mu.Lock()
		if emitErr != nil { // stopped: start nothing more
			mu.Unlock()
			return
		}
		if tk.rep == 0 {
			started[tk.cfg] = time.Now()
		}
		mu.Unlock()
		rep, err := runReplication(&cfgs[tk.cfg], tk.rep)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && errs[tk.cfg] == nil {
			errs[tk.cfg] = err
		}
		reps[tk.cfg][tk.rep] = rep
		if left[tk.cfg]--; left[tk.cfg] == 0 {
			if errs[tk.cfg] == nil {
				results[tk.cfg] = aggregate(&cfgs[tk.cfg], reps[tk.cfg])
				results[tk.cfg].Seconds = time.Since(started[tk.cfg]).Seconds()
			}
			reps[tk.cfg] = nil // free the histograms
			finished(tk.cfg)
		}
	})
	for i := range cfgs {
		if cfgs[i].Precision > 0 && emitErr == nil {
			res, err := runPrecise(&cfgs[i], workers, nil)
			mu.Lock()
			results[i], errs[i] = res, err
			finished(i)
			mu.Unlock()
		}
	}
	return emitErr
}

// poolWorkers is the number of goroutines replications run on.
func (c *Config) poolWorkers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// forEach calls f(0), ..., f(n-1) on up to workers goroutines.
func forEach(n, workers int, f func(i int)) {
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// runReps runs replications from..to-1 of cfg in parallel, in order.
func runReps(cfg *Config, from, to, workers int) ([]replication, error) {
	out := make([]replication, to-from)
	errs := make([]error, to-from)
	forEach(to-from, workers, func(i int) { out[i], errs[i] = runReplication(cfg, from+i) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// runReplication simulates replication rep of cfg (with an automatic
// warm-up, a pilot run chooses it by MSER and the replication runs again
// with it). A policy's mistake (a server out of range, a panic in its Pick,
// a change of its own value: policyKept) is an error, not a crash.
func runReplication(cfg *Config, rep int) (out replication, err error) {
	var s *sim
	defer func() {
		if s != nil {
			s.srv.held.done()
		}
		if v := recover(); v != nil {
			switch e := v.(type) {
			case policyError:
				err = e.err
				return
			case backlogFull:
				n, what := s.heldJobs()
				err = cfg.backlogError(e.bytes, n, what)
				return
			}
			err = fmt.Errorf("replication %d stopped by a panic (in policy %s or lbsim itself): %v", rep, policyName(*cfg), v)
		}
	}()
	s = newSim(cfg, rep)
	out = s.run()
	if err := policyKept(s.policy, s.policyHash); err != nil {
		return out, err
	}
	if replicated != nil {
		replicated() // the replication's state and its output both live
	}
	if cfg.WarmupAuto {
		if cut := mserWarmup(cfg, out); cut > 0 {
			c := *cfg
			c.WarmupAuto, c.Warmup, c.Jobs = false, cut, cfg.jobs()-cut
			pilot := out.simulated
			s.srv.held.done()
			s = newSim(&c, rep)
			out = s.run()
			out.simulated += pilot
		}
	}
	return out, nil
}

// replicated, set by TestMemoryEstimateBoundsHeap, is called at the end of
// every replication, while it holds the most it ever holds at once.
var replicated func()

func policyName(c Config) string {
	if c.Policy == nil {
		return "no policy"
	}
	return c.Policy.String()
}
