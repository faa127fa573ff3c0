package lbsim

import (
	"regexp"
	"strings"
)

// Messages (errors, warnings) advise what to change in the words of the
// command line, "-warmup auto", "-reps 5", where lbsim reads them: one text
// for each message, written once. A notebook sets Config fields instead, so
// its helpers (package nb) show every message through FieldAdvice.

// flagFields are the command-line flags and the Config fields they set, a
// flag with its value first where the value makes another field.
var flagFields = []struct{ flag, field string }{
	{"warmup auto", "WarmupAuto: true"},
	{"overload", "AllowOverload: true"},
	{"tally", "Tally: true"},
	{"control-variates", "ControlVariates: true"},
	{"max-jobs", "MaxJobs"},
	{"max-seconds", "MaxSeconds"},
	{"servers", "Servers"},
	{"speeds", "Speeds"},
	{"load", "Load"},
	{"sizes", "Sizes"},
	{"arrivals", "Arrivals"},
	{"trace", "Trace"},
	{"policy", "Policy"},
	{"refresh", "Refresh"},
	{"dispatcher-weights", "DispatcherWeights"},
	{"dispatchers", "Dispatchers"},
	{"stagger", "Stagger: true"},
	{"discipline", "Discipline"},
	{"jobs", "Jobs"},
	{"warmup", "Warmup"},
	{"precision", "Precision"},
	{"reps", "Reps"},
	{"seed", "Seed"},
	{"workers", "Workers"},
	{"batches", "Batches"},
}

// adviceNumber is the number that may follow a flag: "-reps 5" is "Reps: 5".
var adviceNumber = regexp.MustCompile(`^ (-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)`)

// FieldAdvice rewrites the command-line flags that msg advises as the
// Config fields they set, for a notebook: "-warmup auto" is "WarmupAuto:
// true", "-reps 5" is "Reps: 5", "-max-jobs" is "MaxJobs". A flag is a
// word of flagFields after a space, a bracket, a quote or the start; the
// rest of msg is unchanged.
func FieldAdvice(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		if msg[i] == '-' && (i == 0 || strings.IndexByte(" (`\"'", msg[i-1]) >= 0) {
			if field, n, ok := flagAt(msg[i+1:]); ok {
				b.WriteString(field)
				i += n
				continue
			}
		}
		b.WriteByte(msg[i])
	}
	return b.String()
}

// flagAt reads the flag that s starts with (after its "-"): the field it
// sets, with ": value" for a number after it, and the bytes read.
func flagAt(s string) (field string, n int, ok bool) {
	for _, f := range flagFields {
		rest, found := strings.CutPrefix(s, f.flag)
		if !found || rest != "" && (isWordByte(rest[0]) || rest[0] == '-') {
			continue
		}
		n = len(f.flag)
		if m := adviceNumber.FindStringSubmatch(rest); m != nil && !strings.Contains(f.field, ":") {
			return f.field + ": " + m[1], n + len(m[0]), true
		}
		return f.field, n, true
	}
	return "", 0, false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
