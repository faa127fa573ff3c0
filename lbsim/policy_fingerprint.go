package lbsim

import (
	"fmt"
	"reflect"
)

// policyKey is c.Policy's part of Config.Key. A built-in policy is its spec
// (CodeVersion covers its code), or the spec of the one it acts as under c
// (actsAs), so that one system is one key. Any other policy is a user's,
// whose code CodeVersion does not see and who may edit Pick or a field
// String() does not print between two runs of a notebook: it is known by
// what it does, its spec, Go type and policyFingerprint.
func policyKey(c Config) string {
	p := c.Policy
	if p == nil {
		return "none"
	}
	if d := describe(p, &c); d.builtin {
		if d.actsAs != nil {
			p = d.actsAs
		}
		return p.String()
	}
	h, err := policyFingerprint(c)
	if err != nil {
		return unfinishedKey(p.String(), reflect.TypeOf(p), fmt.Errorf("policy %s: %w", p, err))
	}
	return fmt.Sprintf("%s#%s#%016x", p.String(), typeName(reflect.TypeOf(p)), h)
}

// policyFingerprint hashes c.Policy's exported fields and the servers its
// Pick chooses in short runs with a fixed seed and c's dispatchers
// (probeOf): on probeSystems (unequal speeds, a heavy-tailed size law, a
// stale board) and, when K <= maxProbeServers, on c's own. A run the policy
// refuses or that stops adds its error text instead. Each run is on a copy
// of the policy (ownPolicy), leaving the user's value as it was.
//
// It is a test of behaviour, not a proof: an edit that changes no choice
// in these runs (a branch taken only at K = 5000, after 10^5 jobs, or with
// more than maxProbeDispatchers dispatchers) is not seen, and the cached
// result is served. A policy that draws from a global random source or the
// clock instead of View.Rand has a new fingerprint every run, so is never
// served from the cache (policyKept refuses a random source in its value).
// Recompute by hand when in doubt (nb.Fresh, or LBSIM_NO_CACHE=1).
//
// A probe that does not finish (policy_probe_budget.go) is an error: the
// key then says so, and is cached by no one.
func policyFingerprint(c Config) (uint64, error) {
	return boundedProbe(dataHash(c.Policy, true), c)
}

// probeRuns folds into h the probe runs of c's policy, up to one that does not finish.
func probeRuns(h uint64, c Config, b *probeBudget) (uint64, error) {
	runs := probeSystems[:]
	if c.Servers >= 1 && c.Servers <= maxProbeServers {
		runs = append(runs, c)
	}
	for _, run := range runs {
		var err error
		if h, err = probe(h, probeOf(c, run), b); err != nil {
			return h, err
		}
	}
	return h, nil
}

// probeOf is the probe of c's policy and dispatchers on run's system:
// probeJobs jobs from probeSeed, one replication, nothing else measured.
func probeOf(c, run Config) Config {
	run.Policy = c.Policy
	run.Dispatchers, run.DispatcherWeights, run.Stagger = c.probeDispatchers(run.Refresh > 0)
	run.Jobs, run.Warmup, run.WarmupAuto, run.Reps, run.Seed = probeJobs, 0, false, 1, probeSeed
	run.Precision, run.MaxJobs, run.MaxSeconds = 0, 0, 0
	run.SampleEvery, run.Batches, run.ControlVariates = 0, 0, false
	return run
}

// The probe: probeJobs jobs on each system, from seed probeSeed, and on a
// configuration's own servers up to maxProbeServers of them.
const (
	probeJobs       = 100
	probeSeed       = 20240521
	maxProbeServers = 1000
)

var probeSystems = [...]Config{
	{Servers: 2, Speeds: []float64{2, 1}, Load: 0.7, Sizes: Exponential{M: 1}},
	{Servers: 5, Load: 0.9, Sizes: H2{P1: 0.9, Rate1: 2, Rate2: 0.1}},
	{Servers: 10, Speeds: []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, Load: 0.9, Sizes: NewTwoPointBeta(1, 1000, 0.8)},
	{Servers: 10, Speeds: []float64{1, 2, 3, 4, 5, 1, 2, 3, 4, 5}, Load: 0.8, Sizes: Exponential{M: 1}, Refresh: 2},
}

// probe folds into h the servers chosen in one run of cfg, or why it did
// not run; a run over budget b is an error, which names the system.
func probe(h uint64, cfg Config, b *probeBudget) (uint64, error) {
	if err := cfg.Validate(); err != nil {
		return fnvString(h, "invalid: "+err.Error()), nil
	}
	err := runRecorded(&cfg, &h, b)
	if stop, over := err.(probeStop); over {
		on := fmt.Sprintf("%d servers at load %g", cfg.Servers, cfg.Load)
		if m := cfg.dispatchers(); m > 1 {
			on += fmt.Sprintf(" with %d dispatchers", m)
		}
		return h, fmt.Errorf("its Pick %s on %s, a probe run of Config.Key, so it may never return there", stop.did, on)
	}
	if err != nil {
		return fnvString(h, "stopped: "+err.Error()), nil
	}
	return h, nil
}

// probeRecorder is a dispatcher that hashes into h the choices of the one
// it wraps, and ends each pick on the probe's budget.
type probeRecorder struct {
	d      dispatcher
	h      *uint64
	budget *probeBudget
}

func (r probeRecorder) pick(t, x float64) int {
	k := r.d.pick(t, x)
	r.budget.picked()
	*r.h = fnvUint64(*r.h, uint64(k))
	return k
}

// runRecorded simulates one replication of cfg with a recorder in place of
// each dispatcher, charged to budget (a run it stops returns its probeStop).
func runRecorded(cfg *Config, h *uint64, budget *probeBudget) (err error) {
	var s *sim
	defer func() {
		if s != nil {
			s.srv.held.done()
		}
		if v := recover(); v != nil {
			if budget.over() { // whatever Pick made of spend's panic
				err = budget.stop()
			} else if e, ok := v.(policyError); ok {
				err = e.err // its text: "%v" would print its address
			} else {
				err = fmt.Errorf("%v", v)
			}
		}
	}()
	budget.calls = 0 // after a run stopped in mid-pick
	s = newSimWithin(cfg, 0, budget)
	if s.many == nil {
		s.disp = probeRecorder{s.disp, h, budget}
	} else {
		for i := range s.many.fronts {
			f := &s.many.fronts[i]
			f.disp = probeRecorder{f.disp, h, budget}
		}
		s.many.enter(s, 0)
	}
	s.run()
	return nil
}

// typeName is t with its package path, "*main.Mine" or "example.com/p.Mine".
func typeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		return "*" + typeName(t.Elem())
	}
	if t.PkgPath() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}
