package lbsim

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

// PolicyType is a family of policies in the registry, the one place that
// spec parsing, help texts, error word lists and labels come from.
type PolicyType struct {
	Name    string   // spec word: "ll" in "ll:d=2"
	Aliases []string // other accepted words ("random" for "rnd")
	Params  []string // allowed parameter keys; nil: none
	Example string   // a valid spec, used in help texts and errors
	Summary string   // one line for help texts
	// New builds a policy from its parameters (only keys in Params, each
	// a finite number given once).
	New func(p Params) (Policy, error)
}

// Params are a spec's numeric parameters, "d=2,replace=1".
type Params map[string]float64

// Has reports whether the spec gave key.
func (p Params) Has(key string) bool { _, ok := p[key]; return ok }

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

var registry struct {
	sync.Mutex
	byName map[string]PolicyType
}

// RegisterPolicy adds a policy family, so that ParsePolicy, the command
// line (-policy) and sweep files accept its specs. Names are case-insensitive
// and must be new.
func RegisterPolicy(t PolicyType) error {
	if t.Name == "" || t.New == nil {
		return fmt.Errorf("RegisterPolicy: a policy type needs a Name and a New function")
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = map[string]PolicyType{}
	}
	for _, w := range append([]string{t.Name}, t.Aliases...) {
		w = strings.ToLower(w)
		if strings.ContainsAny(w, ":,= ") {
			return fmt.Errorf("RegisterPolicy: name %q must not contain ':', ',', '=' or spaces", w)
		}
		if old, dup := registry.byName[w]; dup {
			return fmt.Errorf("RegisterPolicy: %q is already the policy %s; choose another name", w, old.Name)
		}
	}
	for _, w := range append([]string{t.Name}, t.Aliases...) {
		registry.byName[strings.ToLower(w)] = t
	}
	return nil
}

func mustRegister(t PolicyType) {
	if err := RegisterPolicy(t); err != nil {
		panic(err)
	}
}

// Policies lists the registered policy families, sorted by name.
func Policies() []PolicyType {
	registry.Lock()
	defer registry.Unlock()
	var out []PolicyType
	for w, t := range registry.byName {
		if w == strings.ToLower(t.Name) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// PolicyExamples are the registered policies' example specs, for help texts
// and error messages.
func PolicyExamples() []string {
	var out []string
	for _, t := range Policies() {
		out = append(out, t.Example)
	}
	return out
}

// ParsePolicy reads a policy spec "name" or "name:key=value,...". Whether
// parameters fit K is checked by Config.Validate, which knows K.
func ParsePolicy(spec string) (Policy, error) {
	name, params := splitSpec(spec)
	registry.Lock()
	t, ok := registry.byName[name]
	registry.Unlock()
	if !ok {
		return nil, fmt.Errorf("policy %q: unknown policy %q; use one of %s", spec, name, strings.Join(PolicyExamples(), ", "))
	}
	if len(t.Params) == 0 && params != "" {
		return nil, fmt.Errorf("policy %s takes no parameters, got %q", t.Name, params)
	}
	kv, err := keyValues(t.Name, params, t.Params...)
	if err != nil {
		return nil, err
	}
	return t.New(Params(kv))
}
