package main

import (
	"strings"
	"testing"
)

// Issue 25, item 16: a long precision run reports its rounds and its
// projected length on stderr, and says early when the budget is too small;
// a budget without a precision target is refused.
func TestPrecisionProgressCLI(t *testing.T) {
	_, errOut, code := cli("run", "-servers", "10", "-load", "0.8", "-sizes", "exp:mean=1", "-jobs", "1000",
		"-precision", "0.001", "-max-jobs", "200000", "-workers", "1")
	if code != 0 || !strings.Contains(errOut, "lbsim run: precision 0.001: 4000 jobs so far (round 1, 4 replications)") ||
		!strings.Contains(errOut, "over -max-jobs 200000") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = cli("run", "-jobs", "10", "-max-jobs", "5")
	if code != 2 || !strings.Contains(errOut, "max-jobs=5 has no effect without a precision target") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = cli("run", "-jobs", "1000", "-precision", "0.5")
	if code != 0 || errOut != "" {
		t.Errorf("a short precision run: exit %d, stderr %q, want nothing", code, errOut)
	}
}

// Item 24: the printed load is the load given, never rounded to 1.
func TestLoadPrintedCLI(t *testing.T) {
	out, errOut, code := cli("run", "-jobs", "100", "-load", "0.9999999999999999")
	if code != 0 || !strings.Contains(out, "load 0.9999999999999999,") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
