package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Numeric flags are read by lbsim's one number parser, like every list and
// spec: the flag package's own Int64Var and Float64Var take Go literals
// (0x10, 1_000, +5, Inf), which are never what a user meant.

type numeric interface{ int | int64 | uint64 | float64 }

// numberVar defines a numeric flag with default def, as fs.IntVar and its
// siblings do.
func numberVar[T numeric](fs *flag.FlagSet, p *T, name string, def T, usage string) {
	*p = def
	fs.Var(numberValue[T]{p}, name, usage)
}

// numberValue is a flag.Value whose errors say all that is wrong:
// parseStrict reports them as "-name: why" (see onceValue.Set).
type numberValue[T numeric] struct{ p *T }

func (numberValue[T]) ownMessage() {}

func (v numberValue[T]) Set(s string) error {
	x, err := parseNumber[T](s)
	if err == nil {
		*v.p = x
	}
	return err
}

// String serves flag's printing of defaults, which calls it on a zero value
// too.
func (v numberValue[T]) String() string {
	if v.p == nil {
		return "0"
	}
	switch x := any(*v.p).(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}

// parseNumber reads s as a T with number.Int, number.Uint or number.Float.
func parseNumber[T numeric](s string) (T, error) {
	var zero T
	switch any(zero).(type) {
	case float64:
		x, err := number.Float(s)
		return T(x), err
	case uint64:
		n, err := number.Uint(s)
		return T(n), err
	}
	n, err := number.Int(s)
	if _, isInt := any(zero).(int); isInt && err == nil && (n < math.MinInt || n > math.MaxInt) {
		return 0, fmt.Errorf("%q is out of range (whole numbers from %d to %d)", s, math.MinInt, math.MaxInt)
	}
	return T(n), err
}

// textVar defines a string flag that refuses a blank value, as every flag
// does (number.Empty), naming what to write and an example: leaving the
// flag out gives its default ("").
func textVar(fs *flag.FlagSet, p *string, name, what, example, usage string) {
	fs.Var(textValue{p, what, example}, name, usage)
}

type textValue struct {
	p             *string
	what, example string
}

func (textValue) ownMessage() {}

func (v textValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return number.Empty(v.what, v.example)
	}
	*v.p = s
	return nil
}

// String serves flag's printing of defaults, also on a zero value.
func (v textValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}
