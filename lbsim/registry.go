package lbsim

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Family is a family of values that one spec word names, in a registry:
// policies ("ll" in "ll:d=2"), size laws ("h2") and arrival processes
// ("ramp"). Spec parsing, help texts, errors' word lists and the explorer's
// menus all come from the registries: a family is registered in its own file.
type Family[T any] struct {
	Name    string   // spec word: "ll" in "ll:d=2"
	Aliases []string // other accepted words ("random" for "rnd")
	Params  []string // allowed parameter keys; nil: none
	Need    []string // keys a spec must give (checked before New)
	// Lists are keys in Params whose value may also be a word or a list
	// ("weights=speed", "weights=2/1/1"), read by Params.Word and Params.List.
	Lists   []string
	Example string // a valid spec, used in help texts and errors
	Summary string // one line for help texts
	// A family builds its values with one of New (from key=value parameters:
	// keys in Params, each a finite number given once), NewList (from a list
	// of numbers, "modal:100,500,1000") or NewText (from the text after the
	// colon, "file:requests.csv": a file, which a menu cannot pick or offer).
	New     func(p Params) (T, error)
	NewList func(values []float64) (T, error)
	NewText func(text string) (T, error)
}

// PolicyType is a family of dispatching policies (see RegisterPolicy).
type PolicyType = Family[Policy]

// registry holds the families of one kind, by lower-case name and alias.
type registry[T any] struct {
	what string // "policy", "sizes", "arrivals": the spec's role in messages
	noun string // "policy", "size law", "arrival process"
	mu   sync.Mutex
	by   map[string]Family[T]
}

var (
	policyRegistry  = &registry[Policy]{what: "policy", noun: "policy"}
	sizeRegistry    = &registry[SizeLaw]{what: "sizes", noun: "size law"}
	arrivalRegistry = &registry[ArrivalProcess]{what: "arrivals", noun: "arrival process"}
)

// RegisterPolicy adds a policy family whose specs ParsePolicy, -policy,
// sweep files and the explorer accept; names are case-insensitive, unique.
func RegisterPolicy(t PolicyType) error { return policyRegistry.register(t) }

// ParsePolicy reads a policy spec "name" or "name:key=value,...". Whether
// parameters fit K is checked by Config.Validate, which knows K.
func ParsePolicy(spec string) (Policy, error) { return policyRegistry.parse(spec) }

// ParseSizes reads a size-law spec, "exp:mean=1" or "modal:100,500,1000"
// (the sizes Field's Choices); it reads every law's String back as the law.
func ParseSizes(spec string) (SizeLaw, error) { return sizeRegistry.parse(spec) }

func (r *registry[T]) register(f Family[T]) error {
	if f.Name == "" || btoi(f.New != nil)+btoi(f.NewList != nil)+btoi(f.NewText != nil) != 1 {
		return fmt.Errorf("register %s: a family needs a Name and one of New, NewList or NewText", r.noun)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.by == nil {
		r.by = map[string]Family[T]{}
	}
	words := append([]string{f.Name}, f.Aliases...)
	for _, w := range words {
		w = strings.ToLower(w)
		if strings.ContainsAny(w, ":,= ") {
			return fmt.Errorf("register %s: name %q must not contain ':', ',', '=' or spaces", r.noun, w)
		}
		if old, dup := r.by[w]; dup {
			return fmt.Errorf("register %s: %q is already the %s %s; choose another name", r.noun, w, r.noun, old.Name)
		}
	}
	for _, w := range words {
		r.by[strings.ToLower(w)] = f
	}
	return nil
}

func mustRegister[T any](r *registry[T], f Family[T]) {
	if err := r.register(f); err != nil {
		panic(err)
	}
}

func (r *registry[T]) families() []Family[T] {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Family[T]
	for w, f := range r.by {
		if w == strings.ToLower(f.Name) {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (r *registry[T]) examples() []string {
	var out []string
	for _, f := range r.families() {
		out = append(out, f.Example)
	}
	return out
}

// parse reads "name" or "name:params" with the family's constructor, then
// runs the value's Validate() if it has one (not a policy's, which needs K).
func (r *registry[T]) parse(spec string) (T, error) {
	var zero T
	name, params := splitSpec(spec)
	r.mu.Lock()
	f, ok := r.by[name]
	r.mu.Unlock()
	if !ok {
		return zero, fmt.Errorf("%s %q: unknown %s %q; use one of %s", r.what, spec, r.noun, name, strings.Join(r.examples(), ", "))
	}
	var v T
	var err error
	switch {
	case f.NewText != nil:
		v, err = f.NewText(params)
	case f.NewList != nil:
		var xs []float64
		if xs, err = numberList(f.Name, params, f.Example); err != nil {
			return zero, err
		}
		v, err = f.NewList(xs)
	default:
		if len(f.Params) == 0 && params != "" {
			return zero, fmt.Errorf("%s %s takes no parameters, got %q; write %s", r.what, f.Name, params, f.Example)
		}
		var kv map[string]float64
		if kv, err = keyValues(f.Name, params, f.Lists, f.Params...); err != nil {
			return zero, err
		}
		for _, k := range f.Need {
			if _, ok := kv[k]; !ok {
				return zero, fmt.Errorf("%s: missing parameter %s; e.g. %s", f.Name, k, f.Example)
			}
		}
		v, err = f.New(Params(kv))
	}
	if err != nil {
		return zero, err
	}
	if val, ok := any(v).(interface{ Validate() error }); ok {
		if err := val.Validate(); err != nil {
			return zero, err
		}
	}
	return v, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
