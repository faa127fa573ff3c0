package lbsim

import (
	"fmt"
	"strings"
)

// Discipline is the service discipline of every server's queue.
type Discipline int

const (
	// FCFS serves jobs one at a time in arrival order.
	FCFS Discipline = iota
	// PS shares the server equally among the jobs present (processor sharing).
	PS
	// SRPT serves the job with the shortest remaining service time,
	// preempting the one in service when a shorter job arrives (ties: the
	// earlier job first, so equal sizes are served FCFS).
	SRPT
)

// disciplines describes each discipline: its name (its spec), what it
// does, whether it is preemptive and the rule that orders a server's jobs.
// It is the one list the parser, the checks, the menus, the docs and the
// servers read; a slice, so that a test can add a discipline of a known rule.
var disciplines = []struct {
	name, doc  string
	preemptive bool
	order      jobOrder
}{
	FCFS: {"fcfs", "first come, first served", false, arrivalOrder},
	PS:   {"ps", "processor sharing", true, virtualFinish},
	SRPT: {"srpt", "shortest remaining processing time first (preemptive)", true, remainingWork},
}

// jobOrder is the rule that orders a server's jobs (formulas: sim_preemptive.go).
type jobOrder uint8

const (
	arrivalOrder  jobOrder = iota // none kept: departures are known at dispatch, a FIFO of them (fifo)
	virtualFinish                 // by virtual finish time, every job served at once (PS)
	remainingWork                 // by remaining service time, the least served alone (SRPT)
)

func (d Discipline) String() string {
	if d.valid() {
		return disciplines[d].name
	}
	return fmt.Sprintf("Discipline(%d)", int(d))
}

func (d Discipline) valid() bool { return d >= 0 && int(d) < len(disciplines) }

// Preemptive reports whether a job's service can be interrupted (PS,
// SRPT): its "wait" is then its response less its service, not the time
// before it starts, and the mean response is what a run measures.
func (d Discipline) Preemptive() bool { return d.valid() && disciplines[d].preemptive }

// disciplineNames is "fcfs, ps or srpt", for docs and errors.
func disciplineNames() string {
	var names []string
	for _, d := range disciplines {
		names = append(names, d.name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
