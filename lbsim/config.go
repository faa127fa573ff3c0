package lbsim

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Config is one simulated system and how to measure it. Optional fields at
// zero: speeds 1, Poisson arrivals, live state, FCFS, one replication, all cores.
type Config struct {
	Servers  int       // K >= 1
	Speeds   []float64 // mu_k: nil (all 1), one value for all, or K values
	Load     float64   // rho = lambda E[X] / sum(mu_k), in (0, 1) unless AllowOverload; with a Trace, 0 = its own
	Sizes    SizeLaw
	Arrivals ArrivalProcess // nil = Poisson
	Trace    *Trace         // replays arrival times and sizes instead of Arrivals and Sizes, the times scaled to Load unless it is 0
	Policy   Policy
	Refresh  float64 // board refresh period T; 0 = the policy reads live state
	Tally    bool    // each dispatcher adds its own sends since the last refresh to its board
	// Dispatchers is M (0 = 1): each arrival goes to one of them, each with
	// its own random stream, policy state and tally (sim_dispatchers.go).
	Dispatchers       int
	DispatcherWeights []float64 // the dispatchers' shares of the arrivals: nil = uniform, else M weights > 0
	Stagger           bool      // refresh dispatcher i's board at T (n + i/M), not all at the multiples of T
	// View is what the dispatchers see of the servers' job counts: the live
	// state (or the board), or OwnView, each one's own jobs (policy_view_own.go).
	View ViewKind
	// Delay is D, how long after a departure a dispatcher reading job counts
	// learns of it (policy_view_own.go): 0, at once.
	Delay      float64
	Discipline Discipline
	Jobs       int64  // measured jobs per replication, N >= 1 (a trace: 0 = all its jobs)
	Warmup     int64  // jobs simulated before measuring
	Reps       int    // independent replications R (0 = 1 here; -reps 0 and "reps": 0 are refused)
	Seed       uint64 // base seed; replication r uses streams derived from (Seed, r)
	Workers    int    // replications run in parallel (0 = GOMAXPROCS)

	// AllowOverload permits load >= 1: the queues grow without bound, and
	// the results depend on N (no steady state).
	AllowOverload bool
	// SampleEvery > 0 records the number of jobs at every server every
	// SampleEvery time units in replication 0, and their moments across servers.
	SampleEvery float64
	Batches     int // batch means of a CI when Reps = 1 (0 = 20)

	// WarmupAuto cuts each replication's initial transient, chosen by MSER
	// on its batch means (stat_mser.go), from its Jobs: not a Warmup before them.
	WarmupAuto bool
	// Precision > 0 runs until the 95% half-width of the mean wait (response
	// under PS and SRPT) is at most Precision times the mean (run_precision.go),
	// within MaxJobs jobs in all (0 = 1e10) and MaxSeconds of wall time (0 =
	// no limit; a time limit makes the stopping point machine-dependent).
	Precision  float64
	MaxJobs    int64
	MaxSeconds float64

	// ControlVariates adjusts every mean by control variates of known means,
	// the sizes drawn and the interarrival gaps (stat_control.go), named in
	// Result.CIMethod. Poisson or deterministic arrivals only.
	ControlVariates bool
}

// ciBatches is the number of batch means for a CI from one replication.
func (c *Config) ciBatches() int {
	if c.Batches == 0 {
		return 20
	}
	return c.Batches
}

// fineBatches: each replication records fineFactor per CI batch (diagnostics, MSER).
func (c *Config) fineBatches() int { return fineFactor * c.ciBatches() }

const fineFactor = 5

// speeds returns the K server speeds.
func (c *Config) speeds() []float64 {
	out := make([]float64, c.Servers)
	for i := range out {
		switch len(c.Speeds) {
		case 0:
			out[i] = 1
		case 1:
			out[i] = c.Speeds[0]
		default:
			out[i] = c.Speeds[i]
		}
	}
	return out
}

// sizes is the size law in force: the trace's empirical law when replaying.
func (c *Config) sizes() SizeLaw {
	if c.Trace != nil {
		return traceLaw(c.Trace, false)
	}
	return c.Sizes
}

// traceLaw is NewEmpirical of a trace's sizes, its table sorted (SITA's
// cutoffs, the response atoms: O(n log n)) once per trace, not at each of
// a replication's ten asks; kept for the traces last asked for, one a core
// and one more. A trace is known by its address and Sizes slice; Validate
// (check) also compares the values' hash, once a run: sizes changed in
// place between runs are a new law (during a run, the caller's race).
func traceLaw(tr *Trace, check bool) Empirical {
	xs := tr.Sizes
	if len(xs) == 0 {
		return NewEmpirical(xs)
	}
	traceLaws.Lock()
	defer traceLaws.Unlock()
	traceLaws.tick++
	e, ok := traceLaws.m[tr]
	if !ok || e.first != &xs[0] || e.n != len(xs) || check && e.law.tab.hash != hashFloats(xs) {
		var oldest *Trace // the least recently asked for goes, not one a run still reads
		for k, o := range traceLaws.m {
			if !ok && len(traceLaws.m) > runtime.GOMAXPROCS(0) && (oldest == nil || o.used < traceLaws.m[oldest].used) {
				oldest = k
			}
		}
		delete(traceLaws.m, oldest)
		e = &traceLawEntry{first: &xs[0], n: len(xs), law: NewEmpirical(xs)}
		e.law.tab.sort() // now, so that its hash is of the values it was built from
		traceLaws.m[tr] = e
	}
	e.used = traceLaws.tick
	return e.law
}

type traceLawEntry struct {
	first *float64
	n     int
	used  uint64 // traceLaws.tick when last asked for
	law   Empirical
}

var traceLaws = struct {
	sync.Mutex
	tick uint64
	m    map[*Trace]*traceLawEntry
}{m: map[*Trace]*traceLawEntry{}}

// sizesText names the sizes in force for a message, briefly: "the sizes
// of the trace" and its file (never its values), or "sizes" and the law, a
// size file by its path, a long list of values by its start, length and
// hash (sizesName).
func (c *Config) sizesText() string {
	if c.Trace != nil && c.Trace.Source != "" {
		return "the sizes of the trace " + c.Trace.Source // its path, where the reader finds it
	}
	if c.Trace != nil {
		return "the sizes of the trace " + traceName(c.Trace)
	}
	if f, ok := c.Sizes.(SizeFile); ok {
		return "sizes " + f.String()
	}
	return "sizes " + sizesName(c.Sizes)
}

// Capacity is sum(mu_k), the total service rate in work units per time unit.
func (c *Config) Capacity() float64 {
	if len(c.Speeds) == 0 {
		return float64(c.Servers) // K ones sum to K exactly
	}
	sum := 0.0
	for k := range c.Servers { // in server order, as ever: the same bits
		sum += c.speed(k)
	}
	return sum
}

// ArrivalRate is the total arrival rate lambda = rho sum(mu_k) / E[X].
func (c *Config) ArrivalRate() float64 { return c.Load * c.Capacity() / c.sizes().Mean() }

func (c *Config) reps() int { return max(c.Reps, 1) }

func (c *Config) jobs() int64 {
	if c.Trace != nil && c.Jobs == 0 {
		return int64(c.Trace.Len()) - c.Warmup
	}
	return c.Jobs
}

// Validate returns the first problem, naming the value, the allowed range
// and a fix: each setting's own check (in the field table's order), then
// checkBounds, then what the policy and the servers' loads need.
func (c *Config) Validate() error {
	if c.Trace != nil {
		traceLaw(c.Trace, true) // sizes changed in place since the last run: a new law
	}
	for i := range fields {
		if check := fields[i].check; check != nil {
			if err := check(c); err != nil {
				return err
			}
		}
	}
	if err := c.checkBounds(); err != nil {
		return err
	}
	if c.Refresh > 0 && describe(c.Policy, c).Reads == NoState {
		return fmt.Errorf("refresh T=%v has no effect on policy %s, which reads no server state; use -refresh 0 or a policy such as jsq:d=2", c.Refresh, c.Policy)
	}
	if err := impl(c.Policy).validate(c); err != nil {
		return err // its own checks: against K and the sizes, JIQ's I-queue options, LSQ's own knowledge
	}
	if err := c.checkMagnitudes(); err != nil {
		return err
	}
	if err := c.checkServerLoads(); err != nil {
		return err
	}
	return c.checkSampling()
}

func (c *Config) checkPolicy() error {
	if c.Policy == nil {
		return fmt.Errorf("policy is missing: choose one of %s", strings.Join(policyRegistry.examples(), ", "))
	}
	return nil
}

func (c *Config) checkServers() error {
	if c.Servers < 1 {
		return fmt.Errorf("servers K=%d is invalid: need K >= 1; e.g. -servers 50", c.Servers)
	}
	if c.Servers > maxServers {
		return fmt.Errorf("servers K=%d is too large: need 1 <= K <= %d; simulate a smaller system (the mean-field limits in lbsim/theory give K -> infinity)", c.Servers, maxServers)
	}
	return nil
}

func (c *Config) checkSpeeds() error {
	if n := len(c.Speeds); n > 1 && n != c.Servers {
		return fmt.Errorf("speeds: %d values given for K=%d servers: give one value for all servers or exactly K values", n, c.Servers)
	}
	for i, mu := range c.Speeds {
		if !(mu >= MinMagnitude && mu <= MaxMagnitude) { // the name only for the error: K Sprintfs cost more than a run
			return inRange(fmt.Sprintf("speed mu_%d", i+1), mu, "speeds are service rates, e.g. 1")
		}
	}
	return nil
}

// checkLoad: a ramp sets the load; a trace brings its own or is scaled.
func (c *Config) checkLoad() error {
	arr := c.arrivals()
	if _, ramp := arr.(Ramp); ramp {
		return nil
	}
	if c.Trace != nil {
		return c.checkTraceLoad()
	}
	if math.IsNaN(c.Load) || c.Load <= 0 || math.IsInf(c.Load, 0) {
		return fmt.Errorf("load rho=%v is invalid: need 0 < rho < 1; e.g. -load 0.5", c.Load)
	}
	if arr.overloads(c.Load) && !c.AllowOverload {
		return fmt.Errorf("load rho=%v is unstable: need rho < 1 (arrivals at least as fast as the servers can work make queues grow without bound); lower the load, or allow it explicitly with -overload", c.Load)
	}
	return nil
}

// checkTraceLoad: a trace's own load (0), or one its times can be scaled to.
func (c *Config) checkTraceLoad() error {
	if c.Load == 0 || c.Trace.Len() == 0 {
		return nil
	}
	if math.IsNaN(c.Load) || c.Load < 0 || math.IsInf(c.Load, 0) {
		return fmt.Errorf("load rho=%v is invalid for a trace: need 0 < rho < 1 to scale its arrival times to, or 0 for the trace's own load; e.g. -load 0.7", c.Load)
	}
	if own := c.Trace.Load(c.Capacity()); !(own > 0) || math.IsInf(own, 0) {
		return fmt.Errorf("load rho=%v: the trace's arrival times cannot be scaled to it, since all %d arrivals share one instant (no arrival rate); drop -load to replay the trace as it is", c.Load, c.Trace.Len())
	}
	if c.Load >= 1 && !c.AllowOverload {
		return fmt.Errorf("load rho=%v is unstable: need rho < 1 (arrivals at least as fast as the servers can work make queues grow without bound); lower the load, or allow it explicitly with -overload", c.Load)
	}
	return nil
}

func (c *Config) checkSizes() error {
	if c.Trace != nil {
		return nil
	}
	if c.Sizes == nil {
		return errors.New("sizes are missing: give a size law, e.g. twopoint:xm=1,xM=1000,beta=0.8")
	}
	if err := c.Sizes.Validate(); err != nil {
		return err
	}
	if m2 := c.Sizes.SecondMoment(); math.IsNaN(m2) {
		return fmt.Errorf("sizes %s have an undefined second moment; check the parameters", c.Sizes)
	}
	return nil
}

func (c *Config) checkArrivals() error {
	if c.Trace != nil {
		return nil
	}
	return c.arrivals().Validate()
}

func (c *Config) checkTrace() error {
	if c.Trace != nil && c.Trace.Len() == 0 {
		return errors.New("trace has no jobs: load a trace with rows arrival_time,size")
	}
	if c.Trace == nil || c.Trace.Dispatchers == nil {
		return nil
	}
	m, ds := c.dispatchers(), c.Trace.Dispatchers
	if len(ds) != c.Trace.Len() || c.DispatcherWeights != nil {
		return fmt.Errorf("trace's dispatchers: %d given for %d jobs, with %d dispatcher weights: need one a job, and no -dispatcher-weights (the trace routes each job)", len(ds), c.Trace.Len(), len(c.DispatcherWeights))
	}
	for i, d := range ds {
		if d < 0 || d >= m {
			return fmt.Errorf("trace job %d went through dispatcher %d: need 0 <= d < M = %d; set Dispatchers (-dispatchers) to the number of proxies the log names", i+1, d, m)
		}
	}
	return nil
}

func (c *Config) checkDiscipline() error {
	if !c.Discipline.valid() {
		return fmt.Errorf("discipline %d is invalid: use %s", int(c.Discipline), disciplineNames())
	}
	return nil
}

func (c *Config) checkRefresh() error {
	if math.IsNaN(c.Refresh) || c.Refresh < 0 || math.IsInf(c.Refresh, 0) {
		return fmt.Errorf("refresh T=%v is invalid: need T >= 0 (0 = live state); e.g. -refresh 10", c.Refresh)
	}
	return nil
}

func (c *Config) checkTally() error {
	if c.Tally && c.Refresh == 0 {
		return errors.New("tally needs a board: set a refresh period T > 0 (live state already includes every send)")
	}
	return nil
}

// checkJobs: a trace is replayed whole (0) or in part.
func (c *Config) checkJobs() error {
	if c.Trace == nil {
		if c.Jobs < 1 {
			return fmt.Errorf("jobs N=%d is invalid: need N >= 1; e.g. -jobs 2000000", c.Jobs)
		}
		return nil
	}
	if c.Jobs < 0 || c.Jobs+c.Warmup > int64(c.Trace.Len()) {
		return fmt.Errorf("jobs N=%d with warm-up %d is invalid for a trace of %d jobs: need 0 <= N+warmup <= %d (N=0 replays all)", c.Jobs, c.Warmup, c.Trace.Len(), c.Trace.Len())
	}
	if c.jobs() < 1 {
		return fmt.Errorf("warm-up %d leaves no job of the trace's %d to measure; lower the warm-up", c.Warmup, c.Trace.Len())
	}
	return nil
}

func (c *Config) checkWarmup() error {
	if c.Warmup < 0 {
		return fmt.Errorf("warm-up %d is invalid: need >= 0", c.Warmup)
	}
	return nil
}

func (c *Config) checkWarmupAuto() error {
	if c.WarmupAuto && c.Warmup > 0 {
		return fmt.Errorf("warm-up %d and auto warm-up both given: use one (auto chooses the warm-up by MSER)", c.Warmup)
	}
	return nil
}

func (c *Config) checkReps() error {
	if c.Reps < 0 {
		return fmt.Errorf("reps R=%d is invalid: need R >= 1", c.Reps)
	}
	return nil
}

func (c *Config) checkBatches() error {
	if c.Batches < 0 || c.Batches == 1 {
		return fmt.Errorf("batches=%d is invalid: need 0 (default 20) or >= 2", c.Batches)
	}
	if c.Batches > maxBatches {
		return fmt.Errorf("batches=%d is too large: need 2 <= batches <= %d; 20 to 100 batch means are plenty for a confidence interval", c.Batches, maxBatches)
	}
	return nil
}

func (c *Config) checkPrecision() error {
	if math.IsNaN(c.Precision) || c.Precision < 0 || c.Precision >= 1 {
		return fmt.Errorf("precision=%v is invalid: need 0 <= precision < 1 (the relative 95%% half-width, e.g. 0.05 for ±5%%; 0 = fixed run length)", c.Precision)
	}
	if r := c.reps(); c.Precision > 0 && r > 1 && r < minPrecisionReps {
		return fmt.Errorf("precision=%v with reps R=%d: a precision run starts with at least %d replications (fewer give a fragile interval: the t quantile is %.3g at R=%d) and adds more as it needs; give -reps %d or more, or leave -reps out (R=1 starts at %d)",
			c.Precision, r, minPrecisionReps, tQuantile(0.975, r), r, minPrecisionReps, minPrecisionReps)
	}
	return nil
}

func (c *Config) checkSampleEvery() error {
	if math.IsNaN(c.SampleEvery) || c.SampleEvery < 0 {
		return fmt.Errorf("sample period %v is invalid: need >= 0 (0 = no time series)", c.SampleEvery)
	}
	return nil
}

func (c *Config) checkWorkers() error {
	if c.Workers < 0 {
		return fmt.Errorf("workers %d is invalid: need >= 0 (0 = all cores); e.g. -workers 2", c.Workers)
	}
	return nil
}

// checkBudget: a budget needs a precision target, and room for its first round.
func (c *Config) checkBudget() error {
	if c.MaxJobs < 0 || math.IsNaN(c.MaxSeconds) || c.MaxSeconds < 0 {
		return fmt.Errorf("budget max-jobs=%d, max-seconds=%v is invalid: need both >= 0 (0 = default)", c.MaxJobs, c.MaxSeconds)
	}
	if c.Precision == 0 {
		switch {
		case c.MaxJobs > 0:
			return fmt.Errorf("max-jobs=%d has no effect without a precision target: it bounds a run with -precision; add e.g. -precision 0.05, or drop -max-jobs (-jobs sets a fixed run length)", c.MaxJobs)
		case c.MaxSeconds > 0:
			return fmt.Errorf("max-seconds=%v has no effect without a precision target: it bounds a run with -precision; add e.g. -precision 0.05, or drop -max-seconds", c.MaxSeconds)
		}
		return nil
	}
	if reps, first := c.precisionRound(); c.MaxJobs > 0 && c.MaxJobs < first {
		return fmt.Errorf("max-jobs=%d is smaller than the first round of the precision run, %d replications of %d jobs (%d in all): need max-jobs >= %d; raise -max-jobs or lower -jobs", c.MaxJobs, reps, first/int64(reps), first, first)
	}
	return nil
}

// classes is SizeClasses without their Work.
func (c *Config) classes() []SizeClass {
	desc := describe(c.Policy, c)
	if cls := desc.sizeClasses(); cls != nil {
		return cls
	}
	return lawClasses(c.sizes(), c.Servers)
}

// classCount is the number of classes the metrics sum apart (one if none).
func (c *Config) classCount() int {
	if n := describe(c.Policy, c).nClasses; n > 0 {
		return n
	}
	return max(1, len(c.classes()))
}

// keepsUnits: replication rep keeps its batches' times. Replication 0 does,
// whatever Reps: alone, its batches are the percentiles' units (and a
// replication's numbers never depend on how many others there are); a
// trace's replays all do, to be merged batch by batch.
func (c *Config) keepsUnits(rep int) bool { return rep == 0 || c.Trace != nil }

// samplesIn: replication rep records the time series (SampleEvery).
func (c *Config) samplesIn(rep int) bool { return c.SampleEvery > 0 && rep == 0 }

// SizeClasses are the size classes results are reported for (Result.Classes,
// Reference.Classes), in order: the policy's (SITA's groups, at its cutoffs
// for the law), else the size law's, each with the share of the work it
// brings (Work); nil when there are none.
func (c Config) SizeClasses() []SizeClass {
	cls := slices.Clone(c.classes()) // a policy's own Classes stay as given
	uppers := make([]float64, len(cls))
	for i, cl := range cls {
		uppers[i] = cl.Upper
	}
	var work []float64
	ok := false
	if c.sizes() != nil {
		work, ok = groupWork(c.sizes(), uppers)
	}
	for i := range cls {
		cls[i].Work = math.NaN()
		if ok {
			cls[i].Work = work[i]
		}
	}
	return cls
}

// classCuts are the upper size bounds of all classes but the last (classOf).
func classCuts(cls []SizeClass) []float64 {
	var cuts []float64
	for _, cl := range cls[:max(len(cls)-1, 0)] {
		cuts = append(cuts, cl.Upper)
	}
	return cuts
}

func (c *Config) arrivals() ArrivalProcess {
	if c.Arrivals == nil {
		return Poisson{}
	}
	return c.Arrivals
}
