package nb

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
)

// The parameters a notebook reads, by variable: two names that map to one
// variable (xM and x_m are both LBSIM_X_M) are refused, so one override never
// sets two parameters; and a LBSIM_ variable that is no parameter and no
// global setting is reported, so a misspelling (LBSIM_JBOS) is not ignored
// without a word.

var params = struct {
	sync.Mutex
	byEnv map[string]string // variable -> parameter name
}{byEnv: map[string]string{}}

// globalVars are the LBSIM_ variables that are not notebook parameters:
// settings of nb and of the test suites.
var globalVars = []string{"QUICK", "OUT_DIR", "CACHE_DIR", "NO_CACHE", "CACHE_PROBE", "REQUIRE_NOTEBOOKS",
	"REQUIRE_SLURM", "RUN_LOG", "COVERAGE_SEEDS", "COVERAGE_OUT", "SHARD_KILLED_WRITER_DIR", "THEORY_COST", "SWEEP_TIMING"}

// noteParam records that the notebook reads parameter name, and returns its
// variable; an error when another name already maps to it.
func noteParam(name string) (string, error) {
	env := EnvName(name)
	params.Lock()
	defer params.Unlock()
	if other, ok := params.byEnv[env]; ok && other != name {
		return env, fmt.Errorf("parameters %q and %q share %s, so one override would set both: rename one of them (names that differ only in case or '_' map to one variable)", other, name, env)
	}
	params.byEnv[env] = name
	return env, nil
}

// warnUnknownOverrides warns about each LBSIM_ variable that matches no
// parameter read so far and no global setting, naming the closest
// parameter. The notebook's outputs and computations call it: by then its
// parameters cell has run (package-level variables are initialized before
// any cell's code). Each warning shows once per program run (warnOnce).
func warnUnknownOverrides() {
	params.Lock()
	known := make([]string, 0, len(params.byEnv))
	for env := range params.byEnv {
		known = append(known, env)
	}
	params.Unlock()
	sort.Strings(known)
	for _, kv := range os.Environ() {
		env, _, _ := strings.Cut(kv, "=")
		name, ok := strings.CutPrefix(env, "LBSIM_")
		if !ok || slices.Contains(known, env) || slices.Contains(globalVars, name) {
			continue
		}
		hint := "this notebook reads no LBSIM_ parameters"
		if len(known) > 0 {
			hint = "did you mean " + closest(env, known) + "? The parameters are " + strings.Join(known, ", ")
		}
		warnOnce("unknown variable "+env, fmt.Sprintf("nb: warning: %s is set but matches no parameter this notebook has read so far, so it is ignored; %s", env, hint))
	}
}

// closest is the candidate with the smallest edit distance to s (the first
// of equals, in the order given).
func closest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		if d := editDistance(s, c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, with a swap of
// two neighbours counting as one edit (JBOS is one edit from JOBS).
func editDistance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j].
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
