package lbsim_test

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim"
)

// Neighbours is a policy of one's own: the less loaded of a random server
// and the next one (a power of two choices that samples one neighbourhood).
// A policy is a type with String and Pick; Reads is optional and says what
// state Pick looks at.
type Neighbours struct{}

func (Neighbours) String() string { return "neighbours" }
func (Neighbours) Describe(lbsim.Config) lbsim.Description {
	return lbsim.Description{Reads: lbsim.Workload}
}
func (Neighbours) Pick(v *lbsim.View, _ float64) int {
	a := v.Rand().IntN(v.K())
	b := (a + 1) % v.K()
	if v.Workload(b) < v.Workload(a) {
		return b
	}
	return a
}

// A user-defined policy runs like the built-in ones and lands between random
// dispatch and LL-2 (exponential sizes, K=20, rho=0.9; M/M/1 waits 9).
func ExamplePolicy() {
	for _, p := range []lbsim.Policy{lbsim.Random{}, Neighbours{}, lbsim.LeastLoaded{D: 2}} {
		res, err := lbsim.Run(lbsim.Config{Servers: 20, Load: 0.9, Sizes: lbsim.Exponential{M: 1},
			Policy: p, Jobs: 200_000, Warmup: 20_000, Reps: 4, Seed: 7})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-10s mean wait %.1f\n", lbsim.Label(p), res.Wait.Mean)
	}
	// Output:
	// RND        mean wait 8.9
	// neighbours mean wait 1.9
	// LL-2       mean wait 1.2
}

// The same policy on a stale board: with Refresh > 0 the View's Workload is
// the board's value (refreshed every 5 time units), with Tally plus the
// dispatcher's own sends since the refresh. The policy's code is unchanged.
func ExamplePolicy_staleBoard() {
	for _, b := range []struct {
		refresh float64
		tally   bool
	}{{0, false}, {5, false}, {5, true}} {
		res, err := lbsim.Run(lbsim.Config{Servers: 20, Load: 0.9, Sizes: lbsim.Exponential{M: 1},
			Policy: Neighbours{}, Refresh: b.refresh, Tally: b.tally, Jobs: 200_000, Warmup: 20_000, Reps: 4, Seed: 7})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("refresh %v, tally %-5v: mean wait %.1f\n", b.refresh, b.tally, res.Wait.Mean)
	}
	// Output:
	// refresh 0, tally false: mean wait 1.9
	// refresh 5, tally false: mean wait 4.0
	// refresh 5, tally true : mean wait 1.9
}
