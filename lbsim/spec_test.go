package lbsim

import (
	"runtime"
	"strings"
	"testing"
)

// splitting a long list is linear: twice the pieces allocate about twice the
// bytes (the old += joined each piece onto a growing string: four times).
// Counting bytes is deterministic where a deadline would not be (item 15).
func TestSplitListLinear(t *testing.T) {
	bytesFor := func(n int) uint64 {
		s := "modal:" + strings.Repeat("1,", n) + "1"
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		got := splitList(s)
		runtime.ReadMemStats(&b)
		if len(got) != 1 || len(got[0]) != len(s) {
			t.Fatalf("splitList of modal with %d values: %d pieces", n, len(got))
		}
		return b.TotalAlloc - a.TotalAlloc
	}
	small, large := bytesFor(100_000), bytesFor(200_000)
	if ratio := float64(large) / float64(small); ratio > 3 {
		t.Errorf("splitList: %d bytes for 100,000 values, %d for 200,000 (x%.1f): quadratic", small, large, ratio)
	}
	// 1 MB of policies splits into its 250,000 specs.
	if got := splitList(strings.Repeat("rnd,", 250_000) + "rnd"); len(got) != 250_001 {
		t.Errorf("1 MB policy list: %d specs, want 250001", len(got))
	}
}

// Spec strings go through the one parser: Go literal syntax is refused with
// a pointer to plain decimals, an underflow is not silently 0.
func TestSpecNumbers(t *testing.T) {
	for _, tc := range []struct{ spec, mention string }{
		{"exp:mean=0x1p-1", "plain decimal"},
		{"exp:mean=1_0", "plain decimal"},
		{"exp:mean=+5", "plain decimal"},
		{"exp:mean=1e-400", "smallest magnitude"},
		{"modal:1,0x10", "plain decimal"},
		{"modal:1_0,2", "plain decimal"},
		{"modal:1,,2", "value #2 is empty"},
		{"modal:1,2,", "value #3 is empty"},
	} {
		if law, err := ParseSizes(tc.spec); err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseSizes(%q) = %v, %v; want an error saying %q", tc.spec, law, err, tc.mention)
		}
	}
	if p, err := ParsePolicy("ll:d=0x2"); err == nil || !strings.Contains(err.Error(), "plain decimal") {
		t.Errorf("ll:d=0x2 = %v, %v; want a plain-decimal error", p, err)
	}
	if law, err := ParseSizes("exp:mean=2e0"); err != nil || law.Mean() != 2 {
		t.Errorf("exp:mean=2e0 = %v, %v", law, err)
	}
}
