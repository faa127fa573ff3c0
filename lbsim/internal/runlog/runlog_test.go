package runlog

import (
	"path/filepath"
	"sync"
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
