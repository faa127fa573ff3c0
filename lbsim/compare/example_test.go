package compare_test

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
)

// RND against RR on the 99th percentile of the response, on the same seed
// and so the same arrivals and sizes: the difference with its paired
// interval, the unpaired one beside it, and the exact difference (RND makes
// each server M/M/1, RR makes it E_4/M/1, both with exact quantiles). RND
// and RR gain least from pairing (RND's own random choices set most of its
// queues): here the two intervals are alike.
func ExampleResultsOn() {
	a := lbsim.Config{Servers: 4, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{}, Jobs: 100_000, Reps: 10, Seed: 21}
	b := a
	b.Policy = lbsim.RoundRobin{}
	ra, err := lbsim.Run(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	rb, err := lbsim.Run(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := compare.ResultsOn(ra, rb, "p99_response")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s - %s, %s: %.3f ± %.3f paired (± %.3f unpaired), exact %.3f\n",
		c.A, c.B, c.Metric, c.Diff, c.DiffCI95, c.UnpairedDiffCI95, c.ExactDiff)
	// Output: RND - RR, p99_response: 8.057 ± 0.907 paired (± 1.054 unpaired), exact 7.979
}
