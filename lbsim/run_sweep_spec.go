package lbsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A sweep in text: the command line's flags (-servers 8,16 -policy
// rnd,ll:d=2), a sweep file's JSON object ({"servers": [8, 16]}) and a
// Slurm script's tasks describe a Grid field by field of the table
// (config_fields.go): an axis takes a list of values, any other setting one.

// DefaultGrid is the command line's defaults: every field at its Default.
func DefaultGrid() Grid {
	var g Grid
	for i := range fields {
		if fields[i].Default == "" {
			continue // the zero value: no trace, an even split
		}
		if err := fields[i].ops.set(&g, fields[i].Default); err != nil {
			panic(fmt.Sprintf("lbsim: field %s: default %q: %v", fields[i].Name, fields[i].Default, err))
		}
	}
	return g
}

// Set sets the field of that name (or column) from text: one value, or
// for an axis a comma-separated list of values (specs keep their own
// comma-separated parameters: "rnd,sita:cut=10,c=20" is two policies).
func (g *Grid) Set(name, text string) error {
	f, ok := fieldNamed(name)
	if !ok {
		return fmt.Errorf("no setting is named %q", name)
	}
	if f.ops.axis == nil {
		return f.ops.set(g, text)
	}
	return f.ops.axis.set(g, f.items(text))
}

// items splits an axis's text: specs with splitList, numbers at each comma.
func (f *Field) items(text string) []string {
	if f.kind == kindText {
		return splitList(text)
	}
	return strings.Split(text, ",")
}

// Flags defines a flag on fs for every setting (for a sweep also
// skip-invalid), named and documented as the field, that sets it in g;
// given records the fields the command line set, for Settle.
func (g *Grid) Flags(fs *flag.FlagSet, sweep bool, given map[string]bool) {
	for i := range fields {
		f := &fields[i]
		if f.scope == scopeSweep && !sweep {
			continue
		}
		usage := f.Doc
		if ch := f.Choices(); len(ch) > 0 && f.Name != "discipline" {
			usage += ", one of:"
			for _, c := range ch {
				usage += fmt.Sprintf("\n      %-32s %s", c.Example, c.Summary)
			}
		}
		fs.Var(&fieldFlag{g, f, given}, f.Name, usage)
	}
}

// fieldFlag is a field's flag.Value.
type fieldFlag struct {
	g     *Grid
	f     *Field
	given map[string]bool
}

// Set sets the field; its error leaves the field's name to the flag's.
func (v *fieldFlag) Set(text string) error {
	v.given[v.f.Name] = true
	if err := v.g.Set(v.f.Name, text); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), v.f.Name+": "))
	}
	return nil
}

// String serves flag's printing of defaults, also on a zero fieldFlag.
func (v *fieldFlag) String() string {
	if v == nil || v.g == nil {
		return ""
	}
	return v.g.Text(v.f.Name)
}

// IsBoolFlag lets a switch be given without a value: -tally.
func (v *fieldFlag) IsBoolFlag() bool { return v.f.IsBool() }

// Field is the setting the flag sets.
func (v *fieldFlag) Field() Field { return *v.f }

// Text is the field's value as the command line writes it (an axis's
// values joined by commas).
func (g *Grid) Text(name string) string {
	f, ok := fieldNamed(name)
	if !ok {
		return ""
	}
	return strings.Join(g.texts(f), ",")
}

// texts are f's values: an axis's, or the one base value.
func (g *Grid) texts(f *Field) []string {
	if f.ops.axis != nil && f.ops.axis.n(g) > 0 {
		return f.ops.axis.texts(g)
	}
	return []string{f.ops.get(g)}
}

// Settle applies the rules between settings that the command line and
// sweep files share, given the fields the input set: a trace replaces the
// sizes and arrivals, and is replayed at its own load unless load is given
// and whole unless jobs is; a ramp sets the load; a setting so replaced is
// an error, as are warmup and warmup-auto together. inFile words the errors
// for a sweep file ("load") instead of flags (-load).
func (g *Grid) Settle(given map[string]bool, inFile bool) error {
	say := func(name string) string {
		if inFile {
			return fmt.Sprintf("%q", strings.ReplaceAll(name, "-", "_"))
		}
		return "-" + name
	}
	for _, name := range g.replaced() {
		if given[name] {
			by := fmt.Sprintf("%s %s: the ramp's from and to are the loads", say("arrivals"), g.Base.Arrivals)
			if g.Base.Trace != nil {
				by = say("trace") + " " + g.Base.Trace.Source + ": the trace's arrival times and sizes replace sizes and arrivals (" + say("load") + " scales its arrival times)"
			}
			return fmt.Errorf("%s %s has no effect with %s; drop %s", say(name), g.Text(name), by, say(name))
		}
	}
	switch r, ramp := g.Base.Arrivals.(Ramp); {
	case g.Base.Trace != nil:
		if !given["jobs"] {
			g.Base.Jobs = 0
		}
		if !given["load"] {
			g.Loads, g.Base.Load = nil, 0 // the trace's own
		}
		g.Sizes, g.Base.Sizes, g.Base.Arrivals = nil, nil, nil
	case ramp:
		g.Loads, g.Base.Load = nil, r.To
	}
	if given["warmup"] && given["warmup-auto"] && g.Base.WarmupAuto {
		return fmt.Errorf("%s and %s both given: auto chooses the warm-up itself; drop %s", say("warmup"), say("warmup-auto"), say("warmup"))
	}
	return nil
}

// replaced are the settings another one sets (a trace's sizes and
// arrivals, a ramp's load): an error in Settle, left out by Args.
func (g *Grid) replaced() []string {
	if g.Base.Trace != nil {
		return []string{"sizes", "arrivals"}
	}
	if _, ramp := g.Base.Arrivals.(Ramp); ramp {
		return []string{"load"}
	}
	return nil
}

// Args are the sweep's settings that are not at their defaults, as lbsim
// sweep's flags, for a batch script's tasks: parsed back, they give the
// same grid and Canonical text.
func (g Grid) Args() []string {
	var out []string
	for i := range fields {
		f := &fields[i]
		if f.scope == scopeRun || slices.Contains(g.replaced(), f.Name) {
			continue
		}
		text := strings.Join(g.texts(f), ",")
		switch {
		case text == f.Default:
		case f.kind == kindBool:
			out = append(out, "-"+f.Name+"="+text)
		default:
			out = append(out, "-"+f.Name, text)
		}
	}
	return out
}

// Canonical is the text whose SHA-256 identifies the sweep in its shard
// files, however it was written: a format tag, the code version (two
// builds' shards never merge, and a fixed build never skips an old build's
// shards), and every field that changes the rows with its values as text,
// a trace and a size file by their contents rather than their paths. How
// the sweep runs (workers, its shards) is not part of it.
func (g Grid) Canonical() string {
	var b strings.Builder
	fmt.Fprintf(&b, "lbsim-sweep v4 code=%s\n", CodeVersion())
	for i := range fields {
		f := &fields[i]
		switch {
		case f.scope == scopeRun:
			continue
		case f.Name == "trace":
			fmt.Fprintf(&b, "%s=%s\n", f.Column(), traceKey(&g.Base))
		case f.Name == "sizes": // by their keys: a file's law by its content
			laws := g.Sizes
			if len(laws) == 0 {
				laws = []SizeLaw{g.Base.Sizes}
			}
			keys := make([]string, len(laws))
			for i, s := range laws {
				keys[i] = nameOr(s, sizesKey)
			}
			fmt.Fprintf(&b, "%s=%q\n", f.Column(), keys)
		default:
			fmt.Fprintf(&b, "%s=%q\n", f.Column(), g.texts(f))
		}
	}
	return b.String()
}

// ReadJSON sets g's fields from a sweep file, one JSON object keyed by the
// fields' columns (Field.Column), an axis's value a list, and returns the
// fields it gave. It is as strict as the flags: keys exactly as spelled and
// each once, numbers through lbsim's parser ("jobs": 1e6 is refused like
// -jobs 1e6), no null, nothing after the object.
func (g *Grid) ReadJSON(data []byte) (given map[string]bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New(`need one JSON object, e.g. {"load": [0.5, 0.9], "policy": ["ll:d=2"]}`)
	}
	given = map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(err)
		}
		key := tok.(string) // inside an object the decoder returns keys here
		f, ok := fieldNamed(key)
		if !ok || f.Column() != key || f.scope == scopeRun {
			return nil, fmt.Errorf("unknown field %q; the keys are %s (exactly so, grid axes as JSON lists)", key, strings.Join(specKeys(), ", "))
		}
		if given[f.Name] {
			return nil, fmt.Errorf("key %q given twice; give it once", key)
		}
		given[f.Name] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(err)
		}
		if err := g.setJSON(f, raw); err != nil {
			return nil, fmt.Errorf("%q: %v", key, err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the file holds more than one JSON object, or text after it; keep one object")
	}
	return given, nil
}

// specKeys are the keys of a sweep file, in the table's order.
func specKeys() []string {
	var out []string
	for i := range fields {
		if fields[i].scope != scopeRun {
			out = append(out, fields[i].Column())
		}
	}
	return out
}

// setJSON sets f from its JSON value: for an axis a list, or one value as
// on the command line ("policy": "rnd,rr"); for a list-valued setting a
// list of numbers or its command-line text ("5@2,5@1"); else one value.
func (g *Grid) setJSON(f *Field, raw json.RawMessage) error {
	if f.kind != kindList && (f.ops.axis == nil || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("["))) {
		text, err := jsonText(f.kind, raw, exampleJSON(f))
		if err != nil {
			return err
		}
		if f.ops.axis != nil {
			return f.ops.axis.set(g, f.items(text))
		}
		return f.ops.set(g, text)
	}
	var s string
	if f.kind == kindList && json.Unmarshal(raw, &s) == nil {
		return f.ops.set(g, s)
	}
	var items []json.RawMessage
	if string(raw) == "null" || json.Unmarshal(raw, &items) != nil || items == nil {
		return fmt.Errorf(`need a list, e.g. [0.5, 0.9] or ["rnd", "rr"], got %s`, clipJSON(raw))
	}
	if len(items) == 0 { // it set the default silently, K = 50 for "servers": []
		return fmt.Errorf("an empty list sets nothing: give at least one value, e.g. [%s], or leave the key out for the default", exampleJSON(f))
	}
	item := f.kind
	if item == kindList {
		item = kindFloat
	}
	texts := make([]string, len(items))
	for i, it := range items {
		t, err := jsonText(item, it, exampleJSON(f))
		if err != nil {
			return fmt.Errorf("item %d: %v", i+1, err)
		}
		texts[i] = t
	}
	if f.ops.axis == nil {
		return f.ops.set(g, strings.Join(texts, ","))
	}
	if f.kind == kindText { // one spec per value: ["rnd,rr"] is ["rnd", "rr"]
		texts = f.items(strings.Join(texts, ","))
	}
	return f.ops.axis.set(g, texts)
}

// exampleJSON is f's example (Field.example) as one JSON value ("live"
// quoted, 0.5 not; dispatcher_weights' 2,1 as the list's items 2, 1).
func exampleJSON(f *Field) string {
	d := f.example()
	switch f.kind {
	case kindList:
		return strings.ReplaceAll(d, ",", ", ")
	case kindText:
		b, _ := json.Marshal(d)
		return string(b)
	}
	return d
}

// jsonText is one JSON value of kind k as the command line's text; a
// string's example names the field's own (exampleJSON).
func jsonText(k kind, raw json.RawMessage, example string) (string, error) {
	text := string(raw)
	switch {
	case text == "null":
		return "", errors.New("null is not a value; give one or leave the key out")
	case k == kindBool:
		if text != "true" && text != "false" {
			return "", fmt.Errorf("need true or false, got %s", clipJSON(raw))
		}
	case k == kindText:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", fmt.Errorf(`need a string, e.g. %s, got %s`, example, clipJSON(raw))
		}
		return s, nil
	case text == "" || strings.IndexByte("-0123456789", text[0]) < 0:
		return "", fmt.Errorf("need a number, got %s", clipJSON(raw))
	}
	return text, nil
}

// jsonError words a JSON syntax error with where it is.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the file ends inside the object; close it with }")
	case errors.As(err, &syntax):
		return fmt.Errorf("invalid JSON at byte %d: %v", syntax.Offset, err)
	}
	return err
}

// clipJSON shortens a JSON value for a message.
func clipJSON(raw json.RawMessage) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}
