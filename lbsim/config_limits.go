package lbsim

import (
	"fmt"
	"math"
	"runtime"
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
		many, lower := "", ""
		if m := c.dispatchers(); m > 1 {
			many, lower = fmt.Sprintf(", M=%d dispatchers", m), " M,"
			if own := c.dispatcherBytes(); own >= int64(c.Servers) {
				many += fmt.Sprintf(" with %s of their own each (%s)", bytesText(own), c.dispatcherOwns())
			}
		}
		return fmt.Errorf("this configuration needs about %s of memory (K=%d servers%s, %d replications, %d batches, %d in parallel): the limit is %s; lower K,%s the replications, the batches or the workers",
			bytesText(need), c.Servers, many, c.reps(), max(c.Batches, 20), c.parallel(), bytesText(memoryLimit), lower)
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
	return c.ownViewBytes() + describe(c.Policy, c).stateBytes
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

// memoryEstimate is an upper estimate, in bytes, of the memory a run holds
// at once: the replications running, with room for their backlog
// (backlogReserve), and every replication's results until they are combined.
func (c *Config) memoryEstimate() int64 {
	return c.fixedMemory() + 2*int64(c.parallel())*c.backlogReserve()
}

// fixedMemory is memoryEstimate without the backlog: the trace, the
// replications running, their results, and combining them.
func (c *Config) fixedMemory() int64 {
	reps, workers, k := int64(c.reps()), int64(c.parallel()), int64(c.Servers)
	fine := int64(fineFactor * max(c.Batches, 20))
	// Per fine batch: 3 sums of up to 3 classes, the handout's sum, its
	// bound, next batch and size (metrics); per unit of fineFactor batches
	// its quantiles of wait and response; the wait's and the response's
	// histograms; and 1 KiB for the structures.
	units := fine / fineFactor
	perResult := 2*allocBytes(histogramBytes) + allocBytes(serverResultBytes*k) + allocBytes(fine*(3*3*8+8+8+4+8)) +
		2*allocBytes(units*8*int64(nPercentiles)) + 1<<10
	// serverBytes has room for the first dispatcher's board and an index;
	// a policy that groups the servers keeps more (dispatcherState).
	first := max(0, c.dispatcherState()-indexBytes*k)
	perRunning := 2*allocBytes(histogramBytes) + serverBytes*k + first + int64(c.dispatchers()-1)*c.dispatcherBytes() + 2*8*blockSize
	combine := 2*allocBytes(histogramBytes) + serverCombineBytes*k + 16*8*reps*fine/fineFactor + 2*allocBytes(reps*8*int64(nPercentiles))
	var trace int64
	if c.Trace != nil {
		trace = 8 * int64(cap(c.Trace.Times)+cap(c.Trace.Sizes))
	}
	return trace + reps*perResult + workers*perRunning + combine
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
	capacity := c.Capacity()
	if c.Trace != nil {
		return c.checkPeriods(c.Trace.Times[c.Trace.Len()-1] * c.traceScale())
	}
	load := c.Load
	if r, ramp := c.arrivals().(Ramp); ramp {
		load = r.To // the rate settles at To
		if r.From > 0 {
			if err := inRange("ramp from", r.From, "use from=0 or a load of at least 1e-100"); err != nil {
				return err
			}
		}
	} else if err := inRange("load rho", load, "e.g. -load 0.5"); err != nil {
		return err
	}
	lambda := load * capacity / mean
	horizon := float64(c.Warmup+c.jobs()) / lambda
	if r, ramp := c.arrivals().(Ramp); ramp {
		horizon += r.Over
	}
	if !(horizon <= maxHorizon) {
		return fmt.Errorf("the run would span about %.3g time units ((warm-up + N)/lambda with lambda = rho sum(mu_k)/E[X] = %.3g): need at most %g so that arrival times stay finite; raise the load, or rescale sizes and speeds", horizon, lambda, maxHorizon)
	}
	return c.checkPeriods(horizon)
}

// checkPeriods bounds the refresh and sampling periods against the time the
// run spans: t/T must stay finite, and sampling give at most 1e7 points.
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
		if n := horizon / c.SampleEvery; !(n <= 1e7) {
			return fmt.Errorf("sample period %v gives about %.3g samples in a run of %.3g time units: need at most 1e7; raise the period to at least %.3g", c.SampleEvery, n, horizon, horizon/1e7)
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
