package main

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Every configuration flag has its Config field for notebooks
// (lbsim.FieldAdvice), and the command line still names the flags.
func TestOwn_AdviceFlagsAndFields(t *testing.T) {
	newFlagSet("run", io.Discard, &configFlags{}).VisitAll(func(f *flag.Flag) {
		if got := lbsim.FieldAdvice("-" + f.Name); got == "-"+f.Name {
			t.Errorf("flag -%s has no Config field in lbsim.FieldAdvice's table", f.Name)
		}
	})
	var out, errb strings.Builder
	code := mainWithArgs([]string{"run", "-load", "1.2", "-jobs", "1000"}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "-overload") || strings.Contains(errb.String(), "AllowOverload") {
		t.Errorf("exit %d, stderr %q: want the flag -overload named", code, errb.String())
	}
}
