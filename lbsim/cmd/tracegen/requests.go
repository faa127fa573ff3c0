package main

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// requestLog is the request log of notebook 11 ("From a request log to a
// decision"), data/requests.csv: the arrival instant and the service time,
// in milliseconds on a backend of speed 1, of Jobs requests to a web
// service. The service times are heavy tailed, a bounded Pareto law (most
// requests take a few milliseconds, one in a thousand over 150 ms, a few
// over a second); arrivals are Poisson at Rate a millisecond, the load Load on
// the notebook's 40 backends (20 of speed 1, 20 of speed 1.6, capacity 52).
// Both are rounded to the microsecond, as a proxy's access log writes them.
type requestLog struct {
	Jobs  int
	Load  float64
	Sizes lbsim.Pareto
	Seed  uint64
}

// capacity is the notebook's backends' total speed: 20 x 1 + 20 x 1.6.
const capacity = 52

func defaultLog(seed uint64) (requestLog, error) {
	sizes, err := lbsim.NewPareto(1.6, 5, 5000)
	return requestLog{Jobs: 100_000, Load: 0.6, Sizes: sizes, Seed: seed}, err
}

func (g requestLog) String() string {
	return fmt.Sprintf("requests: %d requests, service times %s ms, Poisson arrivals at load %g on capacity %d, seed %d",
		g.Jobs, g.Sizes, g.Load, capacity, g.Seed)
}

// generate makes the log; the same seed always gives the same log.
func (g requestLog) generate() lbsim.Trace {
	rate := g.Load * capacity / g.Sizes.Mean() // requests a millisecond
	arrivals, sizes := lbsim.NewStream(g.Seed, 0x106a), lbsim.NewStream(g.Seed, 0x5125)
	micro := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	tr := lbsim.Trace{Times: make([]float64, g.Jobs), Sizes: make([]float64, g.Jobs)}
	t := 0.0
	for j := range g.Jobs {
		t += arrivals.ExpFloat64() / rate
		tr.Times[j] = micro(t)
		tr.Sizes[j] = max(micro(g.Sizes.Rand(sizes)), 0.001)
	}
	return tr
}

// writeLog writes the request log atomically into dir.
func writeLog(dir string, seed uint64) error {
	g, err := defaultLog(seed)
	if err != nil {
		return err
	}
	tr := g.generate()
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s (go run ./lbsim/cmd/tracegen -seed %d)\n", g, seed)
	if err := tr.WriteTrace(&b); err != nil {
		return err
	}
	path := filepath.Join(dir, "requests.csv")
	if err := files.Replace(path, b.Bytes(), nil); err != nil {
		return err
	}
	fmt.Printf("%s: %d requests over %.0f ms, mean service %.4g ms (law %.4g)\n", path, tr.Len(), tr.Times[tr.Len()-1], tr.Mean(), g.Sizes.Mean())
	return nil
}
