package main

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"
)

// get asks backend b for one job and returns when its reply was read.
func get(t *testing.T, b *backend, id int, size time.Duration) time.Time {
	t.Helper()
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 30 * time.Second}).Get(
		fmt.Sprintf("http://%s/job?id=%d&us=%d", b.Addr, id, size.Microseconds()))
	if err != nil {
		t.Error(err)
		return time.Time{}
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("job %d: %s", id, resp.Status)
	}
	return time.Now()
}

// waitQueued waits until n requests have reached the backend, so that the
// sends are ordered.
func waitQueued(t *testing.T, b *backend, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b.arrived.Load() >= int64(n) || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Two requests at once to one backend, sizes 50 ms and 30 ms: the first is
// served on arrival and ends 50 ms later; the second starts at
// max(its arrival, the first's end deadline) and ends 30 ms after its start
// (80 ms from the first start when it queued), and no reply comes before
// its job's deadline. The records are exact: the deadlines come from the
// sizes, not from the wake-ups, so the rule holds to the nanosecond whether
// the second request queued or (a machine that stalled its send past 50 ms)
// found the backend idle.
func TestBackendFCFSDeadlines(t *testing.T) {
	origin := time.Now()
	b, err := startBackend(0, origin)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close(5 * time.Second)
	done := make([]time.Time, 2)
	ch := make(chan struct{})
	go func() { done[0] = get(t, b, 0, 50*time.Millisecond); ch <- struct{}{} }()
	waitQueued(t, b, 1)
	go func() { done[1] = get(t, b, 1, 30*time.Millisecond); ch <- struct{}{} }()
	<-ch
	<-ch
	recs := b.take()
	if len(recs) != 2 || recs[0].ID != 0 || recs[1].ID != 1 {
		t.Fatalf("records %+v: want jobs 0 and 1 in this order", recs)
	}
	r0, r1 := recs[0], recs[1]
	if r0.Start != r0.Recv {
		t.Errorf("job 0 found the backend idle but started at %v, arrived at %v", r0.Start, r0.Recv)
	}
	if r0.End-r0.Start != 50*time.Millisecond {
		t.Errorf("job 0: end - start = %v, want its size 50ms", r0.End-r0.Start)
	}
	if want := max(r1.Recv, r0.End); r1.Start != want {
		t.Errorf("job 1 arrived at %v and started at %v, want max(its arrival, job 0's end deadline %v) = %v", r1.Recv, r1.Start, r0.End, want)
	}
	if r1.End-r1.Start != 30*time.Millisecond {
		t.Errorf("job 1: end - start = %v, want its size 30ms", r1.End-r1.Start)
	}
	if r1.Recv < r0.End {
		if got := r1.End - r0.Start; got != 80*time.Millisecond {
			t.Errorf("job 1 queued but ended %v after job 0's start, want 80ms", got)
		}
	} else {
		t.Logf("job 1 arrived at %v, after job 0's end %v (a stalled send): it found the backend idle", r1.Recv, r0.End)
	}
	for i, r := range recs {
		if end := origin.Add(r.End); done[i].Before(end) {
			t.Errorf("job %d replied %v before its deadline", i, end.Sub(done[i]))
		}
	}
}

// Twenty jobs queued back to back: each starts at the previous one's end
// deadline, so the span is the sum of the sizes exactly, whatever the
// wake-ups, and the last reply is read after the last deadline (a busy
// machine delays a reply, not the schedule: no bound on how late).
func TestBackendNoDrift(t *testing.T) {
	origin := time.Now()
	b, err := startBackend(3, origin)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close(5 * time.Second)
	const n = 20
	sizes := make([]time.Duration, n)
	var sum time.Duration
	for i := range sizes {
		sizes[i] = time.Duration(3+i%4) * time.Millisecond
		sum += sizes[i]
	}
	done := make(chan time.Time, n)
	go func() { done <- get(t, b, 0, sizes[0]) }()
	waitQueued(t, b, 1)
	for i := 1; i < n; i++ {
		go func() { done <- get(t, b, i, sizes[i]) }()
		waitQueued(t, b, i+1)
	}
	var last time.Time
	for range n {
		if d := <-done; d.After(last) {
			last = d
		}
	}
	recs := b.take()
	if len(recs) != n {
		t.Fatalf("%d records, want %d", len(recs), n)
	}
	ids := make([]int, n)
	for i, r := range recs {
		ids[i] = r.ID
		if r.Backend != 3 {
			t.Errorf("job %d recorded at backend %d, want 3", r.ID, r.Backend)
		}
		if got := r.End - r.Start; got != sizes[r.ID] {
			t.Errorf("job %d: end - start = %v, want its size %v", r.ID, got, sizes[r.ID])
		}
		if i > 0 && r.Recv < recs[i-1].End && r.Start != recs[i-1].End {
			t.Errorf("job %d (queued) started at %v, want the previous end %v", r.ID, r.Start, recs[i-1].End)
		}
	}
	if !slices.IsSorted(ids) {
		t.Errorf("served in order %v, want the arrival order", ids)
	}
	// Every job but the first arrived while the backend was busy (each send
	// waited for the previous to be queued, 3 ms jobs at least), unless the
	// machine stalled a send past a whole job: then the span has a gap.
	gaps := time.Duration(0)
	for i := 1; i < n; i++ {
		if recs[i].Start > recs[i-1].End {
			gaps += recs[i].Start - recs[i-1].End
		}
	}
	if span := recs[n-1].End - recs[0].Start; span != sum+gaps {
		t.Errorf("span %v, want the sum of the sizes %v plus the idle gaps %v", span, sum, gaps)
	}
	lastEnd := origin.Add(recs[n-1].End)
	if last.Before(lastEnd) {
		t.Errorf("last reply %v before the last deadline", lastEnd.Sub(last))
	}
}
