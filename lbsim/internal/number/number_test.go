package number_test

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// The one number parser: plain decimal only, with a message for each way a
// text is not one (issue 25, item 18).
func TestNumberParser(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"0.5", 0.5}, {" 2 ", 2}, {"-3", -3}, {"1e-3", 1e-3}, {"1E+300", 1e300}, {".5", 0.5}, {"5.", 5},
		{"-0", 0}, {"0e-400", 0}, {"5e-324", 5e-324}, {"1e-320", 1e-320},
	} {
		got, err := number.Float(tc.in)
		if err != nil || got != tc.want || math.Signbit(got) != math.Signbit(tc.want) {
			t.Errorf("Float(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, mention string }{
		{"0x1p-1", "plain decimal"}, {"1_0", "plain decimal"}, {"+5", "plain decimal"}, {"0b1", "plain decimal"},
		{"1e", "plain decimal"}, {"-", "plain decimal"}, {".", "plain decimal"}, {"1.2.3", "plain decimal"},
		{"5 x", "plain decimal"}, {"１２", "plain decimal"}, {"٣", "plain decimal"}, {"", "empty"},
		{"Inf", "not a finite number"}, {"-infinity", "not a finite number"}, {"NaN", "not a finite number"},
		{"1e400", "out of range"}, {"-1e400", "up to 1.8e308"},
		{"-1e-400", "below float64's smallest magnitude 5e-324"}, {"2e-324", "smallest magnitude"},
	} {
		got, err := number.Float(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("Float(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.mention)
		}
	}
	for _, tc := range []struct {
		in   string
		want int64
	}{{"0", 0}, {" 42 ", 42}, {"-7", -7}, {"9223372036854775807", math.MaxInt64}} {
		if got, err := number.Int(tc.in); err != nil || got != tc.want {
			t.Errorf("Int(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, mention string }{
		{"+5", "whole number"}, {"0x10", "whole number"}, {"1_000", "whole number"}, {"1e2", "whole number"},
		{"1.0", "whole number"}, {"１", "whole number"}, {"", "empty"}, {"9223372036854775808", "out of range"},
	} {
		if got, err := number.Int(tc.in); err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("Int(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.mention)
		}
	}
	if got, err := number.Uint("18446744073709551615"); err != nil || got != math.MaxUint64 {
		t.Errorf("Uint(max) = %v, %v", got, err)
	}
	for _, zero := range []string{"-0", "-0.0", "-0e5"} { // issue 34 item 12: lsq:p=-0 was keyed apart from lsq:p=0
		if x, err := number.Float(zero); x != 0 || math.Signbit(x) || err != nil {
			t.Errorf("Float(%q) = %v (sign bit %v), %v; want +0", zero, x, math.Signbit(x), err)
		}
	}
	for _, zero := range []string{"-0", "-00", " -0 "} { // issue 34 item 12: "-0" was called negative
		if n, err := number.Uint(zero); n != 0 || err != nil {
			t.Errorf("Uint(%q) = %d, %v; want 0 as Int reads it", zero, n, err)
		}
		if n, err := number.Int(zero); n != 0 || err != nil {
			t.Errorf("Int(%q) = %d, %v; want 0", zero, n, err)
		}
	}
	if _, err := number.Uint("-1"); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Uint(-1): %v, want a negative error", err)
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		word string
		want string
	}{{1, "replication", "1 replication"}, {0, "replication", "0 replications"}, {20, "size class", "20 size classes"}, {1, "size class", "1 size class"}} {
		if got := number.Count(c.n, c.word); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.word, got, c.want)
		}
	}
}
