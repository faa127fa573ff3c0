package nb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unsafe"

	"github.com/go-gota/gota/dataframe"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/frame"
	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Notebook parameters can be overridden from the environment: the parameter
// "jobs" is read from LBSIM_JOBS, and a camel-case name keeps its word
// boundary ("xM" is LBSIM_X_M, "xm" is LBSIM_XM); two names that would
// share a variable ("xM" and "x_m") are refused, and a LBSIM_ variable that
// matches no parameter is reported (overrides.go). Overrides are strict:
// numbers are plain decimals (as everywhere in lbsim), and a value that does not
// parse, is out of range, or gives a list where one number is wanted stops
// the cell with the red box of every failure (Fail), naming the variable,
// the value and the fix (no silent fallback, no panic trace).

// Quick reports whether the notebook runs in quick mode (LBSIM_QUICK=1, or
// true/yes/on): the test suite's short runs. Reports use the full values;
// a quick run's reports carry a banner that says so (logQuick).
func Quick() bool {
	q := orFail(boolEnv("QUICK"))
	if q {
		logQuick()
	}
	return q
}

// Int is a notebook parameter: a whole number >= 0 (jobs, replications,
// servers, seeds) of any integer type, the type of full and quick:
//
//	Jobs: nb.Int[int64]("jobs", 2_000_000, 200_000),
//	Seed: nb.Int[uint64]("seed", 17, 17),
//
// The environment variable LBSIM_<NAME> overrides it; otherwise quick in
// quick mode and full otherwise.
func Int[T Integer](name string, full, quick T) T {
	if v, ok := lookup(name); ok {
		return orFail(parseInt[T](name, v))
	}
	if Quick() {
		return quick
	}
	return full
}

// Integer is the integer types of Int.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// maxOf is the largest value of T.
func maxOf[T Integer]() uint64 {
	var zero T
	if ^zero < 0 { // signed: all bits set is -1
		return 1<<(8*unsafe.Sizeof(zero)-1) - 1
	}
	return uint64(^zero)
}

// Float is Int for one real number.
func Float(name string, full, quick float64) float64 {
	if v, ok := lookup(name); ok {
		xs, err := parseFloats(name, v)
		if err == nil && len(xs) != 1 {
			err = fmt.Errorf("%s=%q holds %d numbers: this parameter takes one, e.g. %s=%s", EnvName(name), v, len(xs), EnvName(name), strconv.FormatFloat(full, 'g', -1, 64))
		}
		if err != nil {
			fail(err)
			return full // reached only when a test replaces fail
		}
		return xs[0]
	}
	if Quick() {
		return quick
	}
	return full
}

// Floats is Int for a comma-separated list of real numbers.
func Floats(name string, full, quick []float64) []float64 {
	if v, ok := lookup(name); ok {
		return orFail(parseFloats(name, v))
	}
	if Quick() {
		return quick
	}
	return full
}

// EnvName is the environment variable that overrides the parameter name.
func EnvName(name string) string {
	var b strings.Builder
	b.WriteString("LBSIM_")
	prev := rune(0)
	for _, r := range name {
		if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
		prev = r
	}
	return b.String()
}

// lookup reads the override of parameter name, noting that the notebook
// reads it.
func lookup(name string) (string, bool) {
	env, err := noteParam(name)
	if err != nil {
		fail(err)
	}
	return os.LookupEnv(env)
}

// parseInt reads an override of a whole-number parameter of type T.
func parseInt[T Integer](name, v string) (T, error) {
	env := EnvName(name)
	t := strings.TrimSpace(v)
	if t == "" {
		return 0, fmt.Errorf("%s is set but empty: give a whole number >= 0, e.g. %s=1000, or unset it", env, env)
	}
	if n, err := number.Int(t); err == nil && n < 0 {
		return 0, fmt.Errorf("%s=%d is negative: need a whole number >= 0", env, n)
	}
	n, err := number.Uint(t)
	switch {
	case errors.Is(err, strconv.ErrRange) || (err == nil && n > maxOf[T]()):
		return 0, fmt.Errorf("%s=%q is out of range: need a whole number from 0 to %d", env, v, maxOf[T]())
	case err != nil:
		return 0, fmt.Errorf("%s=%v", env, err)
	}
	return T(n), nil
}

// parseFloats reads an override of a list of real numbers.
func parseFloats(name, v string) ([]float64, error) {
	env := EnvName(name)
	if strings.TrimSpace(v) == "" {
		return nil, fmt.Errorf("%s is set but empty: give comma-separated numbers, e.g. %s=0.5,0.9, or unset it", env, env)
	}
	var out []float64
	for i, f := range strings.Split(v, ",") {
		x, err := number.Float(f)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: item %d %v", env, v, i+1, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// boolEnv reads LBSIM_<NAME> as a switch: unset or empty is off; 1, true,
// yes, on and 0, false, no, off in any case; anything else is an error.
func boolEnv(name string) (bool, error) {
	env := EnvName(name)
	switch v := strings.ToLower(strings.TrimSpace(os.Getenv(env))); v {
	case "", "0", "false", "no", "off":
		return false, nil
	case "1", "true", "yes", "on":
		return true, nil
	default:
		return false, fmt.Errorf("%s=%q is not a switch: use %s=1 (on) or %s=0 (off)", env, os.Getenv(env), env, env)
	}
}

// fail stops the notebook's program on an invalid override, as every
// failure does: a red box under the cell and exit status 1 (Fail). Tests
// replace it.
var fail = Fail

func orFail[T any](v T, err error) T {
	if err != nil {
		fail(err)
	}
	return v
}

// Sweep runs a grid of configurations with an in-place progress bar, and
// caches the rows across cell executions under a key naming every
// configuration in full (parameters, seeds, and a policy of one's own by
// what it does: see lbsim.Config.Key), so a changed parameter is always
// recomputed. Fresh.Sweep recomputes regardless.
func Sweep(label string, g lbsim.Grid) ([]lbsim.Row, error) {
	return RunAll(label, g.Configs())
}

// RunAll is Sweep for an explicit list of configurations.
func RunAll(label string, cfgs []lbsim.Config) ([]lbsim.Row, error) {
	return runAll(label, cfgs, false)
}

// Fresh runs sweeps without reading the cache: they are computed, and the
// rows stored in place of the old ones, so that the same call without
// Fresh reads them. Use it when the cache cannot see a change (an edit of
// your policy that its fingerprint misses, see lbsim.Config.Key):
//
//	rows := nb.M1(nb.Fresh.Sweep("my sweep", grid))
//
// If the new rows differ from those cached under the same key, the key
// names two versions of your code, and neither version's rows can be
// served to the other: the entry is dropped and the key recomputed every
// run from then on, with a note (see the cache in the package doc).
var Fresh Recompute

// Recompute is the type of Fresh.
type Recompute struct{}

// Sweep is nb.Sweep, computed afresh.
func (Recompute) Sweep(label string, g lbsim.Grid) ([]lbsim.Row, error) {
	return runAll(label, g.Configs(), true)
}

// RunAll is nb.RunAll, computed afresh.
func (Recompute) RunAll(label string, cfgs []lbsim.Config) ([]lbsim.Row, error) {
	return runAll(label, cfgs, true)
}

// SweepValid is nb.SweepValid, computed afresh.
func (Recompute) SweepValid(label string, g lbsim.Grid) ([]lbsim.Row, []error, error) {
	valid, skipped := g.Valid()
	return runValid(label, valid, skipped, true)
}

// RunAllValid is nb.RunAllValid, computed afresh.
func (Recompute) RunAllValid(label string, cfgs []lbsim.Config) ([]lbsim.Row, []error, error) {
	valid, skipped := lbsim.ValidConfigs(cfgs)
	return runValid(label, valid, skipped, true)
}

// runAll runs cfgs with a progress bar, through the cache unless fresh.
func runAll(label string, cfgs []lbsim.Config, fresh bool) ([]lbsim.Row, error) {
	return runCached(label, cfgs, fresh, lbsim.Rows, func(r *lbsim.Row, c lbsim.Config) { r.Config = c }, nil)
}

// Results is RunAll keeping whole results, for what rows do not hold: time
// series (Config.SampleEvery), per-server utilisations, size classes.
func Results(label string, cfgs []lbsim.Config) ([]lbsim.Result, error) {
	return results(label, cfgs, false)
}

// Results is nb.Results, computed afresh.
func (Recompute) Results(label string, cfgs []lbsim.Config) ([]lbsim.Result, error) {
	return results(label, cfgs, true)
}

func results(label string, cfgs []lbsim.Config, fresh bool) ([]lbsim.Result, error) {
	return runCached(label, cfgs, fresh, func(r []lbsim.Result) []lbsim.Result { return r },
		func(r *lbsim.Result, c lbsim.Config) { r.Config = c }, func(r *lbsim.Result) { r.Seconds = 0 })
}

// runCached runs cfgs with a progress bar, through the cache (keyed by the
// configurations) unless fresh, and keeps of the results what keep returns.
// A Config is not cached (its policy is an interface, possibly a user's own
// type, that gob cannot encode; see lbsim.Row.GobEncode), so attach puts
// each configuration back. untimed (may be nil) clears what a result holds
// of the wall clock: the rest is the same for the same key and code, which
// the cache checks when Fresh recomputes (see ambiguousSuffix in cache.go),
// unless a configuration stops at a time limit (MaxSeconds).
func runCached[T any](label string, cfgs []lbsim.Config, fresh bool, keep func([]lbsim.Result) []T, attach func(*T, lbsim.Config), untimed func(*T)) ([]T, error) {
	key := make([]string, len(cfgs))
	timed := false
	for i, c := range cfgs {
		key[i] = c.Key()
		timed = timed || c.MaxSeconds > 0
	}
	var same func(a, b []T) bool
	if !timed {
		same = func(a, b []T) bool { return sameNumbers(a, b, untimed) }
	}
	out, err := cached(key, len(cfgs), func() ([]T, error) {
		p := NewProgress(label, len(cfgs))
		defer p.Done()
		res, err := lbsim.RunAll(cfgs, func(done, total int) { p.Add(1) })
		if err != nil {
			return nil, err
		}
		return keep(res), nil
	}, fresh, same)
	if err != nil {
		return nil, err
	}
	for i := range out {
		attach(&out[i], cfgs[i])
	}
	return out, nil
}

// sameNumbers reports whether two runs' results are the same to the last
// bit (NaN and map order alike), the wall clock's apart.
func sameNumbers[T any](a, b []T, untimed func(*T)) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if untimed != nil {
			untimed(&x)
			untimed(&y)
		}
		if fmt.Sprintf("%#v", x) != fmt.Sprintf("%#v", y) {
			return false
		}
	}
	return true
}

// Save writes rows (a slice of structs, or a gota DataFrame) as CSV named
// name.csv into the directory LBSIM_OUT_DIR (set by the test suite, which
// checks the numbers) or, when unset, into the repository's reports/
// folder. These files are generated, so an existing one is replaced.
// A failure is a red box that stops the cell (see Fail). To show the table
// too, use Table with SaveAs.
func Save(name string, rows any) {
	warnUnknownOverrides()
	Must(saveFrame(name, M1(toFrame(rows))))
}

func saveFrame(name string, df dataframe.DataFrame) error {
	dir := os.Getenv("LBSIM_OUT_DIR")
	if dir == "" {
		dir = filepath.Join("..", "reports")
	}
	return frame.WriteCSV(df, filepath.Join(dir, name+".csv"), true)
}
