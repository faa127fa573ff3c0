package nb

import (
	"fmt"
	"sync"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

// logRun records e in the run log that nbrun reads for a report's index (LBSIM_RUN_LOG, see
// internal/runlog): a report's outputs read the same whether a result was computed or came
// from the cache, so the run says so here. A log that cannot be written is warned about once.
func logRun(e runlog.Event) {
	if err := runlog.Append(e); err != nil {
		warnOnce("run log", fmt.Sprintf("nb: the run log is not written: %v; unset %s, or point it at a writable file", err, runlog.Env))
	}
}

// computeLogged runs compute for the cache entry named name, which holds results results (a
// run's configurations), and logs how long it took.
func computeLogged[T any](name string, results int, compute func() (T, error)) (T, error) {
	start := time.Now()
	v, err := compute()
	if err == nil {
		logRun(runlog.Event{Key: name, Results: results, Seconds: time.Since(start).Seconds()})
	}
	return v, err
}

// logQuick records, once per program, that it runs quick: reports of the run carry a banner.
var logQuick = onceLogQuick()

func onceLogQuick() func() { return sync.OnceFunc(func() { logRun(runlog.Event{Quick: true}) }) }
