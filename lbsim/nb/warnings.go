package nb

import (
	"fmt"
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

// resultWarnings are the warnings shown under the explorer's table.
//
// Stand-in until lbsim results carry their own warnings (Result.Warnings):
// then this returns r.Warnings and cfg is no longer needed.
func resultWarnings(cfg lbsim.Config, r lbsim.Result) []string {
	var ws []string
	if math.IsInf(cfg.Sizes.SecondMoment(), 1) && cfg.Discipline == lbsim.FCFS {
		ws = append(ws, "E[X^2] is infinite: an FCFS queue has no finite mean wait; the simulated mean grows with the run length")
	}
	if ref, ok := lbsim.Exact(cfg); ok && ref.Kind == lbsim.ExactValue && !math.IsInf(ref.Wait, 0) &&
		math.Abs(r.Wait.Mean-ref.Wait) > 3*r.Wait.CI95 {
		ws = append(ws, fmt.Sprintf("the exact mean wait %.4g is %.1f CI half-widths from the simulated %.4g: the run is too short for these sizes; raise Jobs",
			ref.Wait, math.Abs(r.Wait.Mean-ref.Wait)/r.Wait.CI95, r.Wait.Mean))
	}
	if r.Wait.CI95 > 0.2*r.Wait.Mean {
		ws = append(ws, fmt.Sprintf("the 95%% CI of the mean wait is ±%.0f%%: raise Jobs or Reps for a sharper value", 100*r.Wait.CI95/r.Wait.Mean))
	}
	return ws
}
