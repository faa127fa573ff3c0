package lbsim

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The probe behind Config.Key (policyFingerprint) runs a user's Pick, which
// may never return there even though it does in the user's own runs: a
// Pick that draws servers until one has fewer than 3 jobs never returns on
// a probe system where every server holds 3 (time stands still during
// Pick). So the probe is bounded twice:
//
//   - By count: every View call is charged to the probe's budget, at most
//     maxProbeViewCalls a job (Start's calls go to the first); the call over
//     it panics with probeStop, and picked checks again in case Pick
//     recovered it. A count is the same on every machine, and so the key.
//   - By the clock, last: Key waits for the probe's goroutine at most
//     probeTimeout, for a Pick that neither returns nor calls its View.
//
// Either way the key says that the probe did not finish, and why
// (KeyUnfinished), so no cache may serve or store a result under it.
//
// Go cannot stop a goroutine from outside: an abandoned probe panics at its
// next View call or the end of its pick, and one that spins without calling
// its View keeps a CPU busy until the program ends. So that a sweep does
// not leave one such goroutine per configuration, a policy value whose
// probe was abandoned is not probed again (abandoned).

// maxProbeViewCalls is the most View calls a Pick may make for one job in
// the probe: a thousand per server at the probe's largest K, about 10 ms.
const maxProbeViewCalls = 1_000_000

// probeTimeout is how long Key waits for a probe (normally about 1 ms); a
// variable, for the tests.
var probeTimeout = 10 * time.Second

// keyUnfinished marks, in a key, a policy whose probe did not finish; why
// follows in parentheses.
const keyUnfinished = "probe-did-not-finish"

// KeyUnfinished reports whether key, a Config.Key or any text holding one
// (a cache key's JSON), names a policy of one's own whose probe did not
// finish, and why. Such a key names no known behaviour: a cache must
// neither serve nor store a result under it (nb does not).
func KeyUnfinished(key string) (why string, unfinished bool) {
	_, after, found := strings.Cut(key, keyUnfinished+"(")
	if !found {
		return "", false
	}
	why, _, _ = strings.Cut(after, ")")
	return why, true
}

// unfinishedKey is the policy part of a key whose probe did not finish.
func unfinishedKey(spec string, t reflect.Type, err error) string {
	why := strings.NewReplacer("(", "[", ")", "]").Replace(err.Error()) // KeyUnfinished reads up to ")"
	return fmt.Sprintf("%s#%s#%s(%s)", spec, typeName(t), keyUnfinished, why)
}

// probeBudget counts the View calls of one probe in the pick at hand.
type probeBudget struct {
	calls     int
	abandoned atomic.Bool // Key stopped waiting: the probe is to end
}

// probeStop stops a probe run: the value spend and picked panic with,
// and the error a run so stopped returns (what its Pick did).
type probeStop struct{ did string }

func (p probeStop) Error() string { return p.did }

// spend charges a View call to the probe's budget, if any. It calls no
// function, so that View.Workload stays small enough to be inlined.
func (s *sim) spend() {
	if b := s.budget; b != nil {
		if b.calls++; b.calls > maxProbeViewCalls || b.abandoned.Load() {
			panic(probeStop{}) // runRecorded asks b why
		}
	}
}

// picked ends a pick: it stops a probe over its budget (whose Pick
// recovered spend's panic) or abandoned, and starts the next pick's count.
func (b *probeBudget) picked() {
	if b.over() {
		panic(probeStop{})
	}
	b.calls = 0
}

// over reports whether the probe is to stop.
func (b *probeBudget) over() bool { return b.calls > maxProbeViewCalls || b.abandoned.Load() }

func (b *probeBudget) stop() probeStop {
	if b.abandoned.Load() {
		return probeStop{"was abandoned"}
	}
	return probeStop{fmt.Sprintf("made more than %d calls of its View for one job", maxProbeViewCalls)}
}

// abandoned holds, by policyID, why the probes Key stopped waiting for did not finish.
var abandoned sync.Map

// policyID names a policy value: its type and all of its data.
func policyID(p Policy) string {
	return fmt.Sprintf("%s#%016x", typeName(reflect.TypeOf(p)), dataHash(p, false))
}

// boundedProbe is probeRuns(h, c) run on a goroutine of its own, waited
// for at most probeTimeout; on a copy of c's policy, so that an abandoned
// probe never reads the user's value. A panic outside the probe's runs
// (c's policy's Validate) is raised again here, as if it ran here.
func boundedProbe(h uint64, c Config) (uint64, error) {
	id := policyID(c.Policy)
	if why, ok := abandoned.Load(id); ok {
		return 0, why.(error)
	}
	c.Policy, _ = ownPolicy(c.Policy)
	type result struct {
		h     uint64
		err   error
		panic any
	}
	done := make(chan result, 1) // an abandoned probe leaves its result here and ends
	b := new(probeBudget)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{panic: v}
			}
		}()
		h, err := probeRuns(h, c, b)
		done <- result{h: h, err: err}
	}()
	timer := time.NewTimer(probeTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.panic != nil {
			panic(r.panic)
		}
		return r.h, r.err
	case <-timer.C:
		b.abandoned.Store(true)
		err := fmt.Errorf("its probe did not finish within %v: its Pick (or Start, or Validate) may loop without calling the View", probeTimeout)
		abandoned.Store(id, err)
		return 0, err
	}
}
