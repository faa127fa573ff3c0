package nb

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Every single-bit flip of a cache file is caught by its checksum: the value
// is recomputed (never a different value decoded), and the file is
// replaced by an intact one.
func TestCachedBitFlipsRecompute(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	want := sweepResult{Mean: 323.24, Half: 0.5, Rows: []float64{1, 2, 3}}
	calls := 0
	if _, err := Cached("flip", counting(&calls, want)); err != nil {
		t.Fatal(err)
	}
	path := cacheFiles(t, dir)[0]
	good, _ := os.ReadFile(path)
	e := cacheEntry[sweepResult]{Key: `"flip"`, Type: typeShape(reflect.TypeFor[sweepResult]()), Code: lbsim.CodeVersion()}
	if v, ok := decodeEntry(good, e); !ok || !reflect.DeepEqual(v, want) {
		t.Fatalf("intact file: %+v, %v", v, ok)
	}
	for bit := range 8 * len(good) {
		bad := append([]byte(nil), good...)
		bad[bit/8] ^= 1 << (bit % 8)
		if v, ok := decodeEntry(bad, e); ok {
			t.Fatalf("bit %d flipped: decoded %+v", bit, v)
		}
		if bit%61 != 0 {
			continue // the whole round trip for a sample of the flips
		}
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		before := calls
		got, err := Cached("flip", counting(&calls, want))
		if err != nil || !reflect.DeepEqual(got, want) || calls != before+1 {
			t.Fatalf("bit %d flipped: got %+v, %v, computed %d times; want a recomputation of %+v", bit, got, err, calls-before, want)
		}
	}
	t.Logf("%d single-bit flips of a %d-byte cache file: every one detected", 8*len(good), len(good))
	if b, _ := os.ReadFile(path); string(b) != string(good) {
		t.Error("the damaged file was not replaced by an intact one")
	}
}

// A struct that gains a field is a new cache entry (it used to decode an
// old entry with the new field zero): the key holds the type's full shape.
func TestCachedKeyHoldsTypeShape(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", dir)
	t.Setenv("LBSIM_NO_CACHE", "")
	old := func() any {
		type point struct{ Mean float64 }
		v, _ := Cached("shape", func() (point, error) { return point{Mean: 1}, nil })
		return v
	}()
	type point struct{ Mean, P99 float64 } // same name, one more field
	calls := 0
	v, err := Cached("shape", func() (point, error) { calls++; return point{Mean: 1, P99: 7}, nil })
	if err != nil || calls != 1 || v.P99 != 7 {
		t.Errorf("new type read the old entry %+v: got %+v (computed %d times), want P99 = 7", old, v, calls)
	}
	if a, b := typeShape(reflect.TypeOf(old)), typeShape(reflect.TypeFor[point]()); a == b {
		t.Errorf("two struct shapes describe the same: %s", a)
	}
	type node struct {
		Next *node
		Kids []node
	}
	if s := typeShape(reflect.TypeFor[node]()); !strings.Contains(s, "Next") || len(s) > 500 {
		t.Errorf("recursive type shape %q", s)
	}
}

// The cache key holds the code version of the running binary (not of the
// sources on disk); the two-builds test in cmd/lbsim shows two builds do
// not share entries. Here: the stored entry names it, and an entry of
// another version is not read.
func TestCachedEntryNamesCodeVersion(t *testing.T) {
	e := cacheEntry[float64]{Key: "k", Type: "float64", Code: lbsim.CodeVersion(), Value: 2}
	b, err := encodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := decodeEntry(b, e); !ok || v != 2 {
		t.Fatalf("intact entry: %v, %v", v, ok)
	}
	other := e
	other.Code = "0000000000000000"
	if _, ok := decodeEntry(b, other); ok {
		t.Error("an entry of another code version was read")
	}
}

func TestEnvName(t *testing.T) {
	for name, want := range map[string]string{
		"jobs": "LBSIM_JOBS", "xm": "LBSIM_XM", "xM": "LBSIM_X_M", "mean_size": "LBSIM_MEAN_SIZE",
		"JOBS": "LBSIM_JOBS", "ratio_loads": "LBSIM_RATIO_LOADS", "p2Max": "LBSIM_P2_MAX",
	} {
		if got := EnvName(name); got != want {
			t.Errorf("EnvName(%q) = %s, want %s", name, got, want)
		}
	}
}

// catchFail replaces fail for the test and returns the last error.
func catchFail(t *testing.T) *error {
	var got error
	old := fail
	fail = func(err error) { got = err }
	t.Cleanup(func() { fail = old })
	return &got
}

// Each reproduction of issue 11 and a sibling: a clear error, never a
// silent fallback.
func TestOverridesStrict(t *testing.T) {
	got := catchFail(t)
	for _, tc := range []struct {
		env, val string
		read     func() any
		mention  string
	}{
		{"LBSIM_BETA", "0.5,0.9", func() any { return Float("beta", 0.8, 0.8) }, "holds 2 numbers"},
		{"LBSIM_LOAD", "0.5,", func() any { return Float("load", 0.8, 0.8) }, "item 2"},
		{"LBSIM_SEED", "-1", func() any { return Int("seed", 1, 1) }, "negative"},
		{"LBSIM_REPS", "1e3", func() any { return Int("reps", 1, 1) }, "not a whole number"},
		{"LBSIM_JOBS", "", func() any { return Int("jobs", 1, 1) }, "empty"},
		{"LBSIM_JOBS", "99999999999999999999", func() any { return Int("jobs", 1, 1) }, "out of range"},
		{"LBSIM_LOADS", "", func() any { return Floats("loads", nil, nil) }, "empty"},
		{"LBSIM_LOADS", "0.5,NaN", func() any { return Floats("loads", nil, nil) }, "finite"},
		{"LBSIM_LOADS", "1e999", func() any { return Floats("loads", nil, nil) }, "out of range (float64 holds magnitudes up to 1.8e308)"},
		{"LBSIM_QUICK", "maybe", func() any { return Quick() }, "not a switch"},
	} {
		*got = nil
		t.Setenv(tc.env, tc.val)
		tc.read()
		if *got == nil || !strings.Contains((*got).Error(), tc.mention) || !strings.Contains((*got).Error(), tc.env) {
			t.Errorf("%s=%q: error %v, want one naming %s and saying %q", tc.env, tc.val, *got, tc.env, tc.mention)
		}
		os.Unsetenv(tc.env)
	}
	// Valid values, and names that differ only in case stay apart.
	*got = nil
	t.Setenv("LBSIM_QUICK", "true")
	t.Setenv("LBSIM_XM", "2")
	t.Setenv("LBSIM_X_M", "500")
	if !Quick() || Float("xm", 1, 1) != 2 || Float("xM", 1000, 1000) != 500 || Int("jobs", 10, 3) != 3 {
		t.Errorf("LBSIM_QUICK=true, LBSIM_XM=2, LBSIM_X_M=500: quick %v xm %v xM %v jobs %v",
			Quick(), Float("xm", 1, 1), Float("xM", 1000, 1000), Int("jobs", 10, 3))
	}
	t.Setenv("LBSIM_QUICK", "0")
	if Quick() || *got != nil {
		t.Errorf("LBSIM_QUICK=0: quick %v, error %v", Quick(), *got)
	}
}

// probeEnv makes this test binary a cache client for the two-builds test in
// lbsim/cmd/lbsim: it runs one Cached computation whose value is the code
// version of the build, and prints whether it computed and what it got.
const probeEnv = "LBSIM_CACHE_PROBE"

func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) == "1" {
		computed := false
		v, err := Cached("two-builds probe", func() (string, error) {
			computed = true
			return lbsim.CodeVersion(), nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Printf("computed=%v value=%s code=%s\n", computed, v, lbsim.CodeVersion())
		os.Exit(0)
	}
	os.Exit(m.Run())
}
