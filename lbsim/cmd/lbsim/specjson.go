package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
)

// A -spec file is read as strictly as the flags: encoding/json would match
// keys in any case, let a repeated key win, ignore text after the object and
// take numbers in its own syntax. decodeSpec walks the object's tokens
// instead: exactly one object, keys exactly as the sweepSpec tags spell them
// and each once, numbers through lbsim's parser (so an integer key takes
// digits only: "jobs": 1e2 is refused like -jobs 1e2), nothing after the
// object.

// specKeys are the JSON keys of a spec in field order, and the field each
// one sets.
var specKeys, specField = func() ([]string, map[string]int) {
	t := reflect.TypeFor[sweepSpec]()
	var keys []string
	field := map[string]int{}
	for i := range t.NumField() {
		key, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys = append(keys, key)
		field[key] = i
	}
	return keys, field
}()

// decodeSpec sets the fields of s named in data, one JSON object, and
// returns the keys it gave.
func decodeSpec(data []byte, s *sweepSpec) (map[string]bool, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New(`need one JSON object, e.g. {"load": [0.5, 0.9], "policy": ["ll:d=2"]}`)
	}
	v := reflect.ValueOf(s).Elem()
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(err)
		}
		key := tok.(string) // inside an object, the decoder only returns string keys here
		i, ok := specField[key]
		if !ok {
			return nil, fmt.Errorf("unknown field %q; the keys are %s (exactly so, grid axes as JSON lists)", key, strings.Join(specKeys, ", "))
		}
		if seen[key] {
			return nil, fmt.Errorf("key %q given twice; give it once", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(err)
		}
		if err := setSpecField(key, v.Field(i), raw); err != nil {
			return nil, fmt.Errorf("%q: %v", key, err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the file holds more than one JSON object, or text after it; keep one object")
	}
	if seen["warmup"] && s.WarmupAuto {
		return nil, errors.New(`"warmup" and "warmup_auto": true both given: auto chooses the warm-up itself; drop "warmup" (or set "warmup_auto": false)`)
	}
	return seen, nil
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

// setSpecField sets a spec field from its JSON value (setJSON); "speeds"
// may also be a string in -speeds notation, "5@2,5@1".
func setSpecField(key string, f reflect.Value, raw json.RawMessage) error {
	var text string
	if key != "speeds" || json.Unmarshal(raw, &text) != nil {
		return setJSON(f, raw)
	}
	sp, err := lbsim.ParseSpeeds(text)
	if err != nil {
		return err
	}
	f.Set(reflect.ValueOf(sp))
	return nil
}

// setJSON sets a spec field from its JSON value: a bool, a string, a
// number, or a list of strings or numbers.
func setJSON(f reflect.Value, raw json.RawMessage) error {
	if string(raw) == "null" { // json.Unmarshal would keep the default
		return errors.New("null is not a value; give one or leave the key out")
	}
	switch f.Kind() {
	case reflect.Bool:
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			return fmt.Errorf("need true or false, got %s", clip(raw))
		}
	case reflect.String:
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			return fmt.Errorf(`need a string, e.g. "poisson", got %s`, clip(raw))
		}
	case reflect.Slice:
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil || items == nil {
			return fmt.Errorf(`need a list, e.g. [0.5, 0.9] or ["rnd", "rr"], got %s`, clip(raw))
		}
		list := reflect.MakeSlice(f.Type(), len(items), len(items))
		for k, item := range items {
			if err := setJSON(list.Index(k), item); err != nil {
				return fmt.Errorf("item %d: %v", k+1, err)
			}
		}
		f.Set(list)
	default:
		return setNumber(f, raw)
	}
	return nil
}

// setNumber sets an integer or float field from a JSON number, read by
// lbsim's parser (JSON's number syntax is a subset of its plain decimals).
func setNumber(f reflect.Value, raw json.RawMessage) error {
	text := string(raw)
	if text == "" || strings.IndexByte("-0123456789", text[0]) < 0 {
		return fmt.Errorf("need a number, got %s", clip(raw))
	}
	switch f.Kind() {
	case reflect.Float64:
		x, err := lbsim.ParseFloat(text)
		if err != nil {
			return err
		}
		f.SetFloat(x)
	case reflect.Uint64:
		n, err := lbsim.ParseUint(text)
		if err != nil {
			return err
		}
		f.SetUint(n)
	default: // int, int64
		n, err := lbsim.ParseInt(text)
		if err != nil {
			return err
		}
		if f.OverflowInt(n) {
			return fmt.Errorf("%s is out of range for this key", text)
		}
		f.SetInt(n)
	}
	return nil
}

// clip shortens a JSON value for a message.
func clip(raw json.RawMessage) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}
