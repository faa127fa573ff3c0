package nb

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

// TestRunLog: what the reports' index says of a run comes from Cached and Quick themselves. A
// result computed and read again counts as computed; a second run reading the same cache counts
// it as from the cache; LBSIM_NO_CACHE still logs its results.
func TestRunLog(t *testing.T) {
	saved := logQuick
	t.Cleanup(func() { logQuick = saved })
	cache := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", cache)
	t.Setenv("LBSIM_QUICK", "")
	run := func(name string, quick bool, keys ...int) runlog.Summary {
		t.Helper()
		log := filepath.Join(t.TempDir(), name)
		t.Setenv(runlog.Env, log)
		if quick {
			t.Setenv("LBSIM_QUICK", "1")
			logQuick = onceLogQuick() // a new program run
		}
		Quick()
		for _, k := range keys {
			if _, err := Cached(struct{ K int }{k}, func() (int, error) { return k * k, nil }); err != nil {
				t.Fatal(err)
			}
		}
		s, err := runlog.Read(log)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := run("first", false, 1, 2, 1); s.Results != 2 || s.FromCache != 0 || s.Quick {
		t.Errorf("first run: %+v, want 2 results computed, none from the cache, not quick", s)
	}
	if s := run("second", true, 1, 2, 3); s.Results != 3 || s.FromCache != 2 || !s.Quick {
		t.Errorf("second run: %+v, want 3 results, 2 from the cache, quick", s)
	}
	t.Setenv("LBSIM_NO_CACHE", "1")
	if s := run("uncached", false, 1); s.Results != 1 || s.FromCache != 0 {
		t.Errorf("LBSIM_NO_CACHE=1: %+v, want 1 result computed", s)
	}
}

// TestRunLogCountsConfigurations: a run of 12 configurations (one cache entry) is 12 results in
// the run log, computed the first time and from the cache the next: the index said "1 result
// computed" for a notebook that computed 12.
func TestRunLogCountsConfigurations(t *testing.T) {
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	t.Setenv("LBSIM_NO_CACHE", "")
	fakeNotebook(t)
	g := lbsim.Grid{Base: lbsim.Config{Servers: 2, Sizes: lbsim.Exponential{M: 1}, Jobs: 500, Reps: 2, Seed: 1},
		Policies: []lbsim.Policy{lbsim.Random{}, lbsim.RoundRobin{}, lbsim.LeastLoaded{D: 2}},
		Loads:    []float64{0.2, 0.4, 0.6, 0.8}}
	for _, want := range []string{"12 results computed in", "all 12 results from the cache"} {
		log := filepath.Join(t.TempDir(), "run.log")
		t.Setenv(runlog.Env, log)
		if _, err := RunAll("twelve", g.Configs()); err != nil {
			t.Fatal(err)
		}
		s, err := runlog.Read(log)
		if err != nil {
			t.Fatal(err)
		}
		if s.Results != 12 || !strings.HasPrefix(s.String(), want) {
			t.Errorf("run log %+v says %q, want %q", s, s.String(), want)
		}
	}
}
