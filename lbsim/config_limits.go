package lbsim

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Limits on what one run may ask for. Each exists so that a hostile or
// mistyped input ends in an error that names it, never in a panic, a hang,
// an out-of-memory crash or a silent NaN.
const (
	// MinMagnitude and MaxMagnitude bound every scale parameter (sizes,
	// speeds, loads, refresh and sampling periods, ramp durations): within
	// [1e-100, 1e100] a product or square of two of them, and a sum of 2^53
	// of those, stays a finite, normal float64.
	MinMagnitude = 1e-100
	MaxMagnitude = 1e100
	// maxHorizon bounds the expected simulated time (Warmup+Jobs)/lambda, so
	// that arrival times, with room for the last gaps' tail, stay finite.
	maxHorizon = 1e250
	maxJobs    = 1 << 53    // bounds Jobs+Warmup: float64 counts are exact up to 2^53
	maxServers = 10_000_000 // bounds K: job counts and indices are int32
	maxReps    = 10_000     // each replication keeps its histogram until aggregated
	maxBatches = 100_000    // batch means of one replication
	maxSamples = 10_000_000 // points of the time series (SampleEvery)
	// MaxMemory is the most memory (bytes) a configuration may need, by
	// Validate's upper estimate before anything is allocated (memoryEstimate).
	MaxMemory = 2 << 30
	// RuntimeMemoryLimit is the soft memory limit a program running lbsim
	// gives Go's runtime (debug.SetMemoryLimit, as the lbsim command does):
	// 7/8 of MaxMemory (softLimit). The eighth left covers the collector's
	// and the scavenger's lag: freed buffers not yet returned to the system.
	RuntimeMemoryLimit = MaxMemory - MaxMemory/8
)

// softLimit is RuntimeMemoryLimit for a memory limit of max bytes.
func softLimit(max int64) int64 { return max - max/8 }

// memoryLimit is MaxMemory; tests lower it.
var memoryLimit int64 = MaxMemory

// checkBounds rejects counts whose memory or arithmetic cannot be honoured,
// before anything of size K is allocated.
func (c *Config) checkBounds() error {
	if c.Reps > maxReps {
		return fmt.Errorf("reps R=%d is too large: need 1 <= R <= %d (each replication's histogram is kept until the results are combined); run longer replications instead, e.g. -jobs x10 and -reps /10", c.Reps, maxReps)
	}
	if c.Jobs > maxJobs || c.Warmup > maxJobs || c.Jobs+c.Warmup > maxJobs {
		return fmt.Errorf("jobs N=%d with warm-up %d is too large: need N + warm-up <= 2^53 = %d (job counts are exact in float64 only up to 2^53); use fewer jobs and more replications", c.Jobs, c.Warmup, int64(maxJobs))
	}
	if n := c.jobs(); n >= 1 && c.Batches > 0 && c.reps() == 1 && int64(c.Batches) > n {
		return fmt.Errorf("batches=%d exceeds the %d measured jobs: every batch needs at least one job; use -batches %d or fewer, or more jobs", c.Batches, n, max(n, 2))
	}
	if need := c.memoryEstimate(); need > memoryLimit {
		return c.memoryError(need)
	}
	return nil
}

// Memory, in bytes: a histogram; per server and running replication the
// state the heaviest policy keeps (speeds, free times, busy time, a
// departure FIFO or PS or SRPT queue, a policy index, a board slot); per server
// and result its busy time (kept until the results are combined); per
// server the combination's (utilization and the run-length analysis).
const (
	histogramBytes     = 8 * histLen
	serverBytes        = 128
	serverResultBytes  = 8
	serverCombineBytes = 32
)

// Memory of every dispatcher beyond the first: its front (stream, board
// header, policy instance, scratch), and per server its board's snapshot and
// its policy's state (dispatcherState): indexBytes a server for an index of
// the servers (the largest: count buckets and a PS heap), groupBytes more for
// a policy that groups servers by speed or weight, a group a server at worst
// (SED's countBuckets, WRR's turns).
const (
	frontBytes = 1 << 10
	indexBytes = 48
	groupBytes = 512
)

// dispatcherBytes is the memory each dispatcher beyond the first adds.
func (c *Config) dispatcherBytes() int64 {
	b := frontBytes + c.dispatcherState()
	if c.Refresh > 0 {
		b += boardBytes(c.Servers, describe(c.Policy, c).Reads)
	}
	return b
}

// dispatcherState is the memory of one dispatcher's instance of the policy
// (its Description's) and of its own counts under the own view.
func (c *Config) dispatcherState() int64 {
	desc := describe(c.Policy, c)
	b := c.ownViewBytes() + desc.stateBytes
	if desc.jobIndexes > 0 && !c.Discipline.Preemptive() {
		b += allocBytes(int64(unsafe.Sizeof(radixHeap{}))) // its index of departures: 257 buckets' headers
	}
	return b
}

// dispatcherOwns names what dispatcherBytes charges per server, for the
// refusal's message.
func (c *Config) dispatcherOwns() string {
	switch state := c.dispatcherState() > 0; {
	case state && c.Refresh > 0:
		return "a board and " + describe(c.Policy, c).Label + "'s state of the servers"
	case state:
		return describe(c.Policy, c).Label + "'s state of the servers"
	}
	return "a board of the servers"
}

// allocBytes is the memory an allocation of n bytes takes: large ones
// (over 32 KiB) take whole 8 KiB pages, small ones a size class, at most
// 1/8 more.
func allocBytes(n int64) int64 {
	if n > 32<<10 {
		return (n + 8<<10 - 1) &^ (8<<10 - 1)
	}
	return n + n/8
}

// memoryPart is a part of the memory a run holds at once (memoryParts):
// its bytes, what it holds (for the refusal, with its counts) and what
// lowers it.
type memoryPart struct {
	bytes     int64
	what, fix string
}

// memoryParts describe, part by part, what a run of c allocates and holds
// at once, from the functions that size its allocations: the trace, each
// replication's results until they are combined (metricsBytes), the
// replications running (the servers, the dispatchers beyond the first:
// dispatcherBytes), the time series, combining the results, and the room
// kept for the backlog of the replications running (backlogReserve).
// With named false the parts are not named (Validate's estimate, which
// must not allocate O(parts) strings at each call).
func (c *Config) memoryParts(named bool) []memoryPart {
	reps, workers, k := int64(c.reps()), int64(c.parallel()), int64(c.Servers)
	fine := c.fineBatches()
	parts := make([]memoryPart, 0, 10)
	add := func(bytes int64, fix, what string, args ...any) {
		if bytes > 0 && named {
			what = fmt.Sprintf(what, args...)
		}
		if bytes > 0 {
			parts = append(parts, memoryPart{bytes, what, fix})
		}
	}
	if c.Trace != nil {
		add(8*int64(cap(c.Trace.Times)+cap(c.Trace.Sizes)), "use a shorter trace", "the trace (%d jobs)", c.Trace.Len())
	}
	if law, ok := c.sizes().(interface{ tableBytes() int64 }); ok { // an empirical law's, a trace's (kept: traceLaw)
		add(law.tableBytes(), "fewer sizes", "the sizes' sorted table")
	}
	// Each replication's results, kept until they are combined: its sums a
	// batch and size class, and the rest (metricsBytes; replication 0, or
	// every replay of a trace, keeps its units' histograms), the servers'
	// busy times.
	classes := c.classCount()
	sums, rest := metricsBytes(classes, fine, false)
	_, first := metricsBytes(classes, fine, true)
	var results int64
	for rep := range reps { // rest or first, by keepsUnits
		results += rest
		if c.keepsUnits(int(rep)) {
			results += first - rest
		}
	}
	classFix := "fewer replications or batches"
	if describe(c.Policy, c).nClasses > 1 { // the policy's classes: its groups
		classFix += ", or fewer groups of servers (a size class each)"
	}
	add(reps*sums, classFix, "the batch sums (%s x %d batches x %s)", number.Count(reps, "replication"), fine, number.Count(classes, "size class"))
	add(results+reps*allocBytes(serverResultBytes*k), "fewer replications", "the histograms and utilizations of %s", number.Count(reps, "replication"))
	// The replications running: the servers' state (serverBytes has room for
	// the first dispatcher's board and an index; a policy that groups the
	// servers keeps more: dispatcherState), and the other dispatchers'.
	firstState := max(0, c.dispatcherState()-indexBytes*k)
	add(workers*(serverBytes*k+firstState+unitHistograms+2*8*blockSize), "lower K or the workers", "the state of K=%d servers in each of %s running", k, number.Count(workers, "replication"))
	if m := int64(c.dispatchers()); m > 1 {
		add(workers*(m-1)*c.dispatcherBytes(), "lower M", "M=%d dispatchers with %s of their own each (%s)", m, bytesText(c.dispatcherBytes()), c.dispatcherOwns())
	}
	if n := c.samples(); n > 0 { // replication 0's, allocated once (sim.sample)
		add(allocBytes(n*int64(unsafe.Sizeof(TimePoint{})))+allocBytes(8*k), "raise -sample-every", "the time series (%d samples)", n)
	}
	// Combining them: the pooled histograms, the servers' utilizations and
	// run-length analysis, the units' means and quantiles; a trace's replays
	// summed (ciReplications: a copy of the first's metrics, its units whole).
	units := reps * int64(fine/fineFactor)
	combine := 2*allocBytes(histogramBytes) + serverCombineBytes*k + 16*8*units + 2*allocBytes(units*8*int64(nPercentiles))
	if c.Trace != nil && reps > 1 {
		combine += sums + rest + 2*int64(fine/fineFactor)*allocBytes(histogramBytes)
	}
	add(combine, "lower K or the replications", "combining the results")
	n, perJob := c.backlogReserve()
	add(c.backlogBytes(), c.backlogFix(), "room for a backlog of %d jobs in each of %s running (%d bytes a job, twice: a buffer grows by a copy)", n, number.Count(workers, "replication"), perJob)
	return parts
}

// memoryEstimate is an upper estimate, in bytes, of the memory a run holds
// at once: the sum of memoryParts.
func (c *Config) memoryEstimate() int64 {
	var b int64
	for _, p := range c.memoryParts(false) {
		b += p.bytes
	}
	return b
}

// fixedMemory is memoryEstimate without the backlog's room.
func (c *Config) fixedMemory() int64 { return c.memoryEstimate() - c.backlogBytes() }

// backlogBytes is memoryParts' room for the backlog.
func (c *Config) backlogBytes() int64 {
	n, perJob := c.backlogReserve()
	return 2 * int64(c.parallel()) * n * perJob
}

// memoryError is the refusal of a configuration that needs need bytes: it
// names the largest parts (those of a tenth of the need or more) and how
// to lower them.
func (c *Config) memoryError(need int64) error {
	parts := c.memoryParts(true)
	slices.SortStableFunc(parts, func(a, b memoryPart) int { return cmp.Compare(b.bytes, a.bytes) })
	var whats, fixes []string
	for i, p := range parts {
		if i > 0 && (i == 3 || p.bytes < need/10) {
			break
		}
		whats = append(whats, fmt.Sprintf("%s for %s", bytesText(p.bytes), p.what))
		switch i := slices.IndexFunc(fixes, func(f string) bool { return strings.HasPrefix(f, p.fix) || strings.HasPrefix(p.fix, f) }); {
		case i < 0:
			fixes = append(fixes, p.fix)
		case len(p.fix) > len(fixes[i]): // the same fix, said more fully
			fixes[i] = p.fix
		}
	}
	return fmt.Errorf("this configuration needs about %s of memory, over lbsim's limit of %s: %s; %s",
		bytesText(need), bytesText(memoryLimit), strings.Join(whats, ", "), strings.Join(fixes, ", or "))
}

// parallel is the number of replications that run at once.
func (c *Config) parallel() int {
	w := c.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(w, c.reps())
}

// checkMagnitudes rejects scale parameters whose products would overflow or
// underflow: the load, the sizes' moments, and the run's span against the
// refresh and sampling periods. Sizes, speeds and arrivals are already valid.
func (c *Config) checkMagnitudes() error {
	sizes := c.sizes()
	mean := sizes.Mean()
	if err := inRange("mean job size E[X]", mean, "rescale the sizes (another time unit)"); err != nil {
		return err
	}
	if c.Trace == nil {
		if m2 := sizes.SecondMoment(); !math.IsInf(m2, 1) && !(math.Sqrt(m2) <= MaxMagnitude) {
			return fmt.Errorf("sizes %s have sqrt(E[X^2])=%.4g: need at most %g so that waiting times stay finite; rescale the sizes or bound their tail", sizes, math.Sqrt(m2), MaxMagnitude)
		}
	} else {
		for i, x := range c.Trace.Sizes {
			if !(x >= MinMagnitude && x <= MaxMagnitude) { // the name only for the error: no allocation a job
				return inRange(fmt.Sprintf("trace size #%d", i+1), x, "rescale the trace's sizes")
			}
		}
	}
	if c.Trace != nil {
		return c.checkPeriods(c.horizon())
	}
	if r, ramp := c.arrivals().(Ramp); ramp {
		if r.From > 0 {
			if err := inRange("ramp from", r.From, "use from=0 or a load of at least 1e-100"); err != nil {
				return err
			}
		}
	} else if err := inRange("load rho", c.Load, "e.g. -load 0.5"); err != nil {
		return err
	}
	if horizon := c.horizon(); !(horizon <= maxHorizon) {
		return fmt.Errorf("the run would span about %.3g time units ((warm-up + N)/lambda with lambda = rho sum(mu_k)/E[X] = %.3g): need at most %g so that arrival times stay finite; raise the load, or rescale sizes and speeds", horizon, c.lambda(), maxHorizon)
	}
	return c.checkPeriods(c.horizon())
}

// horizon is the time the arrivals span, expected: a trace's last arrival
// (scaled), else (warm-up + N)/lambda, plus a ramp's duration.
func (c *Config) horizon() float64 {
	if c.Trace != nil {
		return c.Trace.Times[c.Trace.Len()-1] * c.traceScale()
	}
	horizon := float64(c.Warmup+c.jobs()) / c.lambda()
	if r, ramp := c.arrivals().(Ramp); ramp {
		horizon += r.Over
	}
	return horizon
}

// lambda is ArrivalRate, at a ramp's final load (its rate settles there).
func (c *Config) lambda() float64 {
	if r, ramp := c.arrivals().(Ramp); ramp {
		at := *c
		at.Load = r.To
		return at.ArrivalRate()
	}
	return c.ArrivalRate()
}

// samples is the room replication 0's time series is given (sim.sample):
// the samples of the expected horizon, with room for a Poisson run's
// spread (5 standard deviations of its span) and its last sample.
func (c *Config) samples() int64 {
	if c.SampleEvery <= 0 {
		return 0
	}
	n := min(c.horizon()/c.SampleEvery, maxSamples) // more are refused (checkPeriods)
	if c.Trace == nil {
		n *= 1 + 5/math.Sqrt(float64(c.Warmup+c.jobs()))
	}
	return int64(math.Ceil(n)) + 16
}

// checkPeriods bounds the refresh and sampling periods against the time the
// run spans: t/T must stay finite, and sampling give at most maxSamples points.
func (c *Config) checkPeriods(horizon float64) error {
	if c.Refresh > 0 {
		if err := inRange("refresh T", c.Refresh, "e.g. -refresh 10"); err != nil {
			return err
		}
		if !(horizon/c.Refresh <= maxHorizon) {
			return fmt.Errorf("refresh T=%v is too small for a run of about %.3g time units: need T >= %.3g; raise T", c.Refresh, horizon, horizon/maxHorizon)
		}
	}
	if c.SampleEvery > 0 {
		if err := inRange("sample period", c.SampleEvery, "sample a few thousand times per run"); err != nil {
			return err
		}
		if n := horizon / c.SampleEvery; !(n <= maxSamples) {
			return fmt.Errorf("sample period %v gives about %.3g samples in a run of %.3g time units: need at most %.0e; raise the period to at least %.3g", c.SampleEvery, n, horizon, float64(maxSamples), horizon/maxSamples)
		}
	}
	return nil
}

// speed is mu_k without allocating the K speeds.
func (c *Config) speed(k int) float64 {
	switch len(c.Speeds) {
	case 0:
		return 1
	case 1:
		return c.Speeds[0]
	default:
		return c.Speeds[k]
	}
}

// inRange checks a positive scale parameter against [MinMagnitude, MaxMagnitude].
func inRange(name string, v float64, fix string) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("%s=%v is invalid: need a finite number > 0; %s", name, v, fix)
	}
	if v < MinMagnitude || v > MaxMagnitude {
		return fmt.Errorf("%s=%v is out of range: need %g <= %s <= %g so that products and squares of the model's quantities stay finite; %s", name, v, MinMagnitude, name, MaxMagnitude, fix)
	}
	return nil
}

func bytesText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	default:
		return fmt.Sprintf("%d bytes", b)
	}
}

// MaxGridConfigs bounds the configurations of one grid: they are listed in
// memory (a few hundred bytes each) before any runs.
const MaxGridConfigs = 1_000_000

// Count is the number of configurations the grid lists, without listing
// them; an error past MaxGridConfigs.
func (g Grid) Count() (int, error) {
	n := 1
	for _, f := range axes() {
		m := f.ops.axis.n(&g)
		if m == 0 {
			continue
		}
		if n > MaxGridConfigs/m {
			return 0, fmt.Errorf("the grid has more than %d configurations (%s multiplies it by %d): split it into several sweeps", MaxGridConfigs, f.Name, m)
		}
		n *= m
	}
	return n, nil
}
