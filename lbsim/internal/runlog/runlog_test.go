package runlog

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestSummary: a result computed and read again in the same run is computed, one read first
// from the cache is from the cache, and concurrent writers lose no line.
func TestSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.log")
	t.Setenv(Env, path)
	events := []Event{
		{Quick: true},
		{Key: "a", Seconds: 1.5}, // computed by this run
		{Key: "a", Hit: true},    // read again by a later cell
		{Key: "b", Hit: true},    // computed by an earlier run
		{Key: "c", Hit: true},
	}
	for _, e := range events {
		if err := Append(e); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); _ = Append(Event{Key: "d", Seconds: 0.01}) }()
	}
	wg.Wait()
	s, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Summary{Quick: true, Results: 4, FromCache: 2, Compute: 2 * time.Second}
	if s.Quick != want.Quick || s.Results != want.Results || s.FromCache != want.FromCache || (s.Compute-want.Compute).Abs() > time.Millisecond {
		t.Errorf("Read = %+v, want %+v", s, want)
	}
	if got, want := s.String(), "2 of 4 results from the cache, 2 computed in 2.0 s"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		s    Summary
		want string
	}{
		{Summary{}, ""},
		{Summary{Results: 1, Compute: 300 * time.Millisecond}, "1 result computed in 0.3 s"},
		{Summary{Results: 7, FromCache: 7}, "all 7 results from the cache"},
	} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%+v: String = %q, want %q", tt.s, got, tt.want)
		}
	}
	if s, err := Read(filepath.Join(t.TempDir(), "none")); err != nil || s != (Summary{}) {
		t.Errorf("missing log: %+v, %v; want an empty summary", s, err)
	}
}

// TestAppendUnset: without LBSIM_RUN_LOG nothing is written and nothing fails.
func TestAppendUnset(t *testing.T) {
	t.Setenv(Env, "")
	if err := Append(Event{Quick: true}); err != nil {
		t.Fatal(err)
	}
}

// TestFIFO: a log named by LBSIM_RUN_LOG that is a FIFO is an error at once, for the writer
// (every cached result logs) and the reader; a blocking open would hang both forever.
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	t.Setenv(Env, fifo)
	for name, f := range map[string]func() error{
		"Append": func() error { return Append(Event{Key: "a"}) },
		"Read":   func() error { _, err := Read(fifo); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- f() }()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Errorf("%s on a FIFO blocked for a minute", name)
			for _, flag := range []int{os.O_RDONLY, os.O_WRONLY} { // let it return
				if g, oerr := os.OpenFile(fifo, flag|syscall.O_NONBLOCK, 0); oerr == nil {
					g.Close()
				}
			}
			err = <-done
		}
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s on a FIFO: %v, want a refusal", name, err)
		}
	}
}

// TestSummaryCountsConfigurations: an entry that holds a run of 12 configurations (one cache
// entry of nb.RunAll) counts 12 results, computed or from the cache; an event without a count
// (a value of nb.Cached, or a log written before the count) counts 1.
func TestSummaryCountsConfigurations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.log")
	t.Setenv(Env, path)
	for _, e := range []Event{
		{Key: "sweep", Results: 12, Seconds: 1},
		{Key: "sweep", Results: 12, Hit: true}, // a later cell reads it again
		{Key: "curve", Seconds: 0.5},
	} {
		if err := Append(e); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.String(), "13 results computed in 1.5 s"; s.Results != 13 || s.FromCache != 0 || got != want {
		t.Errorf("Read = %+v, %q; want 13 results computed, %q", s, got, want)
	}
	if err := Append(Event{Key: "old", Results: 5, Hit: true}); err != nil {
		t.Fatal(err)
	}
	if s, _ := Read(path); s.String() != "5 of 18 results from the cache, 13 computed in 1.5 s" {
		t.Errorf("with 5 from the cache: %q", s.String())
	}
	if got := (Summary{Results: 1, FromCache: 1}).String(); got != "all 1 result from the cache" {
		t.Errorf("one result from the cache: %q", got)
	}
}
