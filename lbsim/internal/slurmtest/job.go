package slurmtest

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Submit runs sbatch --parsable with args (options, then the script and its
// arguments) and returns the job id.
func (c *Cluster) Submit(args ...string) (string, error) {
	out, err := c.output("sbatch", append([]string{"--parsable"}, args...)...)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(out, ";") // "<id>;<cluster>" on federated setups
	return id, nil
}

// finished are the squeue states of a job that will not run again.
var finished = map[string]bool{
	"COMPLETED": true, "FAILED": true, "CANCELLED": true, "TIMEOUT": true,
	"NODE_FAIL": true, "PREEMPTED": true, "BOOT_FAIL": true, "DEADLINE": true, "OUT_OF_MEMORY": true,
}

// Wait polls squeue until every task of job id has finished and returns the
// final state of each (array task id, or the job id for a plain job). It is an
// error if a task did not complete successfully or timeout passes.
func (c *Cluster) Wait(id string, timeout time.Duration) (map[string]string, error) {
	var states map[string]string
	err := c.poll(timeout, "job "+id+" to finish", func() (bool, error) {
		out, err := c.output("squeue", "-h", "-j", id, "-t", "all", "-r", "-o", "%i %T")
		if err != nil {
			return false, err
		}
		states = map[string]string{}
		done := true
		for _, line := range strings.Split(out, "\n") {
			task, state, ok := strings.Cut(strings.TrimSpace(line), " ")
			if !ok {
				continue
			}
			states[strings.TrimPrefix(task, id+"_")] = state
			done = done && finished[state]
		}
		return done && len(states) > 0, nil
	})
	if err != nil {
		return states, fmt.Errorf("%w (states %v)", err, states)
	}
	var bad []string
	for task, state := range states {
		if state != "COMPLETED" {
			bad = append(bad, task+" "+state)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return states, fmt.Errorf("job %s: tasks did not complete: %s", id, strings.Join(bad, ", "))
	}
	return states, nil
}
