package nb

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// FieldAdvice names the Config fields that command-line advice sets, and
// every field it names exists.
func TestFieldAdvice(t *testing.T) {
	for msg, want := range map[string]string{
		"use a warm-up (-warmup auto) or longer runs":           "use a warm-up (WarmupAuto: true) or longer runs",
		"lower the load, or allow it explicitly with -overload": "lower the load, or allow it explicitly with AllowOverload: true",
		"e.g. -jobs x10 and -reps /10":                          "e.g. Jobs x10 and Reps /10",
		"use replications (-reps 5) or longer runs":             "use replications (Reps: 5) or longer runs",
		"e.g. -load 0.5.":                                       "e.g. Load: 0.5.",
		"raise -max-jobs or lower -jobs":                        "raise MaxJobs or lower Jobs",
		"use -refresh 0 or a policy such as jsq:d=2":            "use Refresh: 0 or a policy such as jsq:d=2",
		"max-jobs=5 is 1-2-5, -x -jobsy, (head -n 5)":           "max-jobs=5 is 1-2-5, -x -jobsy, (head -n 5)",
	} {
		if got := FieldAdvice(msg); got != want {
			t.Errorf("FieldAdvice(%q) = %q, want %q", msg, got, want)
		}
	}
	fields := regexp.MustCompile(`[A-Z][A-Za-z]+`)
	for _, flag := range []string{"servers", "speeds", "load", "sizes", "arrivals", "trace", "policy", "refresh", "tally",
		"discipline", "jobs", "warmup", "warmup auto", "precision", "max-jobs", "max-seconds", "reps", "seed", "workers", "batches", "overload"} {
		got := FieldAdvice("-" + flag)
		name := fields.FindString(got)
		if _, ok := reflect.TypeFor[lbsim.Config]().FieldByName(name); !ok {
			t.Errorf("-%s is shown as %q, which names no Config field", flag, got)
		}
	}
}
