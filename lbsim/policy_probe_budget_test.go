package lbsim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/testpolicy"
)

// keyWithin is c.Key(), or a failure if it takes longer than a guard far
// above its budget (a hang, not a speed: the probe takes milliseconds).
func keyWithin(t *testing.T, c lbsim.Config) string {
	t.Helper()
	done := make(chan string, 1)
	go func() { done <- c.Key() }()
	select {
	case k := <-done:
		return k
	case <-time.After(3 * time.Minute):
		t.Fatalf("Key() of policy %s did not return in 3 minutes", c.Policy)
		return ""
	}
}

// A Pick that draws servers until one has fewer than 3 jobs returns on its
// own lightly loaded system, and never on a probe system where every
// server holds 3: Key stops it on the budget of View calls and says so, the
// same on every call, and the user's own runs are not touched.
func TestKeyProbeBudget(t *testing.T) {
	c := lbsim.Config{Servers: 20, Load: 0.3, Sizes: lbsim.Exponential{M: 1}, Jobs: 20_000, Seed: 1}
	for _, p := range []lbsim.Policy{testpolicy.UnderThree{}, stubborn{}} {
		c.Policy = p
		if _, err := lbsim.Run(c); err != nil {
			t.Fatalf("%s on its own system: %v", p, err)
		}
		key := keyWithin(t, c)
		why, unfinished := lbsim.KeyUnfinished(key)
		if !unfinished || !strings.Contains(why, "policy "+p.String()+": its Pick made more than 1000000 calls of its View for one job") {
			t.Errorf("%s: key %q, want one that says the probe did not finish (unfinished %v, why %q)", p, key, unfinished, why)
		}
		if again := keyWithin(t, c); again != key {
			t.Errorf("%s: the key of an unfinished probe changes from call to call: %q, then %q", p, key, again)
		}
	}
	if why, unfinished := lbsim.KeyUnfinished(keyBase().Key()); unfinished {
		t.Errorf("a built-in policy's key is unfinished: %q", why)
	}
}

// stubborn is UnderThree recovering every panic in its Pick, the budget's
// included: it then returns server 0, and the probe is stopped all the same.
type stubborn struct{}

func (stubborn) String() string { return "stubborn" }
func (stubborn) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Count}
}
func (stubborn) Pick(v *lbsim.View, x float64) (k int) {
	defer func() { recover() }()
	return testpolicy.UnderThree{}.Pick(v, x)
}

// The policy part of the keys of policies that finish the probe, computed
// before the probe had a budget: the budget changes none of them. The last
// (a probe run stopped by a bad pick, whose text the key holds) was the
// address of an error before, a new key every time; it is now the same on
// every call.
func TestKeyProbeBudgetKeepsKeys(t *testing.T) {
	e := lbsim.Exponential{M: 1}
	for _, tc := range []struct {
		c    lbsim.Config
		want string
	}{
		{lbsim.Config{Servers: 4, Load: 0.5, Sizes: e, Policy: testpolicy.New(2), Jobs: 1000, Reps: 2, Seed: 1},
			"policy=by-speed#github.com/perfeval/lbsim/lbsim/internal/testpolicy.SpeedPow#d9d9daf8fbf50355"},
		{lbsim.Config{Servers: 10, Load: 0.7, Sizes: e, Policy: testpolicy.NewFronts(true), Dispatchers: 3,
			DispatcherWeights: []float64{1, 2, 3}, Refresh: 1, Stagger: true, Jobs: 1000, Seed: 1},
			"policy=fronts#github.com/perfeval/lbsim/lbsim/internal/testpolicy.Fronts#5e0d129b835fb90b"},
		{lbsim.Config{Servers: 100, Load: 0.7, Sizes: e, Policy: leastOfTwo{}, Dispatchers: 10, Jobs: 1000, Seed: 1},
			"policy=own#github.com/perfeval/lbsim/lbsim_test.leastOfTwo#b4dc6459d857e0e3"},
		{lbsim.Config{Servers: 5000, Load: 0.7, Sizes: e, Policy: leastOfTwo{}, Jobs: 1000, Seed: 1},
			"policy=own#github.com/perfeval/lbsim/lbsim_test.leastOfTwo#26c7fc6a2f08d5db"},
		{lbsim.Config{Servers: 8, Load: 0.7, Sizes: e, Policy: &countTurns{}, Refresh: 0.5, Jobs: 1000, Seed: 1},
			"policy=turns#*github.com/perfeval/lbsim/lbsim_test.countTurns#0ab66a502a85ca13"},
		{lbsim.Config{Servers: 8, Load: 0.7, Sizes: e, Policy: pastEnd{}, Jobs: 1000, Seed: 1},
			"policy=past-end#github.com/perfeval/lbsim/lbsim_test.pastEnd#93af7c3380250547"},
	} {
		for range 2 {
			if got, _, _ := strings.Cut(keyWithin(t, tc.c), " "); got != tc.want {
				t.Errorf("key %s, want %s", got, tc.want)
			}
		}
	}
}

// leastOfTwo is LL-2 through the View.
type leastOfTwo struct{}

func (leastOfTwo) String() string { return "own" }
func (leastOfTwo) Pick(v *lbsim.View, _ float64) int {
	return v.Least(v.Sample(2, false), lbsim.Workload)
}

// countTurns keeps a turn from job to job (Start) and sends a job to the
// server at its turn or the next, whichever has fewer jobs.
type countTurns struct{ Skip int }

func (*countTurns) String() string { return "turns" }
func (*countTurns) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Count}
}
func (p *countTurns) Start(*lbsim.View) lbsim.Policy { return &turns{skip: p.Skip + 1} }
func (p *countTurns) Pick(*lbsim.View, float64) int  { panic("not started") }

type turns struct{ skip, at int }

func (*turns) String() string { return "turns" }
func (t *turns) Pick(v *lbsim.View, _ float64) int {
	t.at = (t.at + t.skip) % v.K()
	next := (t.at + 1) % v.K()
	if v.Count(next) < v.Count(t.at) {
		return next
	}
	return t.at
}

// pastEnd picks server K after 10 jobs: the probe's runs stop with an error.
type pastEnd struct{}

func (pastEnd) String() string { return "past-end" }
func (pastEnd) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.NoState}
}
func (pastEnd) Pick(v *lbsim.View, _ float64) int {
	if v.Job() >= 10 {
		return v.K()
	}
	return int(v.Job()) % v.K()
}
