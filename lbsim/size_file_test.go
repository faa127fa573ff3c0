package lbsim

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes text to name in a fresh folder and returns its path.
func writeFile(t testing.TB, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSizesFromFile: the law of a file's sizes has the moments of its
// values, whether the file is a list with or without a header or a trace
// CSV, and its conditional moments below a cut are the sums over the
// values below it, computed here.
func TestSizesFromFile(t *testing.T) {
	xs := []float64{3, 0.5, 7.25, 1, 1, 40, 2.5, 0.125, 12, 3}
	list, trace := "", "arrival,size\n"
	for i, x := range xs {
		list += fmtNum(x) + "\n"
		trace += fmt.Sprintf("%d,%s\n", i, fmtNum(x))
	}
	dir := t.TempDir()
	files := map[string]string{
		"plain.txt":    list,
		"header.csv":   "size\n# a comment\n\n" + list,
		"trace.csv":    trace,
		"noheader.csv": strings.TrimPrefix(trace, "arrival,size\n"),
		"own.csv":      "t,duration_ms\n" + strings.TrimPrefix(trace, "arrival,size\n"),
		"wide.csv":     "host,size,status\n" + wideRows(xs),
	}
	var m [4]float64 // sums of x^j
	for _, x := range xs {
		for j := range m {
			m[j] += math.Pow(x, float64(j))
		}
	}
	n := float64(len(xs))
	for name, text := range files {
		s, err := SizesFromFile(writeFile(t, dir, name, text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m3, _ := ThirdMoment(s)
		if !near(s.Mean(), m[1]/n, 1e-13) || !near(s.SecondMoment(), m[2]/n, 1e-13) || !near(m3, m[3]/n, 1e-13) {
			t.Errorf("%s: moments %v, %v, %v; want %v, %v, %v", name, s.Mean(), s.SecondMoment(), m3, m[1]/n, m[2]/n, m[3]/n)
		}
		for _, cut := range []float64{0.1, 0.125, 1, 2.9, 3, 12, 39, 40, 100} {
			var c [3]float64
			for _, x := range xs {
				if x <= cut {
					c[0], c[1], c[2] = c[0]+1, c[1]+x, c[2]+x*x
				}
			}
			p, m1, m2, ok := BelowCut(s, cut)
			if !ok || !near(p, c[0]/n, 1e-13) || !near(m1, c[1]/n, 1e-13) || !near(m2, c[2]/n, 1e-13) {
				t.Errorf("%s: BelowCut(%v) = %v, %v, %v; want %v, %v, %v", name, cut, p, m1, m2, c[0]/n, c[1]/n, c[2]/n)
			}
		}
	}
}

func wideRows(xs []float64) string {
	var b strings.Builder
	for i, x := range xs {
		fmt.Fprintf(&b, "h%d,%s,200\n", i, fmtNum(x))
	}
	return b.String()
}

// TestSizesFromFileErrors: a bad line is named by its number, a bad size by
// its value.
func TestSizesFromFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"1\n2\nabc\n", "line 3: size"},
		{"1\n2\n\n-4\n", "line 4: size -4 is invalid"},
		{"size\n1\n0\n", "line 3: size 0 is invalid"},
		{"1\nNaN\n", "line 2: size"},
		{"1\n1e300\n", "line 2: size 1e+300 is invalid"},
		{"0,1\n1,2\n2\n", "line 3: \"2\" has 1 field(s) where the first row has 2"},
		{"a,b,c\n1,2,3\n", "names no column \"size\""},
		{"1,2,3\n", "line 1: \"1,2,3\" has 3 fields and no header"},
		{"# nothing\n\n", "no sizes found"},
	} {
		_, err := SizesFromFile(writeFile(t, dir, "bad.csv", c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.csv") {
			t.Errorf("%q: %v; want an error naming bad.csv and %q", c.text, err, c.want)
		}
	}
	if _, err := ParseSizes("file:" + filepath.Join(dir, "missing.csv")); err == nil || !strings.Contains(err.Error(), "missing.csv") {
		t.Errorf("a missing file: %v", err)
	}
}
