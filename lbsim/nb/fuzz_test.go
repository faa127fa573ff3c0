package nb

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The cache reader never panics, and reads a value only from intact bytes
// of the wanted entry: any other input is a miss (recompute), never a
// different value.
func FuzzCacheEntry(f *testing.F) {
	want := cacheEntry[sweepResult]{Key: `"k"`, Type: typeShape(reflect.TypeFor[sweepResult]()), Code: "v1",
		Value: sweepResult{Mean: 323.24, Half: math.NaN(), Rows: []float64{1, math.Inf(1)}}}
	good, err := encodeEntry(want)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(cacheMagic + "00\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, ok := decodeEntry(data, want)
		if !ok {
			return
		}
		if v.Mean != want.Value.Mean || !math.IsNaN(v.Half) || !reflect.DeepEqual(v.Rows, want.Value.Rows) {
			t.Fatalf("decoded %+v, want %+v", v, want.Value)
		}
	})
}

// The environment overrides never panic; an accepted value is in range and
// reads back the same from its canonical spelling.
func FuzzEnvOverrides(f *testing.F) {
	for _, s := range []string{"", "1", "-1", "0.5,0.9", "1e999", "NaN", " 7 ", "0x10", "1,,2", "99999999999999999999", "true", "xM", "mean_size"} {
		f.Add("jobs", s)
		f.Add(s, "1")
	}
	f.Fuzz(func(t *testing.T, name, v string) {
		if env := EnvName(name); !strings.HasPrefix(env, "LBSIM_") || env != strings.ToUpper(env) {
			t.Fatalf("EnvName(%q) = %q", name, env)
		}
		if n, err := parseInt[int](name, v); err == nil {
			if n < 0 {
				t.Fatalf("parseInt(%q) = %d < 0", v, n)
			}
			if back, err := parseInt[int](name, strconv.Itoa(n)); err != nil || back != n {
				t.Fatalf("%d does not read back: %d, %v", n, back, err)
			}
			if small, err := parseInt[uint8](name, v); (err == nil) != (n <= 255) || (err == nil && int(small) != n) {
				t.Fatalf("parseInt[uint8](%q) = %d, %v; as int %d", v, small, err, n)
			}
		}
		if xs, err := parseFloats(name, v); err == nil {
			parts := make([]string, len(xs))
			for i, x := range xs {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("parseFloats(%q) accepted %v", v, x)
				}
				parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
			}
			back, err := parseFloats(name, strings.Join(parts, ","))
			if err != nil || !reflect.DeepEqual(back, xs) {
				t.Fatalf("%v does not read back: %v, %v", xs, back, err)
			}
		}
	})
}
