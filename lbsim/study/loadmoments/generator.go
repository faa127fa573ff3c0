// Package loadmoments generates the traces of the "load moments" study
// (notebook 06): a saw-tooth of interarrival times with i.i.d. sizes,
// reproducible from a seed, and the study's four traces, replayed through
// lbsim by lbsim.LoadTrace and Config.Trace.
package loadmoments

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/perfeval/lbsim/lbsim"
)

// Generator generates a synthetic trace: a deterministic saw-tooth of
// interarrival times and i.i.d. sizes, reproducible from Seed.
//
// Jobs come in Cycles cycles of RampJobs + HoldJobs jobs. Within a cycle,
// the gap before job j (j = 0, 1, ...) decreases linearly from Start to
// Floor over the ramp, then stays at Floor:
//
//	A_j = Start - (Start - Floor) min(j, RampJobs) / RampJobs   (A_j = Floor if RampJobs = 0),
//
// and the first job of the trace arrives at time 0. With Floor = Start the
// rate is constant (a deterministic arrival stream). Times are rounded to
// 1e-3 time units so the CSV stays short; sizes are drawn from Sizes with a
// PCG stream seeded by Seed.
//
// With K speed-1 servers the offered load moves from E[X]/(K Start) to
// E[X]/(K Floor) (see Loads); a Floor below E[X]/K overloads the servers.
type Generator struct {
	Name     string        // short name, also the CSV file stem (e.g. "trace1")
	Sizes    lbsim.SizeLaw // job sizes (durations on a speed-1 server)
	Start    float64       // interarrival time at the start of each cycle, > 0
	Floor    float64       // interarrival time after the ramp, 0 < Floor <= Start
	RampJobs int           // jobs over which the gap falls from Start to Floor (>= 0)
	HoldJobs int           // jobs at the floor after each ramp (>= 0)
	Cycles   int           // repetitions of ramp + hold (>= 1)
	Seed     uint64        // seed of the size stream
}

// maxTraceJobs bounds a generated trace (a trace is held in memory), as it
// bounds a trace read.
const maxTraceJobs = lbsim.MaxTraceJobs

// Jobs is the number of jobs the generator makes: Cycles (RampJobs + HoldJobs).
func (g Generator) Jobs() int { return g.Cycles * (g.RampJobs + g.HoldJobs) }

// Loads returns the offered load on K speed-1 servers at the start of a cycle
// and at the floor: E[X]/(K Start) and E[X]/(K Floor).
func (g Generator) Loads(k int) (start, floor float64) {
	m := g.Sizes.Mean()
	return m / (float64(k) * g.Start), m / (float64(k) * g.Floor)
}

// Validate checks the parameters, naming the bad value, its range and a fix.
func (g Generator) Validate() error {
	if g.Sizes == nil {
		return errors.New("trace generator: sizes are missing; e.g. lbsim.Deterministic{X0: 500} or lbsim.NewModal(100, 500, 1000)")
	}
	if err := g.Sizes.Validate(); err != nil {
		return fmt.Errorf("trace generator: %w", err)
	}
	if !(g.Start >= lbsim.MinMagnitude && g.Start <= lbsim.MaxMagnitude) {
		return fmt.Errorf("trace generator: start interarrival %v is invalid: need %g <= start <= %g; e.g. 60", g.Start, lbsim.MinMagnitude, lbsim.MaxMagnitude)
	}
	if math.IsNaN(g.Floor) || g.Floor <= 0 || g.Floor > g.Start {
		return fmt.Errorf("trace generator: floor interarrival %v is invalid: need 0 < floor <= start (%v); use floor = start for a constant rate", g.Floor, g.Start)
	}
	if g.RampJobs < 0 || g.HoldJobs < 0 {
		return fmt.Errorf("trace generator: ramp jobs %d and hold jobs %d must both be >= 0", g.RampJobs, g.HoldJobs)
	}
	if g.Cycles < 1 {
		return fmt.Errorf("trace generator: cycles %d is invalid: need >= 1 (the document's ramp traces use 2)", g.Cycles)
	}
	per := g.RampJobs + g.HoldJobs
	if per < 1 || per > maxTraceJobs/g.Cycles {
		return fmt.Errorf("trace generator: %d cycles of %d jobs is invalid: need between 1 and %d jobs in all; change ramp/hold jobs or cycles", g.Cycles, per, maxTraceJobs)
	}
	return nil
}

// Gap is the interarrival time before job j of a cycle (the formula above).
func (g Generator) Gap(j int) float64 {
	if g.RampJobs == 0 || j >= g.RampJobs {
		return g.Floor
	}
	return g.Start - (g.Start-g.Floor)*float64(j)/float64(g.RampJobs)
}

// Generate makes the trace; the same generator always gives the same trace.
func (g Generator) Generate() (lbsim.Trace, error) {
	if err := g.Validate(); err != nil {
		return lbsim.Trace{}, err
	}
	n := g.Jobs()
	tr := lbsim.Trace{Times: make([]float64, 0, n), Sizes: make([]float64, 0, n)}
	r := lbsim.NewStream(g.Seed, 0x7ace)
	t := 0.0
	for c := range g.Cycles {
		for j := range g.RampJobs + g.HoldJobs {
			if c > 0 || j > 0 {
				t += g.Gap(j)
			}
			tr.Times = append(tr.Times, math.Round(t*1000)/1000)
			tr.Sizes = append(tr.Sizes, g.Sizes.Rand(r))
		}
	}
	return tr, nil
}

// Servers is the number of servers the Traces are sized
// for.
const Servers = 10

// Traces are the four traces of the "load moments" study, in
// milliseconds, for Servers = 10 speed-1 servers:
//
//  1. constant durations (500 ms), constant gaps of 60 ms: load 0.833, so an
//     optimal (round-robin) assignment never queues; 4000 jobs;
//  2. durations 100, 500 or 1000 ms uniformly at random, gaps of 60 ms:
//     load 0.889; 4000 jobs;
//  3. constant durations, gaps falling linearly from 120 to 40 ms over 1500
//     jobs and held at 40 ms for 500 jobs (load 0.417 -> 1.25, overload for
//     the last ~190 ramp jobs and the hold), the cycle repeated twice;
//  4. the modal durations with the ramp of trace 3 (load 0.444 -> 1.333).
//
// Seed drives the modal sizes (traces 2 and 4 use Seed and Seed+1).
func Traces(seed uint64) []Generator {
	constant := lbsim.Deterministic{X0: 500}
	modal := lbsim.NewModal(100, 500, 1000)
	flat := Generator{Start: 60, Floor: 60, HoldJobs: 4000, Cycles: 1}
	ramp := Generator{Start: 120, Floor: 40, RampJobs: 1500, HoldJobs: 500, Cycles: 2}
	with := func(g Generator, name string, sizes lbsim.SizeLaw, seed uint64) Generator {
		g.Name, g.Sizes, g.Seed = name, sizes, seed
		return g
	}
	return []Generator{
		with(flat, "trace1", constant, seed),
		with(flat, "trace2", modal, seed),
		with(ramp, "trace3", constant, seed+1),
		with(ramp, "trace4", modal, seed+1),
	}
}

// String describes the generator in one line (used as the CSV comment).
func (g Generator) String() string {
	sizes := "<nil>"
	if g.Sizes != nil {
		sizes = g.Sizes.String()
	}
	return fmt.Sprintf("%s: sizes %s, gaps %s -> %s over %d jobs, hold %d jobs, %d cycle(s), seed %d",
		g.Name, sizes, strconv.FormatFloat(g.Start, 'g', -1, 64), strconv.FormatFloat(g.Floor, 'g', -1, 64), g.RampJobs, g.HoldJobs, g.Cycles, g.Seed)
}
