package nb

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/frame"
)

// Quick reports whether the notebook runs in quick mode (LBSIM_QUICK=1):
// the test suite's short runs. Reports use the full values.
func Quick() bool { return os.Getenv("LBSIM_QUICK") == "1" }

// Int is a notebook parameter: the environment variable LBSIM_<NAME>
// overrides it; otherwise quick in quick mode and full otherwise.
func Int(name string, full, quick int) int {
	if v, ok := lookup(name); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			panic(fmt.Sprintf("LBSIM_%s=%q is not a whole number", strings.ToUpper(name), v))
		}
		return n
	}
	if Quick() {
		return quick
	}
	return full
}

// Float is Int for a real number.
func Float(name string, full, quick float64) float64 {
	fs := Floats(name, []float64{full}, []float64{quick})
	return fs[0]
}

// Floats is Int for a comma-separated list of numbers.
func Floats(name string, full, quick []float64) []float64 {
	v, ok := lookup(name)
	if !ok {
		if Quick() {
			return quick
		}
		return full
	}
	var out []float64
	for _, f := range strings.Split(v, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			panic(fmt.Sprintf("LBSIM_%s=%q: %q is not a number", strings.ToUpper(name), v, f))
		}
		out = append(out, x)
	}
	return out
}

func lookup(name string) (string, bool) {
	return os.LookupEnv("LBSIM_" + strings.ToUpper(name))
}

// Sweep runs a grid of configurations with an in-place progress bar, and
// caches the rows across cell executions under a key naming every
// configuration in full (parameters and seeds), so a changed parameter is
// always recomputed.
func Sweep(label string, g lbsim.Grid) ([]lbsim.Row, error) {
	return RunAll(label, g.Configs())
}

// RunAll is Sweep for an explicit list of configurations.
func RunAll(label string, cfgs []lbsim.Config) ([]lbsim.Row, error) {
	key := make([]string, len(cfgs))
	for i, c := range cfgs {
		key[i] = c.Key()
	}
	rows, err := Cached(key, func() ([]lbsim.Row, error) {
		p := NewProgress(label, len(cfgs))
		defer p.Done()
		res, err := lbsim.RunAll(cfgs, func(done, total int) { p.Add(1) })
		if err != nil {
			return nil, err
		}
		rows := make([]lbsim.Row, len(res))
		for i, r := range res {
			rows[i] = lbsim.NewRow(r)
		}
		return rows, nil
	})
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].Config = cfgs[i] // not cached: see lbsim.Row.GobEncode
	}
	return rows, nil
}

// Save writes rows (any slice of structs) as CSV named name.csv into the
// directory LBSIM_OUT_DIR (set by the test suite, which checks the numbers)
// or, when unset, into the repository's reports/ folder. These files are
// generated, so an existing one is replaced.
func Save(name string, rows any) error {
	df, err := frame.FromStructs(rows)
	if err != nil {
		return err
	}
	dir := os.Getenv("LBSIM_OUT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "reports")
	}
	return frame.WriteCSV(df, filepath.Join(dir, name+".csv"), true)
}
