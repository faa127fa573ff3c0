package lbsim

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Specs are the short strings of the command line, of sweep files and of
// every String method: "name" or "name:key=value,...", or for list-valued
// families "name:v1,v2,...". Registries (registry.go) parse them into
// validated values, or errors naming the offending part.

// splitSpec splits "name:k=v,k=v" into the name and its parameters.
func splitSpec(spec string) (string, string) {
	name, params, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(params)
}

// keyValues parses "k=v,k=v" into numbers, allowing only the given keys; a
// key in lists may take a word or a list instead (Params.Word, Params.List).
func keyValues(what, params string, lists []string, allowed ...string) (map[string]float64, error) {
	out := map[string]float64{}
	if params == "" {
		return out, nil
	}
	for _, kv := range strings.Split(params, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not key=value; write e.g. %s=1", what, kv, allowed[0])
		}
		k = strings.TrimSpace(k)
		if !contains(allowed, k) {
			return nil, fmt.Errorf("%s: unknown parameter %q; allowed: %s", what, k, strings.Join(allowed, ", "))
		}
		if Params(out).Has(k) {
			return nil, fmt.Errorf("%s: parameter %q given twice; give it once", what, k)
		}
		x, err := number.Float(v)
		if err != nil && contains(lists, k) {
			err = listValue(out, k, strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("%s: %s=%s: %v", what, k, v, err)
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s=%v", what, k, err)
		}
		out[k] = x
	}
	return out, nil
}

// listValue stores the word or list v of key k in p: a word (letters
// only) as the entry "k=word", a list of numbers separated by '/' (runs
// COUNT@VALUE allowed, as in ParseSpeeds) as the entries "k.1", "k.2", ...
func listValue(p map[string]float64, k, v string) error {
	if v != "" && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz") == "" {
		p[k+"="+v] = 1
		return nil
	}
	xs, err := ParseSpeeds(strings.ReplaceAll(v, "/", ","))
	if err != nil {
		why, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), "speeds: "), "; write speeds") // the list is not speeds
		return fmt.Errorf("need a word or a list of numbers separated by '/', e.g. 2/1/1 or 5@2/5@1 (%v)", why)
	}
	for i, x := range xs {
		p[fmt.Sprintf("%s.%d", k, i+1)] = x
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// numberList parses "v1,v2,..." (a list-valued family's, such as modal's):
// numbers separated by single commas; an empty list is the family's to refuse.
func numberList(what, params, example string) ([]float64, error) {
	if params == "" {
		return nil, nil
	}
	var out []float64
	for i, f := range strings.Split(params, ",") {
		if strings.TrimSpace(f) == "" {
			return nil, fmt.Errorf("%s: value #%d is empty: list numbers separated by single commas, e.g. %s", what, i+1, example)
		}
		x, err := number.Float(f)
		if err != nil {
			return nil, fmt.Errorf("%s: value #%d %v", what, i+1, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// Params are a spec's numeric parameters, "d=2,replace=1".
type Params map[string]float64

// Has reports whether the spec gave key (as a number, a word or a list).
func (p Params) Has(key string) bool {
	_, ok := p[key]
	return ok || p.Word(key) != "" || p.List(key) != nil
}

// Word is the word a list key was given ("speed" in weights=speed), or "".
func (p Params) Word(key string) string {
	for k := range p {
		if w, ok := strings.CutPrefix(k, key+"="); ok {
			return w
		}
	}
	return ""
}

// List is the list a list key was given (2/1/1 in weights=2/1/1), or nil.
func (p Params) List(key string) []float64 {
	var out []float64
	for i := 1; ; i++ {
		x, ok := p[fmt.Sprintf("%s.%d", key, i)]
		if !ok {
			return out
		}
		out = append(out, x)
	}
}

// Int returns the whole number under key, or def when the key is absent.
func (p Params) Int(key string, def int) (int, error) {
	x, ok := p[key]
	if !ok {
		return def, nil
	}
	if x != math.Trunc(x) || x < 0 || x > 1<<30 {
		return 0, fmt.Errorf("%s=%v is invalid: need a whole number in 0..2^30", key, x)
	}
	return int(x), nil
}

// Bool returns whether key is 1 (true) or 0/absent (false).
func (p Params) Bool(key string) (bool, error) {
	x, ok := p[key]
	if !ok || x == 0 {
		return false, nil
	}
	if x != 1 {
		return false, fmt.Errorf("%s=%v is invalid: use %s=1 or %s=0", key, x, key, key)
	}
	return true, nil
}

// parseDiscipline reads a discipline's name (disciplines; "fifo" is FCFS).
func parseDiscipline(s string) (Discipline, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "fifo" {
		return FCFS, nil
	}
	for d, dd := range disciplines {
		if dd.name == name {
			return Discipline(d), nil
		}
	}
	return 0, fmt.Errorf("discipline %q is unknown: use %s", s, disciplineNames())
}

// splitList splits a comma-separated list of specs, keeping a spec's own
// parameters with it: a piece without ':' that is key=value, a number or
// empty continues the previous spec ("sita:cut=10,c=20", "modal:100,500",
// "modal:1,,2"). Each spec is joined once: the work is linear in len(s).
func splitList(s string) []string {
	pieces := strings.Split(s, ",")
	var out []string
	for i := 0; i < len(pieces); {
		j := i + 1
		for j < len(pieces) && continuesSpec(strings.TrimSpace(pieces[j])) {
			j++
		}
		spec := pieces[i:j]
		for k := range spec {
			spec[k] = strings.TrimSpace(spec[k])
		}
		out = append(out, strings.Join(spec, ","))
		i = j
	}
	return out
}

// continuesSpec reports whether a list piece is a parameter of the spec
// before it: "c=20", "500", "" (a number's syntax is its parser's business).
func continuesSpec(p string) bool {
	return !strings.Contains(p, ":") && (p == "" || strings.Contains(p, "=") || strings.IndexByte("0123456789+-.", p[0]) >= 0)
}
