package lbsim

import (
	"fmt"
	"reflect"
)

// policyKey is c.Policy's part of Config.Key. A built-in policy (one with
// its own dispatcher, which only this package can give) is its spec: its
// code is covered by CodeVersion. Any other policy is a user's, whose code
// CodeVersion does not see and who may edit Pick or a field that String()
// does not print between two runs of a notebook; it is known by what it
// does: its spec, its Go type, and a fingerprint of its exported fields and
// of the servers Pick chooses on a fixed probe (see policyFingerprint).
func policyKey(c Config) string {
	p := c.Policy
	if p == nil {
		return "none"
	}
	if _, builtin := p.(fastPolicy); builtin {
		return p.String()
	}
	return fmt.Sprintf("%s#%s#%016x", p.String(), typeName(reflect.TypeOf(p)), policyFingerprint(c))
}

// policyFingerprint hashes c.Policy's exported fields and the servers its
// Pick chooses in short runs with a fixed seed (probeJobs jobs each), with
// c's dispatchers (probeDispatchers): on the probe systems below (unequal
// speeds, a heavy-tailed size law, a stale board) and, when K <=
// maxProbeServers, on c's own system (probeOf). A run the policy refuses
// (its Validate) or that stops (a panic, a bad server) adds its error text
// instead. Each run is on a copy of the policy (ownPolicy): the key leaves
// the user's value as it was.
//
// It is a test of behaviour, not a proof: an edit that changes no choice
// in these runs (a branch taken only at K = 5000, or after 10^5 jobs, or
// with more than maxProbeDispatchers dispatchers, or on unexported state
// that Pick does not reach here) is not seen, and the cached result is
// served. A policy that draws from a global random source or the clock,
// instead of View.Rand, has a new fingerprint every run and is never served
// from the cache (one with a random source in its value is refused when it
// runs: policyKept). Recompute by hand when in doubt (nb.Fresh, or
// LBSIM_NO_CACHE=1).
func policyFingerprint(c Config) uint64 {
	h := dataHash(c.Policy, true)
	runs := probeSystems[:]
	if c.Servers >= 1 && c.Servers <= maxProbeServers {
		runs = append(runs, c)
	}
	for _, run := range runs {
		h = probe(h, probeOf(c, run))
	}
	return h
}

// probeOf is the probe of c's policy on run's system: with c's policy and
// dispatchers, probeJobs jobs from probeSeed in one replication, without
// warm-up, precision target or extra measures.
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

// probe folds into h the servers chosen in one run of cfg, or why it did not run.
func probe(h uint64, cfg Config) uint64 {
	if err := cfg.Validate(); err != nil {
		return fnvString(h, "invalid: "+err.Error())
	}
	if err := runRecorded(&cfg, &h); err != nil {
		return fnvString(h, "stopped: "+err.Error())
	}
	return h
}

// probeRecorder is a dispatcher that hashes into h the choices of the one it wraps.
type probeRecorder struct {
	d dispatcher
	h *uint64
}

func (r probeRecorder) pick(t, x float64) int {
	k := r.d.pick(t, x)
	*r.h = fnvUint64(*r.h, uint64(k))
	return k
}

// runRecorded simulates one replication of cfg with a recorder in the
// place of each dispatcher.
func runRecorded(cfg *Config, h *uint64) (err error) {
	var s *sim
	defer func() {
		if s != nil {
			s.srv.held.done()
		}
		if v := recover(); v != nil {
			err = fmt.Errorf("%v", v)
		}
	}()
	s = newSim(cfg, 0)
	if s.many == nil {
		s.disp = probeRecorder{s.disp, h}
	} else {
		for i := range s.many.fronts {
			f := &s.many.fronts[i]
			f.disp = probeRecorder{f.disp, h}
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
