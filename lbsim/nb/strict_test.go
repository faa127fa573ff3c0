package nb

import (
	"os"
	"strings"
	"testing"
)

// Overrides read numbers with lbsim's one parser: Go literals are refused,
// an underflow is not a silent -0 (issue 25, items 18 and 21).
func TestEnvNumbers(t *testing.T) {
	got := catchFail(t)
	for _, tc := range []struct {
		env, val string
		read     func() any
		mention  string
	}{
		{"LBSIM_LOADS", "0x1p-1,0_9", func() any { return Floats("loads", nil, nil) }, `item 1 "0x1p-1" is not a number: write a plain decimal`},
		{"LBSIM_LOADS", "0.5,0_9", func() any { return Floats("loads", nil, nil) }, `item 2 "0_9" is not a number`},
		{"LBSIM_LOAD", "-1e-400", func() any { return Float("load", 0.5, 0.5) }, "smallest magnitude 5e-324"},
		{"LBSIM_LOAD", "+0.5", func() any { return Float("load", 0.5, 0.5) }, "plain decimal"},
		{"LBSIM_JOBS", "+5", func() any { return Int("jobs", 1, 1) }, "not a whole number"},
		{"LBSIM_JOBS", "1_000", func() any { return Int("jobs", 1, 1) }, "not a whole number"},
		{"LBSIM_SEED", "0x10", func() any { return Int[uint64]("seed", 1, 1) }, "not a whole number"},
		{"LBSIM_REPS", "300", func() any { return Int[uint8]("reps", 1, 1) }, "from 0 to 255"},
	} {
		*got = nil
		t.Setenv(tc.env, tc.val)
		v := tc.read()
		if *got == nil || !strings.Contains((*got).Error(), tc.mention) || !strings.Contains((*got).Error(), tc.env) {
			t.Errorf("%s=%q: got %v, error %v; want one naming %s and saying %q", tc.env, tc.val, v, *got, tc.env, tc.mention)
		}
		os.Unsetenv(tc.env)
	}
}

// freshParams gives the test its own record of the parameters read.
func freshParams(t *testing.T) {
	old := params.byEnv
	params.byEnv = map[string]string{}
	t.Cleanup(func() { params.byEnv = old })
}

// Two parameter names that map to one variable are refused: LBSIM_X_M would
// set both xM and x_m (item 21).
func TestEnvNamesCollide(t *testing.T) {
	freshParams(t)
	got := catchFail(t)
	Float("xM", 1000, 1000)
	Float("xm", 1, 1) // LBSIM_XM: another variable
	Float("xM", 1000, 1000)
	if *got != nil {
		t.Fatalf("distinct variables: %v", *got)
	}
	Float("x_m", 1000, 1000)
	if *got == nil || !strings.Contains((*got).Error(), `"xM" and "x_m" share LBSIM_X_M`) {
		t.Errorf("xM then x_m: %v; want an error saying they share LBSIM_X_M", *got)
	}
}

// A misspelled override is not ignored without a word: the notebook's first
// output warns, once, naming the closest parameter (item 21).
func TestEnvUnknownWarns(t *testing.T) {
	freshParams(t)
	warned.Clear() // warnOnce's record, for -count > 1
	t.Setenv("LBSIM_JBOS", "10")
	t.Setenv("LBSIM_OUT_DIR", t.TempDir()) // known global
	t.Setenv("LBSIM_SEED", "3")            // a parameter
	t.Setenv("LBSIM_CACHE_DIR", t.TempDir())
	Int("jobs", 10, 10)
	Int[uint64]("seed", 1, 1)
	Float("load", 0.5, 0.5)
	out := stderrOf(t, func() {
		Note("first output")
		Note("second output")
	})
	if strings.Count(out, "LBSIM_JBOS") != 1 || !strings.Contains(out, "did you mean LBSIM_JOBS") {
		t.Errorf("LBSIM_JBOS set: stderr %q; want one warning suggesting LBSIM_JOBS", out)
	}
	for _, quiet := range []string{"LBSIM_OUT_DIR", "LBSIM_SEED", "LBSIM_CACHE_DIR"} {
		if strings.Contains(out, "warning: "+quiet) {
			t.Errorf("stderr %q warns about %s, which is in use", out, quiet)
		}
	}
}
