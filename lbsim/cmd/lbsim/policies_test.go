package main

import (
	"strings"
	"testing"
)

// New policies reach the command line through the registry alone: JIQ and
// the mem parameter are in the help text and the unknown-policy error, run,
// and bad values are one-line errors.
func TestRegisteredPoliciesOnCommandLine(t *testing.T) {
	_, help, _ := cli("run", "-h")
	for _, w := range []string{"jiq ", "join the idle queue", "mem=M"} {
		if !strings.Contains(help, w) {
			t.Errorf("run -h does not mention %q:\n%s", w, help)
		}
	}
	_, errOut, code := cli("run", "-policy", "best")
	if code != 2 || !strings.Contains(errOut, "jiq") {
		t.Errorf("unknown policy: exit %d, %q does not list jiq", code, errOut)
	}
	for _, spec := range []string{"jiq", "jsq:d=2,mem=1", "ll:d=2,mem=1"} {
		out, errOut, code := cli("run", "-jobs", "5000", "-servers", "10", "-policy", spec)
		if code != 0 || !strings.Contains(out, "policy "+spec) {
			t.Errorf("run -policy %s: exit %d, %q %q", spec, code, out, errOut)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"jsq:d=2,mem=11", "mem=11"}, {"jsq:mem=1", "needs a sample size d"}, {"jiq:withdraw=2", "withdraw=2 is invalid"},
	} {
		out, errOut, code := cli("run", "-servers", "10", "-policy", c.spec)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("run -policy %s: exit %d, stderr %q (want one line with %q)", c.spec, code, errOut, c.want)
		}
	}
}
