// Package number is the one number syntax of everything a user writes to
// lbsim: flags, spec strings, sweep files, trace fields and notebook
// overrides. Go's literals (0x1p-1, 1_000, +5, Inf) are never what a user
// meant, so only plain decimals are numbers: an optional leading '-', ASCII
// digits with an optional '.', and an optional exponent (e or E, an optional
// sign, digits). Blanks around the text are trimmed; anything else, Unicode
// digits included, is refused with a message saying how to write the number.
package number

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Error says why a text is not a number. It wraps strconv.ErrRange
// for a value out of range (overflow or underflow) and strconv.ErrSyntax
// otherwise, so callers can word the range their own way.
type Error struct {
	Text string // the trimmed text
	Err  error  // strconv.ErrRange or strconv.ErrSyntax
	msg  string
}

func (e *Error) Error() string { return e.msg }
func (e *Error) Unwrap() error { return e.Err }

func numberErr(text string, err error, format string, args ...any) error {
	return &Error{Text: text, Err: err, msg: fmt.Sprintf(format, args...)}
}

// Empty is the error of a blank value, what a number's is: every setting
// and flag refuses one in these words, for an empty shell variable
// ("-view $VIEW") is a mistake, not the default that leaving it out gives.
// what is what to write, example one (none: "").
func Empty(what, example string) error {
	msg := fmt.Sprintf("%q is empty: write %s", "", what)
	if example != "" {
		msg += ", e.g. " + example
	}
	return &Error{Text: "", Err: strconv.ErrSyntax, msg: msg}
}

// Float reads a plain decimal number (see the package doc). An overflow
// (1e400) and an underflow of a non-zero literal to 0 (1e-400) are errors,
// not ±Inf or a silent 0; subnormal values down to 5e-324 are kept. -0 is
// read as 0: no setting tells them apart, and a value's text (a key, a
// spec) must not either.
func Float(s string) (float64, error) {
	t := strings.TrimSpace(s)
	mantissa, ok := scanDecimal(t)
	switch {
	case t == "":
		return 0, Empty("a plain decimal number", "0.5 or 2e-3")
	case !ok && isNonFinite(t):
		return 0, numberErr(t, strconv.ErrSyntax, "%q is not a finite number: write a plain decimal number, e.g. 0.5 or 2e-3", t)
	case !ok:
		return 0, numberErr(t, strconv.ErrSyntax, "%q is not a number: write a plain decimal number (digits with an optional leading '-', '.' and exponent, e.g. 0.5 or 2e-3; no hex, '_' or '+')", t)
	}
	x, err := strconv.ParseFloat(t, 64)
	if errors.Is(err, strconv.ErrRange) && x != 0 { // strconv gives ±Inf and ErrRange on overflow
		return 0, numberErr(t, strconv.ErrRange, "%q is out of range (float64 holds magnitudes up to 1.8e308): write a smaller magnitude", t)
	}
	if x == 0 && strings.ContainsAny(mantissa, "123456789") {
		return 0, numberErr(t, strconv.ErrRange, "%q is below float64's smallest magnitude 5e-324 and would be read as 0: write 0 or a larger magnitude", t)
	}
	if x == 0 {
		return 0, nil // +0 for -0
	}
	return x, nil
}

// Int reads a whole number written in ASCII digits with an optional
// leading '-': no '.', exponent, '+', hex or '_'.
func Int(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if err := scanWhole(t); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, numberErr(t, strconv.ErrRange, "%q is out of range (whole numbers from -9223372036854775808 to 9223372036854775807)", t)
	}
	return n, nil
}

// Uint is Int for whole numbers >= 0 up to 2^64-1 (seeds).
func Uint(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	if err := scanWhole(t); err != nil {
		return 0, err
	}
	if t[0] == '-' {
		if strings.Trim(t[1:], "0") == "" { // -0 is 0, as Int reads it
			return 0, nil
		}
		return 0, numberErr(t, strconv.ErrRange, "%q is negative: need a whole number >= 0", t)
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil {
		return 0, numberErr(t, strconv.ErrRange, "%q is out of range (whole numbers from 0 to 18446744073709551615)", t)
	}
	return n, nil
}

// scanWhole checks the syntax of a whole number: ASCII digits after an
// optional '-'.
func scanWhole(t string) error {
	if t == "" {
		return Empty("a whole number", "1000")
	}
	digits := strings.TrimPrefix(t, "-")
	if digits == "" || strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return numberErr(t, strconv.ErrSyntax, "%q is not a whole number: write ASCII digits with an optional leading '-', e.g. 1000 (no '.', exponent, hex, '_' or '+')", t)
	}
	return nil
}

// scanDecimal reports whether t is a plain decimal number, and returns its
// mantissa's digits (to tell a zero literal from an underflow).
func scanDecimal(t string) (mantissa string, ok bool) {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	start, digits := i, 0
	for i < len(t) && (isDigit(t[i]) || t[i] == '.') {
		if t[i] == '.' && strings.IndexByte(t[start:i], '.') >= 0 {
			return "", false // a second '.'
		}
		if t[i] != '.' {
			digits++
		}
		i++
	}
	mantissa = t[start:i]
	if digits == 0 {
		return "", false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '-' || t[i] == '+') {
			i++
		}
		exp := i
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == exp {
			return "", false
		}
	}
	return mantissa, i == len(t)
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// isNonFinite reports the words strconv reads as ±Inf or NaN.
func isNonFinite(t string) bool {
	switch strings.ToLower(strings.TrimLeft(t, "+-")) {
	case "inf", "infinity", "nan":
		return true
	}
	return false
}

// Count is n and the word, plural unless n is 1: "1 replication", "10
// replications", "3 size classes" (the plural adds "s", "es" after an s).
func Count[T ~int | ~int64](n T, word string) string {
	switch {
	case n == 1:
		return fmt.Sprintf("1 %s", word)
	case word[len(word)-1] == 's':
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
