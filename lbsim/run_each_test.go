package lbsim

import (
	"errors"
	"strings"
	"testing"
)

// RunEach hands the results over in order as they finish, and an error from
// emit stops the run: no configuration starts after it (issue 25, item 12:
// a sweep held every result until it wrote).
func TestRunEachStreams(t *testing.T) {
	var cfgs []Config
	for i := range 12 {
		cfgs = append(cfgs, Config{Servers: 4, Load: 0.3 + 0.05*float64(i), Sizes: Exponential{M: 1}, Policy: Random{},
			Jobs: 20000, Seed: 3, Workers: 1})
	}
	all, err := RunAll(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	finished := 0
	stop := errors.New("output failed")
	err = RunEach(cfgs, func(done, total int) { finished = done }, func(i int, r Result) error {
		order = append(order, i)
		if r.Wait.Mean != all[i].Wait.Mean {
			t.Errorf("configuration %d: streamed mean wait %v, RunAll %v", i, r.Wait.Mean, all[i].Wait.Mean)
		}
		if i == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("RunEach returned %v, want emit's error", err)
	}
	if len(order) != 3 || order[0] != 0 || order[1] != 1 || order[2] != 2 {
		t.Errorf("emitted %v, want [0 1 2]", order)
	}
	if finished != 3 {
		t.Errorf("%d of 12 configurations ran after emit failed at the third; want 3 (one worker)", finished)
	}
}

// endless is a trace that never ends: "0,1" lines forever.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	const line = "0,1\n"
	for i := range p {
		p[i] = line[e.n%len(line)]
		e.n++
	}
	return len(p), nil
}

// An endless trace (a pipe that never closes) stops at the job bound with
// an error instead of growing without limit (issue 25, item 13).
func TestEndlessTrace(t *testing.T) {
	defer func(n int) { traceJobLimit = n }(traceJobLimit)
	traceJobLimit = 100_000
	_, err := ReadTrace(&endless{})
	if err == nil || !strings.Contains(err.Error(), "more than 100000 jobs") {
		t.Errorf("an endless trace: %v; want an error at 100000 jobs", err)
	}
}
