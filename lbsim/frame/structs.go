package frame

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// FromStructs converts a slice (or array) of structs, or of pointers to
// structs, into a DataFrame with one row per element and one column per
// exported field.
//
// Column names come from a `frame:"name"` tag, else a `json:"name"` tag, else
// the field name; the tag "-" drops the field. Fields of embedded structs are
// flattened. Column types: float kinds give Float columns, integer kinds Int
// (uint64 only when every value fits an int, else String), bool Bool, and
// everything else (including any fmt.Stringer, such as
// time.Duration or a policy name) a String column.
//
// Unlike gota's LoadStructs, values are stored as typed series rather than
// through their string form, so floats keep full precision, and an empty
// slice gives a DataFrame with the columns and no rows.
func FromStructs(rows any) (dataframe.DataFrame, error) {
	v := reflect.ValueOf(rows)
	if !v.IsValid() {
		return dataframe.DataFrame{}, fmt.Errorf("frame.FromStructs: rows is nil; pass a slice of structs such as []Result")
	}
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return dataframe.DataFrame{}, fmt.Errorf("frame.FromStructs: rows has type %s; want a slice of structs such as []Result", v.Type())
	}
	elem := v.Type().Elem()
	isPtr := elem.Kind() == reflect.Pointer
	if isPtr {
		elem = elem.Elem()
	}
	if elem.Kind() != reflect.Struct {
		return dataframe.DataFrame{}, fmt.Errorf("frame.FromStructs: rows has type %s; its elements must be structs (or pointers to structs)", v.Type())
	}
	cols := columnsOf(elem, nil)
	if len(cols) == 0 {
		return dataframe.DataFrame{}, fmt.Errorf("frame.FromStructs: struct %s has no exported fields to use as columns", elem)
	}
	if err := checkUniqueNames(cols, elem); err != nil {
		return dataframe.DataFrame{}, err
	}
	n := v.Len()
	ss := make([]series.Series, len(cols))
	for j, c := range cols {
		fields := make([]reflect.Value, n)
		fits := c.wide
		for i := 0; i < n; i++ {
			row := v.Index(i)
			if isPtr {
				if row.IsNil() {
					return dataframe.DataFrame{}, fmt.Errorf("frame.FromStructs: element %d is a nil pointer; remove it or pass values", i)
				}
				row = row.Elem()
			}
			fields[i] = row.FieldByIndex(c.index)
			fits = fits && fields[i].Uint() <= math.MaxInt
		}
		if fits {
			c.kind = series.Int
		}
		vals := make([]any, n)
		for i, f := range fields {
			vals[i] = c.value(f)
		}
		ss[j] = c.series(vals)
	}
	df := dataframe.New(ss...)
	return df, df.Err
}

// column describes how one struct field becomes a DataFrame column.
type column struct {
	name  string
	index []int
	kind  series.Type
	wide  bool // a uint64 or uintptr field: Int if every value fits, else String
}

var stringerType = reflect.TypeFor[fmt.Stringer]()

// columnsOf lists the columns of struct type t, flattening embedded structs.
func columnsOf(t reflect.Type, prefix []int) []column {
	var cols []column
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		name, skip := tagName(f)
		if skip {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && name == "" {
			cols = append(cols, columnsOf(f.Type, index)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		k := f.Type.Kind()
		wide := (k == reflect.Uint64 || k == reflect.Uintptr) && !f.Type.Implements(stringerType)
		cols = append(cols, column{name: name, index: index, kind: seriesType(f.Type), wide: wide})
	}
	return cols
}

// tagName returns the column name from the frame or json tag ("" if none)
// and whether the field is excluded with "-".
func tagName(f reflect.StructField) (name string, skip bool) {
	for _, key := range []string{"frame", "json"} {
		tag, ok := f.Tag.Lookup(key)
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(tag, ",")
		if name == "-" {
			return "", true
		}
		if name != "" {
			return name, false
		}
	}
	return "", false
}

func checkUniqueNames(cols []column, t reflect.Type) error {
	seen := make(map[string]bool, len(cols))
	for _, c := range cols {
		if seen[c.name] {
			return fmt.Errorf("frame.FromStructs: struct %s gives two columns named %q; rename one with a `frame:\"name\"` tag", t, c.name)
		}
		seen[c.name] = true
	}
	return nil
}

func seriesType(t reflect.Type) series.Type {
	if t.Implements(stringerType) {
		return series.String
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return series.Float
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return series.Int
	case reflect.Bool:
		return series.Bool
	}
	// uint64 and uintptr may not fit an int: their column is Int when every
	// value fits (FromStructs), as ReadCSV reads it, else String, exact.
	// Every other kind is shown through its string form.
	return series.String
}

// value converts one field value to the Go type its series stores.
func (c column) value(f reflect.Value) any {
	switch c.kind {
	case series.Float:
		return f.Float()
	case series.Int:
		if f.CanInt() {
			return int(f.Int())
		}
		return int(f.Uint())
	case series.Bool:
		return f.Bool()
	}
	return fmt.Sprint(f.Interface())
}

func (c column) series(vals []any) series.Series {
	switch c.kind {
	case series.Float:
		x := make([]float64, len(vals))
		for i, v := range vals {
			x[i] = v.(float64)
		}
		return series.New(x, series.Float, c.name)
	case series.Int:
		x := make([]int, len(vals))
		for i, v := range vals {
			x[i] = v.(int)
		}
		return series.New(x, series.Int, c.name)
	case series.Bool:
		x := make([]bool, len(vals))
		for i, v := range vals {
			x[i] = v.(bool)
		}
		return series.New(x, series.Bool, c.name)
	}
	x := make([]string, len(vals))
	for i, v := range vals {
		x[i] = v.(string)
	}
	return series.New(x, series.String, c.name)
}
