package main

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Every flag of the settings is a field of lbsim's table, with its doc and
// default, and the command line names the flags in its advice.
func TestAdviceFlagsAndFields(t *testing.T) {
	fields := map[string]lbsim.Field{}
	for _, f := range lbsim.Fields() {
		fields[f.Name] = f
	}
	n := 0
	newFlagSet("sweep", io.Discard, &gridFlags{}).VisitAll(func(fl *flag.Flag) {
		f, ok := fields[fl.Name]
		switch {
		case !ok:
			t.Errorf("flag -%s is no field of lbsim.Fields", fl.Name)
		case !strings.HasPrefix(fl.Usage, f.Doc) || fl.DefValue != f.Default:
			t.Errorf("flag -%s: usage %q default %q, want the field's doc %q and default %q", fl.Name, fl.Usage, fl.DefValue, f.Doc, f.Default)
		}
		n++
	})
	if n != len(fields) {
		t.Errorf("lbsim sweep has %d flags of settings, the table %d fields", n, len(fields))
	}
	var out, errb strings.Builder
	code := mainWithArgs([]string{"run", "-load", "1.2", "-jobs", "1000"}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "-overload") || strings.Contains(errb.String(), "AllowOverload") {
		t.Errorf("exit %d, stderr %q: want the flag -overload named", code, errb.String())
	}
}
