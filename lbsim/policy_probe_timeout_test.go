package lbsim

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// spinner is a policy whose Pick is given: it is shared by the probe's
// copies of the value (a func), and ID tells the tests' values apart.
type spinner struct {
	ID   string
	pick func(v *View) int
}

func (p spinner) String() string              { return p.ID }
func (spinner) Describe(Config) Description   { return Description{Reads: Count} }
func (p spinner) Pick(v *View, _ float64) int { return p.pick(v) }

// A Pick that spins without calling its View is stopped by nothing but the
// clock: Key gives up on it after probeTimeout with a key that says so, and
// does not probe that policy value again; the abandoned probe ends at the
// first View call its Pick makes.
func TestKeyProbeTimeout(t *testing.T) {
	defer func(d time.Duration) { probeTimeout = d }(probeTimeout)
	probeTimeout = 50 * time.Millisecond
	var entered atomic.Int32
	release := make(chan struct{})
	stopped := make(chan bool, 1)
	p := spinner{ID: "spins", pick: func(v *View) int {
		if entered.Add(1) > 1 {
			return 0 // a probe after the first finishes
		}
		returned := false
		defer func() { stopped <- !returned }()
		for spin := true; spin; {
			select {
			case <-release:
				spin = false
			default:
			}
		}
		v.Count(0)
		returned = true
		return 0
	}}
	c := Config{Servers: 20, Load: 0.3, Sizes: Exponential{M: 1}, Policy: p, Jobs: 1000, Seed: 1}
	for i := range 2 {
		done := make(chan string, 1)
		go func() { done <- c.Key() }()
		select {
		case key := <-done:
			why, unfinished := KeyUnfinished(key)
			if !unfinished || !strings.Contains(why, "policy spins: its probe did not finish within 50ms") {
				t.Errorf("key %d: %q, want one that says the probe did not finish within 50ms", i+1, key)
			}
		case <-time.After(3 * time.Minute):
			t.Fatalf("key %d: Key() did not return in 3 minutes", i+1)
		}
	}
	if n := entered.Load(); n != 1 {
		t.Errorf("the policy was probed again after its probe was abandoned: Pick entered %d times", n)
	}
	close(release)
	select {
	case inView := <-stopped:
		if !inView {
			t.Errorf("the abandoned probe's Pick returned from its View call; want it stopped there")
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the abandoned probe's Pick did not stop in 3 minutes")
	}
}
