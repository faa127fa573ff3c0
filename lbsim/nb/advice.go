package nb

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

// Messages (errors, warnings) advise what to change in the words of the
// command line, "-warmup auto", "-reps 5", where lbsim reads them: one text
// for each message, written once. A notebook sets Config fields instead, so
// nb shows every message through FieldAdvice.

// FieldAdvice rewrites the command-line flags that msg advises as the
// Config fields they set (lbsim.Fields), for a notebook: "-warmup auto" is
// "WarmupAuto: true", "-reps 5" is "Reps: 5", "-max-jobs" is "MaxJobs". A
// flag is a field's name (or alias) after a '-' that follows a space, a
// bracket, a quote or the start; the rest of msg is unchanged.
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

// adviceWord is a flag's words in messages and the Config field it names:
// "Tally: true" for a switch, "WarmupAuto: true" for "warmup auto".
type adviceWord struct{ flag, field string }

// adviceWords are every field's, the longest first ("dispatcher-weights"
// before "dispatchers", "warmup auto" before "warmup").
var adviceWords = func() []adviceWord {
	var out []adviceWord
	for _, f := range lbsim.Fields() {
		if f.Alias != "" {
			out = append(out, adviceWord{f.Alias, f.Go + ": true"})
		}
		w := adviceWord{f.Name, f.Go}
		if f.IsBool() {
			w.field += ": true"
		}
		out = append(out, w)
	}
	slices.SortStableFunc(out, func(a, b adviceWord) int { return cmp.Compare(len(b.flag), len(a.flag)) })
	return out
}()

// adviceNumber is the number that may follow a flag: "-reps 5" is "Reps: 5".
var adviceNumber = regexp.MustCompile(`^ (-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)`)

// flagAt reads the flag that s starts with (after its "-"): the field it
// sets, with ": value" for a number after it, and the bytes read.
func flagAt(s string) (field string, n int, ok bool) {
	for _, w := range adviceWords {
		rest, found := strings.CutPrefix(s, w.flag)
		if !found || rest != "" && (isWordByte(rest[0]) || rest[0] == '-') {
			continue
		}
		n = len(w.flag)
		if m := adviceNumber.FindStringSubmatch(rest); m != nil && !strings.Contains(w.field, ":") {
			return w.field + ": " + m[1], n + len(m[0]), true
		}
		return w.field, n, true
	}
	return "", 0, false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
