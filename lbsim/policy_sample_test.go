package lbsim

import (
	"runtime"
	"strings"
	"testing"
)

// Item 11: with replacement d is refused beyond what sampling every server
// already gives, and the draws need no buffer of d servers.
func TestSampleSizeBounded(t *testing.T) {
	for _, p := range []Policy{LeastLoaded{D: 1 << 30, Replace: true}, LeastLoaded{D: 10_000_000, Replace: true}, JSQ{D: 10_000_000, Replace: true}, JSQ{D: 3201, Replace: true, Mem: 1}} {
		cfg := Config{Servers: 50, Load: 0.5, Sizes: Exponential{M: 1}, Policy: p, Jobs: 2}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), "need 1 <= d <= 3200") {
			t.Errorf("%s: err = %v, want d bounded by 64 K", p, err)
		}
	}
	// Against the same run with d = 2: what d adds, not the measurements'
	// buffers (a buffer of 3200 servers is 12,800 bytes or more, one a job 1000 times that).
	allocated := func(p Policy) int64 {
		cfg := Config{Servers: 50, Load: 0.5, Sizes: Exponential{M: 1}, Policy: p, Jobs: 1000}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		runSim(&cfg, 0)
		runtime.ReadMemStats(&after)
		return int64(after.TotalAlloc - before.TotalAlloc)
	}
	for _, p := range [][2]Policy{
		{LeastLoaded{D: 3200, Replace: true}, LeastLoaded{D: 2, Replace: true}},
		{JSQ{D: 3200, Replace: true}, JSQ{D: 2, Replace: true}},
		{JSQ{D: 3200, Replace: true, Mem: 2}, JSQ{D: 2, Replace: true, Mem: 2}},
	} {
		if n, base := allocated(p[0]), allocated(p[1]); n-base > 8_000 {
			t.Errorf("%s: a run of 1000 jobs allocated %d bytes, %d more than with d = 2: want no buffer of d servers", p[0], n, n-base)
		}
	}
	// The draws streamed are the numbers drawn into a buffer: Pick (View.Sample) agrees.
	cfg := Config{Servers: 5, Load: 0.7, Sizes: Exponential{M: 1}, Policy: LeastLoaded{D: 7, Replace: true}, Jobs: 20000, Seed: 3}
	want, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policy = viaPick{LeastLoaded{D: 7, Replace: true}}
	got, err := Run(cfg)
	if err != nil || got.Wait != want.Wait {
		t.Errorf("through Pick: %v %v, want %v", got.Wait, err, want.Wait)
	}
}

// viaPick hides a built-in policy's dispatcher: the run calls its Pick.
type viaPick struct{ LeastLoaded }

// runSim runs replication rep of cfg by hand, as runReplication does, and
// returns the charge of its per-job state to the shared account.
func runSim(cfg *Config, rep int) replication {
	s := newSim(cfg, rep)
	defer s.srv.held.done()
	return s.run()
}
