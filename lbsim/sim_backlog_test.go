package lbsim

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// Issue 25, item 10: the per-job state of JSQ, JSQ-d, JIQ, LWL and PS grows
// with the backlog; an unstable run ends with an error once that state
// reaches its bound, within the memory limit (lowered here, so that the
// bound is reached in a second). JIQ's index holds jobs beyond
// scanServers servers (below, TestFreeScanHoldsNoJobs).
func TestBacklogBounded(t *testing.T) {
	defer lowerMemoryLimit(24 << 20)()
	exp1 := Exponential{M: 1}
	ramp := Ramp{From: 0.5, To: 2, Over: 100}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"jsq", Config{Policy: JSQ{}, Load: 2, AllowOverload: true}},
		{"jsq-2", Config{Policy: JSQ{D: 2}, Load: 2, AllowOverload: true}},
		{"jsq-3", Config{Policy: JSQ{D: 3}, Load: 2, AllowOverload: true}},
		{"jiq", Config{Policy: JIQ{}, Load: 2, AllowOverload: true, Servers: scanServers + 1}},
		{"ps", Config{Policy: Random{}, Discipline: PS, Load: 2, AllowOverload: true}},
		{"jsq-ramp", Config{Policy: JSQ{}, Arrivals: ramp}},
		{"ps-jsq-ramp", Config{Policy: JSQ{}, Discipline: PS, Arrivals: ramp}},
		{"srpt", Config{Policy: Random{}, Discipline: SRPT, Load: 2, AllowOverload: true}},
		{"srpt-jsq-ramp", Config{Policy: JSQ{}, Discipline: SRPT, Arrivals: ramp}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Servers, cfg.Sizes, cfg.Jobs, cfg.Workers = max(cfg.Servers, 10), exp1, 40_000_000, 1
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
func TestBacklogShared(t *testing.T) {
	defer lowerMemoryLimit(96 << 20)()
	var cfgs []Config
	for _, p := range []Policy{JSQ{}, JIQ{}} {
		cfgs = append(cfgs, Config{Policy: p, Load: 2, AllowOverload: true, Servers: 10, Sizes: Exponential{M: 1}, Jobs: 40_000_000, Workers: 2})
	}
	// What earlier tests left charged (a test that runs a sim by hand does
	// not return its charge) is not these runs'.
	base := heldAll.Load()
	peak := int64(0)
	stop, stopped := make(chan bool), make(chan bool)
	go func() { // sample the shared account while both run
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			default:
				peak = max(peak, heldAll.Load()-base)
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
	if n := heldAll.Load() - base; n != 0 {
		t.Errorf("after the runs %d bytes are still charged to the shared account", n)
	}
}

// The bound leaves room for the backlogs of stable systems: at load 0.99
// with heavy-tailed sizes 10^5 jobs in the system are normal. Counted in
// jobs in buffers twice their size: over 2 10^5 for each of 64
// replications at once, over 10^7 for one.
func TestBacklogRoom(t *testing.T) {
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
		{Config{Policy: Random{}, Discipline: SRPT, Workers: 64, Reps: 64}, 200_000},
		{Config{Policy: JSQ{}, Discipline: SRPT}, 10_000_000},
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

// lowerMemoryLimit sets the memory limit to b bytes until the returned
// function restores it.
func lowerMemoryLimit(b int64) func() {
	old := memoryLimit
	memoryLimit = b
	return func() { memoryLimit = old }
}

// The backlog's error counts the jobs where they are held, and names the
// structure: JIQ's I-queues keep an index entry a job sent, which the
// error counted as 0 jobs (about 1.0 GiB). And perJobBytes, the estimate
// the backlog's reserve is sized by, is what a job really holds: at the
// bound, the jobs counted times perJobBytes are between a fifth of the
// limit and all of it (each entry is charged once or twice, in a buffer up
// to twice its length: a quarter at worst). JSQ on live counts with M
// dispatchers keeps an index each (M entries a job), which perJobBytes
// counted once: a reserve M times too small.
func TestBacklogNamesItsHolder(t *testing.T) {
	defer lowerMemoryLimit(96 << 20)()
	for _, c := range []struct {
		cfg  Config
		what string
	}{
		{Config{Policy: JIQ{}, Dispatchers: 4, Servers: 4}, "in JIQ's index of busy servers"},
		{Config{Policy: JIQ{}, Servers: scanServers + 1}, "in the index of busy servers"},
		{Config{Policy: JSQ{}, Dispatchers: 4, Servers: 8}, "in JSQ's index of departures"},
		{Config{Policy: LSQ{}, Dispatchers: 4, Servers: 8}, "in LSQ's index of departures"},
		{Config{Policy: Random{}, Discipline: PS, Servers: 1}, "in the PS queues"},
		{Config{Policy: Random{}, Discipline: SRPT, Servers: 1}, "in the SRPT queues"},
	} {
		cfg := c.cfg
		cfg.Load, cfg.AllowOverload, cfg.Sizes, cfg.Jobs, cfg.Workers = 5, true, Exponential{M: 1}, 40_000_000, 1
		_, err := Run(cfg)
		var n int64
		if err != nil {
			fmt.Sscanf(err.Error()[strings.Index(err.Error(), "reached")+len("reached "):], "%d", &n)
		}
		// The limit's room in 16- to 48-byte entries, each charged twice: 300,000 or more
		// (JSQ: M entries a job).
		if err == nil || n < 300_000/int64(cfg.dispatchers()) || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%s, M=%d: %v; want %d jobs or more %s", cfg.Policy, cfg.dispatchers(), err, 300_000/cfg.dispatchers(), c.what)
			continue
		}
		if est, limit := n*cfg.perJobBytes(), cfg.backlogLimit(); est < limit/5 || est > limit {
			t.Errorf("%s, M=%d: %d jobs at the bound of %d bytes, %d bytes a job estimated (perJobBytes): %d in all, want between %d and %d",
				cfg.Policy, cfg.dispatchers(), n, limit, cfg.perJobBytes(), est, limit/5, limit)
		}
	}
}

// An overloaded PS server stays under the memory limit by its peak RSS
// (Linux: VmHWM), with the runtime's soft limit set as the command does
// (RuntimeMemoryLimit):
// its queue, a slice grown by copies, was charged its capacity alone, and
// the copy it was grown from (and the collector's slack) took the process
// to 2.82 GiB at the 2.0 GiB limit. The run is a child process of its own
// (this test binary again), so that the peak is this run's alone, not the
// garbage or goroutines other tests left in the process; the child's whole
// peak, runtime included, must stay under the limit.
func TestBacklogPeakRSS(t *testing.T) {
	const limit = 512 << 20
	if os.Getenv(backlogRSSChild) == "1" {
		defer lowerMemoryLimit(limit)()
		debug.SetMemoryLimit(softLimit(limit))
		cfg := Config{Policy: Random{}, Discipline: PS, Servers: 1, Load: 5, AllowOverload: true, Sizes: Exponential{M: 1}, Jobs: 1e9, Workers: 1}
		if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "the backlog reached") {
			t.Fatalf("err = %v, want the backlog's bound", err)
		}
		fmt.Printf("peak=%d\n", procStatus(t, "VmHWM"))
		return
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no peak RSS here:", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBacklogPeakRSS$", "-test.count=1")
	cmd.Env = append(os.Environ(), backlogRSSChild+"=1")
	out, err := cmd.CombinedOutput()
	var peak int64
	if i := strings.Index(string(out), "peak="); err != nil || i < 0 {
		t.Fatalf("child run: %v\n%s", err, out)
	} else {
		fmt.Sscanf(string(out[i+len("peak="):]), "%d", &peak)
	}
	if peak > limit {
		t.Errorf("PS overload: peak RSS %.0f MiB, over the %d MiB limit", float64(peak)/(1<<20), limit>>20)
	} else {
		t.Logf("PS overload: peak RSS %.0f MiB (limit %d MiB)", float64(peak)/(1<<20), limit>>20)
	}
}

// backlogRSSChild marks the child process of TestBacklogPeakRSS.
const backlogRSSChild = "LBSIM_TEST_BACKLOG_RSS_CHILD"

// procStatus is a /proc/self/status field in bytes.
func procStatus(t *testing.T, field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb << 10
		}
	}
	t.Skipf("no %s in /proc/self/status", field)
	return 0
}
