package lbsim

import (
	"fmt"
	"reflect"
	"sort"
)

// policyKey is c.Policy's part of Config.Key. A built-in policy (one with
// its own dispatcher, which only this package can give) is its spec: its
// code is covered by CodeVersion; one that acts as a simpler one under c
// (actor) is that one's spec, so one system is one key. Any other policy is a user's, whose code
// CodeVersion does not see and who may edit Pick or a field that String()
// does not print between two runs of a notebook; it is known by what it
// does: its spec, its Go type, and a fingerprint of its exported fields and
// of the servers Pick chooses on a fixed probe (see policyFingerprint).
// actor: a built-in policy whose options have no effect under some
// configurations (JIQ's I-queue options with one dispatcher): actsAs is the
// policy that runs the same, to the bit.
type actor interface{ actsAs(c *Config) Policy }

func policyKey(c Config) string {
	p := c.Policy
	if p == nil {
		return "none"
	}
	if _, builtin := p.(fastPolicy); builtin {
		if a, ok := p.(actor); ok {
			p = a.actsAs(&c)
		}
		return p.String()
	}
	return fmt.Sprintf("%s#%s#%016x", p.String(), typeName(reflect.TypeOf(p)), policyFingerprint(c))
}

// policyFingerprint hashes c.Policy's exported fields and the servers its
// Pick chooses in short runs with a fixed seed (probeJobs jobs each): on
// the probe systems below (unequal speeds, a heavy-tailed size law, a stale
// board) and, when K <= maxProbeServers, on c's own servers, sizes and
// board. A run the policy refuses (its Validate) or that stops (a panic, a
// bad server) adds its error text instead.
//
// It is a test of behaviour, not a proof: an edit that changes no choice
// in these runs (a branch taken only at K = 500, or after 10^5 jobs, or
// unexported state that Pick does not reach here) is not seen, and the
// cached result is served. A policy that draws from its own random source
// or the clock, instead of View.Rand, has a new fingerprint every run and
// is never served from the cache. Recompute by hand when in doubt
// (nb.Fresh, or LBSIM_NO_CACHE=1).
func policyFingerprint(c Config) uint64 {
	h := fnvString(fnvOffset, exportedFields(reflect.ValueOf(c.Policy)))
	runs := probeSystems[:]
	if c.Servers >= 1 && c.Servers <= maxProbeServers {
		own := Config{Servers: c.Servers, Speeds: c.Speeds, Load: c.Load, Sizes: c.sizes(), Arrivals: c.Arrivals,
			Refresh: c.Refresh, Tally: c.Tally, Discipline: c.Discipline, AllowOverload: c.AllowOverload}
		runs = append(runs, own)
	}
	for _, run := range runs {
		run.Policy, run.Jobs, run.Seed = c.Policy, probeJobs, probeSeed
		h = probe(h, run)
	}
	return h
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
	rec := &probeRecorder{h: h}
	if err := rec.run(&cfg); err != nil {
		return fnvString(rec.h, "stopped: "+err.Error())
	}
	return rec.h
}

// probeRecorder is a dispatcher that hashes the choices of the one it wraps.
type probeRecorder struct {
	d dispatcher
	h uint64
}

func (r *probeRecorder) pick(t, x float64) int {
	k := r.d.pick(t, x)
	r.h = fnvUint64(r.h, uint64(k))
	return k
}

// run simulates one replication of cfg with the recorder in the dispatcher's place.
func (r *probeRecorder) run(cfg *Config) (err error) {
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
	r.d, s.disp = s.disp, r
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

// exportedFields is a canonical text of v's exported data, through
// pointers, slices and maps (sorted): no addresses, no unexported fields.
func exportedFields(v reflect.Value) string {
	var b []byte
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		if depth > 16 { // a cycle, or deep enough
			b = append(b, "..."...)
			return
		}
		switch v.Kind() {
		case reflect.Invalid:
			b = append(b, "nil"...)
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				b = append(b, "nil"...)
				return
			}
			walk(v.Elem(), depth+1)
		case reflect.Struct:
			b = append(b, '{')
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() {
					b = append(b, f.Name+":"...)
					walk(v.Field(i), depth+1)
					b = append(b, ' ')
				}
			}
			b = append(b, '}')
		case reflect.Slice, reflect.Array:
			b = fmt.Appendf(b, "[%d:", v.Len())
			for i := range v.Len() {
				walk(v.Index(i), depth+1)
				b = append(b, ' ')
			}
			b = append(b, ']')
		case reflect.Map:
			keys := v.MapKeys()
			text := make(map[reflect.Value]string, len(keys))
			for _, k := range keys {
				text[k] = fmt.Sprintf("%#v", k)
			}
			sort.Slice(keys, func(i, j int) bool { return text[keys[i]] < text[keys[j]] })
			b = append(b, "map["...)
			for _, k := range keys {
				b = append(b, text[k]+":"...)
				walk(v.MapIndex(k), depth+1)
				b = append(b, ' ')
			}
			b = append(b, ']')
		case reflect.Func, reflect.Chan, reflect.UnsafePointer:
			b = fmt.Appendf(b, "%s", v.Type()) // an address is not the same from run to run
		default:
			b = fmt.Appendf(b, "%#v", v)
		}
	}
	walk(v, 0)
	return typeName(v.Type()) + string(b)
}
