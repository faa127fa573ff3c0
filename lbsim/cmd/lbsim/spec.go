package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// sweepSpec describes a sweep once: the grid and everything else that
// changes its rows. It is what a -spec JSON file holds (keys are the flag
// names; lists for the grid axes) and, encoded canonically, what identifies
// the sweep in shard files. How the sweep runs (-workers, -shard, -out) is
// not part of it, so shards run with different core counts still merge.
type sweepSpec struct {
	Servers    []int     `json:"servers"`
	Speeds     []float64 `json:"speeds"`
	Load       []float64 `json:"load"`
	Sizes      []string  `json:"sizes"`
	Arrivals   string    `json:"arrivals"`
	Trace      string    `json:"trace,omitempty"`
	Policy     []string  `json:"policy"`
	Refresh    []float64 `json:"refresh"`
	Tally      bool      `json:"tally"`
	Discipline []string  `json:"discipline"`
	Jobs       int64     `json:"jobs"`
	Warmup     int64     `json:"warmup"`
	Reps       int       `json:"reps"`
	Seed       uint64    `json:"seed"`
	Batches    int       `json:"batches"`
	Overload   bool      `json:"overload"`
	// Added later: omitted when zero so that older sweep ids stay the same.
	WarmupAuto bool    `json:"warmup_auto,omitempty"`
	Precision  float64 `json:"precision,omitempty"`
	MaxJobs    int64   `json:"max_jobs,omitempty"`
	MaxSeconds float64 `json:"max_seconds,omitempty"`
	// SkipInvalid drops the invalid grid points (-skip-invalid): they are
	// not rows, so it changes the table and is part of the sweep's id.
	SkipInvalid bool `json:"skip_invalid,omitempty"`
	// ControlVariates adjusts the means by control variates (-control-variates).
	ControlVariates bool `json:"control_variates,omitempty"`
	// Several dispatchers (-dispatchers, -dispatcher-weights, -stagger);
	// 0 and 1 are one dispatcher, normalised to 0.
	Dispatchers       int       `json:"dispatchers,omitempty"`
	DispatcherWeights []float64 `json:"dispatcher_weights,omitempty"`
	Stagger           bool      `json:"stagger,omitempty"`
}

// specFlags are the flags a spec replaces; giving one together with -spec is
// an error rather than a silent override.
var specFlags = []string{"servers", "speeds", "load", "sizes", "arrivals", "trace", "policy", "refresh",
	"tally", "discipline", "jobs", "warmup", "reps", "seed", "batches", "overload", "precision", "max-jobs", "max-seconds", "skip-invalid", "control-variates",
	"dispatchers", "dispatcher-weights", "stagger"}

// specOf reads the sweep flags into a spec.
func specOf(c *configFlags) (sweepSpec, error) {
	s := sweepSpec{Arrivals: c.arrivals, Trace: c.trace, Tally: c.tally, Jobs: c.jobs,
		Reps: c.reps, Seed: c.seed, Batches: c.batches, Overload: c.overload,
		Sizes: splitList(c.sizes), Policy: splitList(c.policy), Discipline: splitList(c.discipline),
		Precision: c.precision, MaxJobs: c.maxJobs, MaxSeconds: c.maxSeconds, SkipInvalid: c.skipInvalid, ControlVariates: c.controlVariates}
	var err error
	if s.Warmup, s.WarmupAuto, err = parseWarmup(c.warmup); err != nil {
		return s, err
	}
	s.Dispatchers, s.Stagger = c.dispatchers, c.stagger
	if s.DispatcherWeights, err = parseWeights(c.dispatcherWeights); err != nil {
		return s, err
	}
	if s.Servers, err = parseInts("servers", c.servers); err != nil {
		return s, err
	}
	if s.Speeds, err = parseSpeeds(c.speeds); err != nil {
		return s, err
	}
	if s.Load, err = parseFloats("load", c.load); err != nil {
		return s, err
	}
	if s.Refresh, err = parseFloats("refresh", c.refresh); err != nil {
		return s, err
	}
	return s, nil
}

// loadSpec reads a -spec file (strictly: decodeSpec). Keys left out keep the
// flag defaults in c; unknown keys are errors (a typo would otherwise
// silently change the sweep).
func loadSpec(path string, c *configFlags, fs *flag.FlagSet) (sweepSpec, error) {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		for _, name := range specFlags {
			if f.Name == name {
				set = append(set, "-"+name)
			}
		}
	})
	if len(set) > 0 {
		return sweepSpec{}, fmt.Errorf("%s given together with -spec %s; put the value in the spec file instead", strings.Join(set, ", "), path)
	}
	defaults, err := specOf(c)
	if err != nil {
		return defaults, err
	}
	data, err := readSpecFile(path)
	if err != nil {
		return defaults, err
	}
	s := defaults
	given, err := decodeSpec(data, &s)
	if err != nil {
		return s, fmt.Errorf("-spec %s: %v", path, err)
	}
	if s.Trace != "" {
		// A trace replaces these, and without "jobs" is replayed whole.
		for _, key := range []string{"load", "sizes", "arrivals"} {
			if given[key] {
				return s, fmt.Errorf("-spec %s: %q has no effect with \"trace\": the trace's arrival times and sizes replace load, sizes and arrivals; drop %q", path, key, key)
			}
		}
		if !given["jobs"] {
			s.Jobs = 0
		}
	}
	return s, nil
}

// maxSpecBytes bounds a spec file, which is read whole: a grid of the most
// configurations a sweep may have is far smaller.
const maxSpecBytes = 16 << 20

// normalize drops what the sweep does not use, so that one sweep has one
// spec, one id and one command line however it was written: a trace
// replaces the load, sizes and arrivals, a ramp sets the load, an automatic
// warm-up has no count, one dispatcher is no dispatchers field.
func (s *sweepSpec) normalize() {
	if s.Dispatchers == 1 {
		s.Dispatchers = 0
	}
	switch {
	case s.Trace != "":
		s.Load, s.Sizes, s.Arrivals = nil, nil, ""
	case isRamp(s.Arrivals):
		s.Load = nil
	}
	if s.WarmupAuto {
		s.Warmup = 0
	}
	// One spec per list element: ["rnd,rr"] and ["rnd","rr"] are one grid.
	s.Sizes = splitList(strings.Join(s.Sizes, ","))
	s.Policy = splitList(strings.Join(s.Policy, ","))
	s.Discipline = splitList(strings.Join(s.Discipline, ","))
	if s.Trace != "" {
		s.Sizes = nil
	}
}

// readSpecFile reads a -spec file: a regular file of at most maxSpecBytes
// (a FIFO would block, /dev/zero never ends).
func readSpecFile(path string) ([]byte, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("-spec %s is a folder: give the JSON file in it, e.g. -spec %s", path, filepath.Join(path, "sweep.json"))
	}
	data, err := files.ReadRegular(path, maxSpecBytes, "spec file")
	if err != nil {
		return nil, fmt.Errorf("-spec: %w", err)
	}
	return data, nil
}

// flags writes the spec back into c, the one place grids are built from.
func (s sweepSpec) flags(c *configFlags) {
	c.servers = joinInts(s.Servers)
	c.speeds = joinFloats(s.Speeds)
	c.load = joinFloats(s.Load)
	c.refresh = joinFloats(s.Refresh)
	c.sizes = strings.Join(s.Sizes, ",")
	c.policy = strings.Join(s.Policy, ",")
	c.discipline = strings.Join(s.Discipline, ",")
	c.arrivals, c.trace, c.tally = s.Arrivals, s.Trace, s.Tally
	c.jobs, c.reps, c.seed, c.batches, c.overload = s.Jobs, s.Reps, s.Seed, s.Batches, s.Overload
	c.warmup = s.warmupFlag()
	c.precision, c.maxJobs, c.maxSeconds = s.Precision, s.MaxJobs, s.MaxSeconds
	c.skipInvalid, c.controlVariates = s.SkipInvalid, s.ControlVariates
	c.dispatchers, c.dispatcherWeights, c.stagger = s.Dispatchers, joinFloats(s.DispatcherWeights), s.Stagger
}

func (s sweepSpec) warmupFlag() string {
	if s.WarmupAuto {
		return "auto"
	}
	return strconv.FormatInt(s.Warmup, 10)
}

// args is the (normalized) spec as lbsim sweep flags, for generated batch
// scripts: parsed back, they give the same spec and so the same sweep id.
func (s sweepSpec) args() []string {
	a := []string{"-servers", joinInts(s.Servers), "-speeds", joinFloats(s.Speeds)}
	if s.Trace != "" {
		a = append(a, "-trace", s.Trace)
	} else {
		if len(s.Load) > 0 {
			a = append(a, "-load", joinFloats(s.Load))
		}
		a = append(a, "-sizes", strings.Join(s.Sizes, ","), "-arrivals", s.Arrivals)
	}
	a = append(a, "-policy", strings.Join(s.Policy, ","),
		"-refresh", joinFloats(s.Refresh), "-discipline", strings.Join(s.Discipline, ","),
		"-jobs", strconv.FormatInt(s.Jobs, 10), "-warmup", s.warmupFlag(),
		"-reps", strconv.Itoa(s.Reps), "-seed", strconv.FormatUint(s.Seed, 10), "-batches", strconv.Itoa(s.Batches))
	if s.Tally {
		a = append(a, "-tally")
	}
	if s.Overload {
		a = append(a, "-overload")
	}
	if s.Precision > 0 {
		a = append(a, "-precision", strconv.FormatFloat(s.Precision, 'g', -1, 64))
	}
	if s.MaxJobs != 0 {
		a = append(a, "-max-jobs", strconv.FormatInt(s.MaxJobs, 10))
	}
	if s.MaxSeconds != 0 {
		a = append(a, "-max-seconds", strconv.FormatFloat(s.MaxSeconds, 'g', -1, 64))
	}
	if s.SkipInvalid {
		a = append(a, "-skip-invalid")
	}
	if s.ControlVariates {
		a = append(a, "-control-variates")
	}
	if s.Dispatchers > 1 {
		a = append(a, "-dispatchers", strconv.Itoa(s.Dispatchers))
	}
	if len(s.DispatcherWeights) > 0 {
		a = append(a, "-dispatcher-weights", joinFloats(s.DispatcherWeights))
	}
	if s.Stagger {
		a = append(a, "-stagger")
	}
	return a
}

// canonical is the byte string whose SHA-256 is the sweep id: a format tag,
// the code version of this binary (lbsim.CodeVersion: two builds never share
// an id, so their shards never merge and a fixed build never skips the old
// build's shards), the normalized spec as JSON (fixed field order, shortest
// round-trip numbers) and, for a trace, the SHA-256 of the bytes it was
// parsed from (traceInput) instead of its path: a relative and an absolute
// path name the same trace, one path may hold another trace later, and a
// pipe cannot be read again.
func (s sweepSpec) canonical(traceSHA256 string) ([]byte, error) {
	if (s.Trace != "") != (traceSHA256 != "") {
		return nil, fmt.Errorf("internal error: trace %q with content hash %q", s.Trace, traceSHA256)
	}
	id := struct {
		Format      string    `json:"format"`
		Code        string    `json:"code"`
		Spec        sweepSpec `json:"spec"`
		TraceSHA256 string    `json:"trace_sha256,omitempty"`
	}{Format: "lbsim-sweep v3", Code: lbsim.CodeVersion(), Spec: s, TraceSHA256: traceSHA256}
	id.Spec.normalize()
	id.Spec.Trace = ""
	return json.Marshal(id)
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

func joinFloats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}
