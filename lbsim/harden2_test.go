package lbsim

import (
	"runtime"
	rtmetrics "runtime/metrics"
	"strings"
	"testing"
)

// Issue 25, item 10: the per-job state of JSQ, JSQ-d, JIQ, LWL and PS grows
// with the backlog; an unstable run ends with an error once that state
// reaches its bound, within the memory limit (lowered here, so that the
// bound is reached in a second).
func TestHarden2_BacklogBounded(t *testing.T) {
	defer lowerMemoryLimit(96 << 20)()
	exp1 := Exponential{M: 1}
	ramp := Ramp{From: 0.5, To: 2, Over: 100}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"jsq", Config{Policy: JSQ{}, Load: 2, AllowOverload: true}},
		{"jsq-2", Config{Policy: JSQ{D: 2}, Load: 2, AllowOverload: true}},
		{"jsq-3", Config{Policy: JSQ{D: 3}, Load: 2, AllowOverload: true}},
		{"jiq", Config{Policy: JIQ{}, Load: 2, AllowOverload: true}},
		{"ps", Config{Policy: Random{}, Discipline: PS, Load: 2, AllowOverload: true}},
		{"jsq-ramp", Config{Policy: JSQ{}, Arrivals: ramp}},
		{"ps-jsq-ramp", Config{Policy: JSQ{}, Discipline: PS, Arrivals: ramp}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Servers, cfg.Sizes, cfg.Jobs, cfg.Workers = 10, exp1, 40_000_000, 1
			_, err := Run(cfg)
			if err == nil || !strings.Contains(err.Error(), "the backlog reached") || !strings.Contains(err.Error(), "unstable at this load") {
				t.Fatalf("err = %v, want the backlog's bound", err)
			}
		})
	}
}

// The bound is on all replications running at once: a sweep runs several
// configurations' replications side by side, each of which alone is
// within its estimate (two overloaded configurations on two workers here).
func TestHarden2_BacklogShared(t *testing.T) {
	defer lowerMemoryLimit(96 << 20)()
	var cfgs []Config
	for _, p := range []Policy{JSQ{}, JIQ{}} {
		cfgs = append(cfgs, Config{Policy: p, Load: 2, AllowOverload: true, Servers: 10, Sizes: Exponential{M: 1}, Jobs: 40_000_000, Workers: 2})
	}
	peak := int64(0)
	stop, stopped := make(chan bool), make(chan bool)
	go func() { // sample the shared account while both run
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			default:
				peak = max(peak, heldAll.Load())
				runtime.Gosched()
			}
		}
	}()
	_, err := RunAll(cfgs, nil)
	close(stop)
	<-stopped
	if err == nil || !strings.Contains(err.Error(), "the backlog reached") {
		t.Fatalf("err = %v, want the backlog's bound", err)
	}
	if limit := cfgs[0].backlogLimit(); peak > limit+limit/4 {
		t.Errorf("the replications held %d bytes at once, over the limit %d", peak, limit)
	}
	if n := heldAll.Load(); n != 0 {
		t.Errorf("after the runs %d bytes are still charged to the shared account", n)
	}
}

// The bound leaves room for the backlogs of stable systems: at load 0.99
// with heavy-tailed sizes 10^5 jobs in the system are normal. Counted in
// jobs in buffers twice their size: over 2 10^5 for each of 64
// replications at once, over 10^7 for one.
func TestHarden2_BacklogRoom(t *testing.T) {
	pareto := Pareto{Alpha: 1.5, L: 1, H: 1e6}
	for _, c := range []struct {
		cfg  Config
		want int64
	}{
		{Config{Policy: JSQ{}, Workers: 64, Reps: 64}, 200_000},
		{Config{Policy: Random{}, Discipline: PS, Workers: 64, Reps: 64}, 200_000},
		{Config{Policy: JSQ{D: 2}, Refresh: 1, Workers: 64, Reps: 64}, 200_000},
		{Config{Policy: JSQ{}}, 10_000_000},
		{Config{Policy: JSQ{}, Discipline: PS}, 10_000_000},
	} {
		cfg := c.cfg
		cfg.Servers, cfg.Load, cfg.Sizes, cfg.Jobs = 1000, 0.99, pareto, 1e8
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		if n := cfg.backlogLimit() / int64(cfg.parallel()) / (2 * cfg.perJobBytes()); n < c.want {
			t.Errorf("%s %s with %d replications at once: room for %d jobs, want %d", cfg.Policy, cfg.Discipline, cfg.parallel(), n, c.want)
		}
	}
}

// Item 11: with replacement d is refused beyond what sampling every server
// already gives, and the draws need no buffer of d servers.
func TestHarden2_SampleSizeBounded(t *testing.T) {
	for _, p := range []Policy{LeastLoaded{D: 1 << 30, Replace: true}, LeastLoaded{D: 10_000_000, Replace: true}, JSQ{D: 10_000_000, Replace: true}, JSQ{D: 3201, Replace: true, Mem: 1}} {
		cfg := Config{Servers: 50, Load: 0.5, Sizes: Exponential{M: 1}, Policy: p, Jobs: 2}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), "need 1 <= d <= 3200") {
			t.Errorf("%s: err = %v, want d bounded by 64 K", p, err)
		}
	}
	for _, p := range []Policy{LeastLoaded{D: 3200, Replace: true}, JSQ{D: 3200, Replace: true}, JSQ{D: 3200, Replace: true, Mem: 2}} {
		cfg := Config{Servers: 50, Load: 0.5, Sizes: Exponential{M: 1}, Policy: p, Jobs: 1000}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := newSim(&cfg, 0)
		s.run()
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 200_000 {
			t.Errorf("%s: a run of 1000 jobs allocated %d bytes, want no buffer of d servers", p, n)
		}
	}
	// The draws streamed are the numbers drawn into a buffer: Pick (View.Sample) agrees.
	cfg := Config{Servers: 5, Load: 0.7, Sizes: Exponential{M: 1}, Policy: LeastLoaded{D: 7, Replace: true}, Jobs: 20000, Seed: 3}
	want, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policy = viaPick{LeastLoaded{D: 7, Replace: true}}
	got, err := Run(cfg)
	if err != nil || got.Wait != want.Wait {
		t.Errorf("through Pick: %v %v, want %v", got.Wait, err, want.Wait)
	}
}

// viaPick hides a built-in policy's dispatcher: the run calls its Pick.
type viaPick struct{ LeastLoaded }

// Item 14: the memory estimate is an upper bound of the live heap a run
// reaches, measured, for many replications, many servers, JSQ, PS and a
// trace. The live heap is measured where a replication holds the most, at
// its end with its state and output both held, and after the results are
// combined, by a forced collection with no other goroutine allocating (one
// worker): exactly what is reachable, whatever the machine's load. (A
// collection that runs beside the simulation counts what it allocates
// meanwhile as live, and a sample of the heap in use counts the garbage a
// busy machine has not yet collected: both failed on a loaded machine.)
func TestHarden2_MemoryEstimateBoundsHeap(t *testing.T) {
	exp1 := Exponential{M: 1}
	n := 1_000_000
	tr := &Trace{}
	for i := range n {
		tr.Times = append(tr.Times, float64(i)/20)
		tr.Sizes = append(tr.Sizes, 1+float64(i%7))
	}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"reps", Config{Servers: 2000, Reps: 2000, Jobs: 10, Policy: Random{}}},
		{"servers", Config{Servers: 1_000_000, Jobs: 10, Policy: LeastLoaded{D: 2}}},
		{"jsq", Config{Servers: 200_000, Jobs: 200_000, Policy: JSQ{}, SampleEvery: 1}},
		{"jsq-2-board", Config{Servers: 200_000, Jobs: 200_000, Policy: JSQ{D: 2}, Refresh: 1}},
		{"ps", Config{Servers: 200_000, Jobs: 200_000, Policy: JSQ{}, Discipline: PS}},
		{"lwl-reps", Config{Servers: 20_000, Jobs: 10_000, Policy: LeastLoaded{}, Reps: 100}},
		{"trace", Config{Servers: 100, Trace: tr, Policy: JSQ{D: 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Workers = 1
			if cfg.Trace == nil {
				cfg.Load, cfg.Sizes = 0.9, exp1
			}
			est := cfg.memoryEstimate()
			base := liveHeap()
			var peak int64
			replicated = func() { peak = max(peak, liveHeap()-base) }
			defer func() { replicated = nil }()
			res, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			peak = max(peak, liveHeap()-base)
			runtime.KeepAlive(res)
			if cfg.Trace != nil {
				peak += int64(16 * n) // the trace itself, allocated before
			}
			t.Logf("%s: peak live heap %s, estimate %s", c.name, bytesText(peak), bytesText(est))
			if peak > est {
				t.Errorf("peak live heap %d bytes is above the estimate %d", peak, est)
			}
		})
	}
}

// liveHeap is the bytes a forced collection marks live.
func liveHeap() int64 {
	runtime.GC()
	sample := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}
	rtmetrics.Read(sample)
	return int64(sample[0].Value.Uint64())
}

// Item 16: a budget is checked against the first round, -max-jobs and
// -max-seconds need a precision target, and a zero mean says why no
// relative precision exists.
func TestHarden2_PrecisionBudget(t *testing.T) {
	base := Config{Servers: 50, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 10}
	for _, c := range []struct {
		f    func(*Config)
		want string
	}{
		{func(c *Config) { c.Precision, c.MaxJobs = 0.01, 5 }, "max-jobs=5 is smaller than the first round"},
		{func(c *Config) { c.MaxJobs = 5 }, "max-jobs=5 has no effect without a precision target"},
		{func(c *Config) { c.MaxSeconds = 5 }, "max-seconds=5 has no effect without a precision target"},
	} {
		cfg := base
		c.f(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	cfg := Config{Servers: 100, Load: 0.001, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 10, Precision: 0.01}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	msg := r.Warnings.String()
	if !strings.Contains(msg, "the mean wait is 0") || strings.Contains(msg, "NaN") || strings.Contains(msg, "-max-jobs") {
		t.Errorf("warnings %q, want the zero mean named", msg)
	}
}

// The progress of a precision run: one report a round, with the projected
// total and the budget.
func TestHarden2_PrecisionProgress(t *testing.T) {
	cfg := Config{Servers: 10, Load: 0.8, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 1000, Precision: 0.001, MaxJobs: 200_000, Workers: 1}
	var got []PrecisionProgress
	r, err := RunWithProgress(cfg, func(p PrecisionProgress) { got = append(got, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[0].Jobs != 4000 || got[len(got)-1].Jobs != r.TotalJobs {
		t.Fatalf("progress %+v, total %d", got, r.TotalJobs)
	}
	p := got[0]
	if !(p.Projected > p.Budget && p.Budget == 200_000 && p.HalfWidth > 0.001) {
		t.Errorf("first report %+v: want a projection over the budget", p)
	}
	if s := p.String(); !strings.Contains(s, "precision 0.001: 4000 jobs so far") || !strings.Contains(s, "over -max-jobs 200000") {
		t.Errorf("report %q", s)
	}
}

// Item 24: no negative mean wait under PS, a true label for the batch
// means, no "± NaN" and a load < 1 never printed as 1.
func TestHarden2_ImpossibleValues(t *testing.T) {
	ps := Config{Servers: 1000, Load: 0.0001, Sizes: Deterministic{X0: 3}, Policy: Random{}, Discipline: PS, Jobs: 1000, Seed: 1}
	r, err := Run(ps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Wait.Mean < 0 || r.Response.Mean < 3 {
		t.Errorf("PS alone: wait %v, response %v: never below 0 and the size", r.Wait, r.Response)
	}
	few := Config{Servers: 50, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 19, Seed: 1}
	if r, _ := Run(few); r.CIMethod != "19 batch means" {
		t.Errorf("19 jobs: CI method %q, want 19 batch means", r.CIMethod)
	}
	few.Jobs = 1
	r, _ = Run(few)
	if s := r.String(); strings.Contains(s, "NaN") || !strings.Contains(s, "no 95% CI from 1 batch mean") {
		t.Errorf("one job:\n%s", s)
	}
	near := Config{Servers: 50, Load: 0.9999999999999999, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 10}
	r, _ = Run(near)
	if s := r.String(); !strings.Contains(s, "load 0.9999999999999999,") {
		t.Errorf("load printed as:\n%s", s)
	}
}

// lowerMemoryLimit sets the memory limit to b bytes until the returned
// function restores it.
func lowerMemoryLimit(b int64) func() {
	old := memoryLimit
	memoryLimit = b
	return func() { memoryLimit = old }
}

// Item 24, the other side of "0 ± NaN": a mean shown without an interval,
// or with one of width 0, is not shown without a word when the run is far
// too short (1 or 2 jobs of a queue that relaxes in 80); it is when the
// system truly has no waiting (deterministic arrivals and sizes under
// round robin: every wait is 0, the interval's width 0 is right).
func TestHarden2_NoIntervalWarns(t *testing.T) {
	for _, c := range []struct {
		jobs  int64
		rules []string
	}{{1, []string{RuleInitialTransient}}, {2, []string{RuleInitialTransient, RuleExactOutside}}} {
		cfg := Config{Servers: 4, Load: 0.5, Sizes: NewTwoPointBeta(1, 1000, 0.8), Policy: Random{}, Jobs: c.jobs, Seed: 1}
		r, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range c.rules {
			if !r.Warnings.Has(rule) {
				t.Errorf("%d jobs: mean wait %v ± %v without %s (warnings %v)", c.jobs, r.Wait.Mean, r.Wait.CI95, rule, r.Warnings)
			}
		}
	}
	cfg := Config{Servers: 2, Load: 0.5, Sizes: Deterministic{X0: 1}, Arrivals: DeterministicArrivals{}, Policy: RoundRobin{}, Jobs: 1000, Seed: 1}
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Wait.Mean != 0 || r.Wait.CI95 != 0 || r.Warnings.Has(RuleInitialTransient) || r.Warnings.Has(RuleExactOutside) {
		t.Errorf("D/D round robin: wait %v ± %v, warnings %v; want 0 ± 0 without a warning", r.Wait.Mean, r.Wait.CI95, r.Warnings)
	}
}

// splitting a long list is linear: twice the pieces allocate about twice the
// bytes (the old += joined each piece onto a growing string: four times).
// Counting bytes is deterministic where a deadline would not be (item 15).
func TestHarden2_SplitListLinear(t *testing.T) {
	bytesFor := func(n int) uint64 {
		s := "modal:" + strings.Repeat("1,", n) + "1"
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		got := splitList(s)
		runtime.ReadMemStats(&b)
		if len(got) != 1 || len(got[0]) != len(s) {
			t.Fatalf("splitList of modal with %d values: %d pieces", n, len(got))
		}
		return b.TotalAlloc - a.TotalAlloc
	}
	small, large := bytesFor(100_000), bytesFor(200_000)
	if ratio := float64(large) / float64(small); ratio > 3 {
		t.Errorf("splitList: %d bytes for 100,000 values, %d for 200,000 (x%.1f): quadratic", small, large, ratio)
	}
	// 1 MB of policies splits into its 250,000 specs.
	if got := splitList(strings.Repeat("rnd,", 250_000) + "rnd"); len(got) != 250_001 {
		t.Errorf("1 MB policy list: %d specs, want 250001", len(got))
	}
}
