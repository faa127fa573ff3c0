package lbsim

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// A policy's value is its spec, which a run must not change (see Policy).
// So that no run can change the user's value, or race another one over it,
// each replication (and each probe run of Config.Key) works on its own copy
// of a policy of one's own (policyCopy), and checks when it ends that the
// copy is as it was (dataHash): a policy that changed it (Pick counting jobs
// in a field of a pointer receiver, filling a map, drawing from a random
// source of its own) is refused with an error that says where its state
// belongs. This costs a walk of the value per replication, nothing per job.
// A built-in policy (whose dispatcher keeps its state apart) is never
// copied, nor a value without pointer, slice, map or interface. What reflect
// cannot reach is not seen: state in a closure, a channel or a global.

// ownPolicy is the value of p one replication runs on, and its data's hash
// for policyKept; p itself and 0 when p cannot change.
func ownPolicy(p Policy) (Policy, uint64) {
	if _, own := impl(p).(yours); p == nil || !own || !mutable(reflect.TypeOf(p), map[reflect.Type]bool{}) {
		return p, 0
	}
	own := policyCopy(p)
	return own, dataHash(own, false)
}

// policyKept is the error of a replication whose policy value own no longer hashes to before.
func policyKept(own Policy, before uint64) error {
	if before == 0 || dataHash(own, false) == before {
		return nil
	}
	return fmt.Errorf("policy %s (%s) changed its own value during a run (its Pick or Start wrote to it): "+
		"that value is the spec every replication and dispatcher starts from, and must stay as it was. Keep state "+
		"from job to job in the value a method Start(v *lbsim.View) lbsim.Policy returns, a fresh one per "+
		"replication and dispatcher (see lbsim.Policy), and draw random numbers from v.Rand()", policyName(Config{Policy: own}), typeName(reflect.TypeOf(own)))
}

// mutable reports whether a value of type t can change through a copy:
// whether it holds a pointer, slice, map or interface.
func mutable(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false // being asked further up
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return mutable(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if mutable(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// policyCopy is a deep copy of p, unexported fields too (funcs and channels
// shared); pointers to one value stay pointers to one copy.
func policyCopy(p Policy) Policy {
	v := reflect.New(reflect.TypeOf(p)).Elem()
	v.Set(reflect.ValueOf(p))
	unshare(v, map[pointerVisit]reflect.Value{})
	return v.Interface().(Policy)
}

// pointerVisit is a pointer already copied: its address and type.
type pointerVisit struct {
	addr uintptr
	t    reflect.Type
}

// unshare replaces, in the addressable v, every pointer, slice, map and
// interface by a copy of what it holds.
func unshare(v reflect.Value, copied map[pointerVisit]reflect.Value) {
	if !v.CanSet() { // an unexported field: the copy is ours to write
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		at := pointerVisit{v.Pointer(), v.Type()}
		if c, ok := copied[at]; ok {
			v.Set(c)
			return
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(v.Elem())
		copied[at] = c
		unshare(c.Elem(), copied)
		v.Set(c)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		c := reflect.New(v.Elem().Type()).Elem()
		c.Set(v.Elem())
		unshare(c, copied)
		v.Set(c)
	case reflect.Struct:
		for i := range v.NumField() {
			unshare(v.Field(i), copied)
		}
	case reflect.Array:
		for i := range v.Len() {
			unshare(v.Index(i), copied)
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Cap())
		reflect.Copy(c, v)
		for i := range c.Len() {
			unshare(c.Index(i), copied)
		}
		v.Set(c)
	case reflect.Map:
		if v.IsNil() {
			return
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			k.Set(it.Key())
			e.Set(it.Value())
			unshare(k, copied)
			unshare(e, copied)
			c.SetMapIndex(k, e)
		}
		v.Set(c)
	}
}

// dataHash is FNV-1a over a canonical encoding of p's data, through
// pointers, interfaces, slices and maps (in their keys' encodings' order):
// no addresses, of funcs and channels only their type. With exported, only
// exported fields (Config.Key's); else all (what a run must leave unchanged).
func dataHash(p Policy, exported bool) uint64 {
	w := dataWriter{exported: exported}
	v := reflect.ValueOf(p)
	w.b = append(w.b, typeName(v.Type())...)
	w.walk(v, nil)
	return fnvString(fnvOffset, string(w.b))
}

// dataWriter encodes a value's data (dataHash).
type dataWriter struct {
	b        []byte
	exported bool
}

// walk appends v's encoding; path holds the pointers being walked, so that
// a cycle is written as a mark, not followed.
func (w *dataWriter) walk(v reflect.Value, path []uintptr) {
	switch v.Kind() {
	case reflect.Invalid:
		w.b = append(w.b, 'n')
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			w.b = append(w.b, 'n')
			return
		}
		if v.Kind() == reflect.Pointer {
			if slices.Contains(path, v.Pointer()) {
				w.b = append(w.b, '^')
				return
			}
			path = append(path, v.Pointer())
		}
		w.b = append(w.b, '*')
		w.walk(v.Elem(), path)
	case reflect.Struct:
		w.b = append(w.b, '{')
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() || !w.exported {
				w.b = append(w.b, f.Name+":"...)
				w.walk(v.Field(i), path)
			}
		}
		w.b = append(w.b, '}')
	case reflect.Slice, reflect.Array:
		w.b = binary.AppendUvarint(append(w.b, '['), uint64(v.Len()))
		for i := range v.Len() {
			w.walk(v.Index(i), path)
		}
	case reflect.Map:
		type pair struct{ k, e []byte }
		pairs := make([]pair, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			kw, ew := dataWriter{exported: w.exported}, dataWriter{exported: w.exported}
			kw.walk(it.Key(), path)
			ew.walk(it.Value(), path)
			pairs = append(pairs, pair{kw.b, ew.b})
		}
		slices.SortFunc(pairs, func(a, b pair) int { return slices.Compare(a.k, b.k) })
		w.b = binary.AppendUvarint(append(w.b, 'm'), uint64(len(pairs)))
		for _, p := range pairs {
			w.b = append(append(w.b, p.k...), p.e...)
		}
	case reflect.Bool:
		w.b = append(w.b, 'f')
		if v.Bool() {
			w.b[len(w.b)-1] = 't'
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.b = binary.AppendVarint(append(w.b, 'i'), v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.b = binary.AppendUvarint(append(w.b, 'u'), v.Uint())
	case reflect.Float32, reflect.Float64:
		w.b = binary.LittleEndian.AppendUint64(append(w.b, 'x'), math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		w.b = binary.LittleEndian.AppendUint64(append(w.b, 'c'), math.Float64bits(real(c)))
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(imag(c)))
	case reflect.String:
		w.b = append(binary.AppendUvarint(append(w.b, 's'), uint64(v.Len())), v.String()...)
	default: // funcs, channels, unsafe pointers: an address is not the same from run to run
		w.b = append(w.b, v.Type().String()...)
	}
}
