// Package runlog is the record that a notebook's programs leave of one headless run, for its
// reports: whether the run was quick, and what nb.Cached did (which results came from the
// cache, how long the others took to compute). A report cannot tell these from its outputs,
// which read the same either way (issue 22). nbrun names a fresh file in LBSIM_RUN_LOG; each of
// GoNB's programs (one a cell) appends JSON lines to it; nbrun reads the [Summary].
package runlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Env names the variable that holds the log's path; unset, nothing is logged.
const Env = "LBSIM_RUN_LOG"

// Event is one line of the log.
type Event struct {
	Quick   bool    `json:"quick,omitempty"`   // the program runs quick (LBSIM_QUICK on)
	Key     string  `json:"key,omitempty"`     // a cached result, by its cache file's name
	Results int     `json:"results,omitempty"` // how many results it holds (a run's configurations); 0 is 1
	Hit     bool    `json:"hit,omitempty"`     // read from the cache, not computed
	Seconds float64 `json:"seconds,omitempty"` // how long computing it took
}

// Append adds e to the log named by $LBSIM_RUN_LOG, if set. Each event is one write of one line
// to a file opened for appending, so concurrent writers do not interleave. The log must be a
// regular file (files.OpenRegular): a FIFO would block every cached result.
func Append(e Event) error {
	path := os.Getenv(Env)
	if path == "" {
		return nil
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := files.OpenRegular(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	return errors.Join(err, f.Close())
}

// Summary is what a run's log says of it.
type Summary struct {
	Quick bool `json:"quick"`
	// Results counts the results asked of nb.Cached, each configuration of a run (nb.RunAll,
	// nb.Sweep: one cache entry) one result; FromCache those of them whose first request was
	// served by the cache, so computed by an earlier run. A result computed in this run and
	// read again by a later cell counts as computed.
	Results   int `json:"results"`
	FromCache int `json:"from_cache"`
	// Compute is the time spent computing results.
	Compute time.Duration `json:"compute_ns"`
}

// Read summarizes the log at path; no file is an empty log (the notebook cached nothing).
func Read(path string) (Summary, error) {
	var s Summary
	f, err := files.OpenRegular(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return s, fmt.Errorf("run log %s line %d: %w", path, n, err)
		}
		s.Quick = s.Quick || e.Quick
		s.Compute += time.Duration(e.Seconds * float64(time.Second))
		if e.Key == "" || seen[e.Key] {
			continue
		}
		seen[e.Key] = true
		n := max(e.Results, 1)
		s.Results += n
		if e.Hit {
			s.FromCache += n
		}
	}
	return s, sc.Err()
}

// String says where the results came from, as the reports' index shows it: "7 results
// computed in 30.2 s", "5 of 7 results from the cache, 2 computed in 1.1 s", "" when the run
// cached nothing.
func (s Summary) String() string {
	computed := fmt.Sprintf("computed in %.1f s", s.Compute.Seconds())
	switch {
	case s.Results == 0:
		return ""
	case s.FromCache == 0:
		return fmt.Sprintf("%s %s", number.Count(s.Results, "result"), computed)
	case s.FromCache == s.Results:
		return fmt.Sprintf("all %s from the cache", number.Count(s.Results, "result"))
	}
	return fmt.Sprintf("%d of %s from the cache, %d %s", s.FromCache, number.Count(s.Results, "result"), s.Results-s.FromCache, computed)
}
