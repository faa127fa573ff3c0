package nb

import (
	"os"
	"strings"
	"testing"
)

func TestEnvName(t *testing.T) {
	for name, want := range map[string]string{
		"jobs": "LBSIM_JOBS", "xm": "LBSIM_XM", "xM": "LBSIM_X_M", "mean_size": "LBSIM_MEAN_SIZE",
		"JOBS": "LBSIM_JOBS", "ratio_loads": "LBSIM_RATIO_LOADS", "p2Max": "LBSIM_P2_MAX",
	} {
		if got := EnvName(name); got != want {
			t.Errorf("EnvName(%q) = %s, want %s", name, got, want)
		}
	}
}

// catchFail replaces fail for the test and returns the last error.
func catchFail(t *testing.T) *error {
	var got error
	old := fail
	fail = func(err error) { got = err }
	t.Cleanup(func() { fail = old })
	return &got
}

// Each reproduction of issue 11 and a sibling: a clear error, never a
// silent fallback.
func TestOverridesStrict(t *testing.T) {
	got := catchFail(t)
	for _, tc := range []struct {
		env, val string
		read     func() any
		mention  string
	}{
		{"LBSIM_BETA", "0.5,0.9", func() any { return Float("beta", 0.8, 0.8) }, "holds 2 numbers"},
		{"LBSIM_LOAD", "0.5,", func() any { return Float("load", 0.8, 0.8) }, "item 2"},
		{"LBSIM_SEED", "-1", func() any { return Int("seed", 1, 1) }, "negative"},
		{"LBSIM_REPS", "1e3", func() any { return Int("reps", 1, 1) }, "not a whole number"},
		{"LBSIM_JOBS", "", func() any { return Int("jobs", 1, 1) }, "empty"},
		{"LBSIM_JOBS", "99999999999999999999", func() any { return Int("jobs", 1, 1) }, "out of range"},
		{"LBSIM_LOADS", "", func() any { return Floats("loads", nil, nil) }, "empty"},
		{"LBSIM_LOADS", "0.5,NaN", func() any { return Floats("loads", nil, nil) }, "finite"},
		{"LBSIM_LOADS", "1e999", func() any { return Floats("loads", nil, nil) }, "out of range (float64 holds magnitudes up to 1.8e308)"},
		{"LBSIM_QUICK", "maybe", func() any { return Quick() }, "not a switch"},
	} {
		*got = nil
		t.Setenv(tc.env, tc.val)
		tc.read()
		if *got == nil || !strings.Contains((*got).Error(), tc.mention) || !strings.Contains((*got).Error(), tc.env) {
			t.Errorf("%s=%q: error %v, want one naming %s and saying %q", tc.env, tc.val, *got, tc.env, tc.mention)
		}
		os.Unsetenv(tc.env)
	}
	// Valid values, and names that differ only in case stay apart.
	*got = nil
	t.Setenv("LBSIM_QUICK", "true")
	t.Setenv("LBSIM_XM", "2")
	t.Setenv("LBSIM_X_M", "500")
	if !Quick() || Float("xm", 1, 1) != 2 || Float("xM", 1000, 1000) != 500 || Int("jobs", 10, 3) != 3 {
		t.Errorf("LBSIM_QUICK=true, LBSIM_XM=2, LBSIM_X_M=500: quick %v xm %v xM %v jobs %v",
			Quick(), Float("xm", 1, 1), Float("xM", 1000, 1000), Int("jobs", 10, 3))
	}
	t.Setenv("LBSIM_QUICK", "0")
	if Quick() || *got != nil {
		t.Errorf("LBSIM_QUICK=0: quick %v, error %v", Quick(), *got)
	}
}
