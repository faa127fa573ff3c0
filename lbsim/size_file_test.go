package lbsim

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
		m3, _ := lawThirdMoment(s)
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

// TestSizeFileExactWait: under random dispatching each of K servers is an
// M/G/1 queue, so theory's exact mean wait for the file's law is
// Pollaczek-Khinchine's with the file's moments, computed here.
func TestSizeFileExactWait(t *testing.T) {
	xs := []float64{1, 1, 2, 3, 5, 8, 13, 21, 34, 0.25}
	text := ""
	for _, x := range xs {
		text += fmtNum(x) + "\n"
	}
	s, err := SizesFromFile(writeFile(t, t.TempDir(), "fib.txt", text))
	if err != nil {
		t.Fatal(err)
	}
	m1, m2 := 0.0, 0.0
	for _, x := range xs {
		m1, m2 = m1+x/10, m2+x*x/10
	}
	const rho = 0.7
	ref, ok := Exact(Config{Servers: 5, Load: rho, Sizes: s, Policy: Random{}, Jobs: 1000})
	if pk := rho * m2 / (2 * m1 * (1 - rho)); !ok || !near(ref.Wait, pk, 1e-12) || !near(ref.Response, pk+m1, 1e-12) {
		t.Errorf("exact %+v, %v; want P-K wait %v, response %v", ref, ok, pk, pk+m1)
	}
}

// TestSizeFileKey: a file's law is known in Config.Key and sweep ids by
// its content: the same content under two names has one key, a changed
// file another; its column names the file's base name and hash.
func TestSizeFileKey(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.csv", "size\n1\n2\n5\n")
	b := writeFile(t, dir, "b.txt", "size\n1\n2\n5\n")
	key := func(path string) (string, string, string) {
		t.Helper()
		s, err := ParseSizes("file:" + path)
		if err != nil {
			t.Fatal(err)
		}
		g := Grid{Base: Config{Servers: 2, Load: 0.5, Sizes: s, Policy: Random{}, Jobs: 1000}}
		return g.Base.Key(), g.Canonical(), NewRow(Result{Config: g.Base}).Sizes
	}
	ka, ca, na := key(a)
	kb, cb, nb := key(b)
	if ka != kb || ca != cb {
		t.Errorf("one content, two keys:\n%s\n%s", ka, kb)
	}
	if !strings.HasPrefix(na, "file:a.csv#") || !strings.HasPrefix(nb, "file:b.txt#") || len(na) > 40 {
		t.Errorf("columns %q, %q; want file:BASE#HASH", na, nb)
	}
	if strings.Contains(ka, dir) || !strings.Contains(ka, "sizes=file#") {
		t.Errorf("key %q: want the content's hash, not the path", ka)
	}
	writeFile(t, dir, "a.csv", "size\n1\n2\n6\n")
	if kc, cc, nc := key(a); kc == ka || cc == ca || nc == na {
		t.Errorf("a changed file kept its key %q, sweep id or name %q", kc, nc)
	}
}

// TestParseCache: a file of parseCacheMin bytes or more is read from the
// cache the second time, with the same values; a changed file is parsed
// again, never served the old parse; a damaged entry is ignored.
func TestParseCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("LBSIM_CACHE_DIR", cache)
	t.Setenv("LBSIM_NO_CACHE", "")
	defer func(m int64) { parseCacheMin = m }(parseCacheMin)
	parseCacheMin = 1
	dir := t.TempDir()
	path := writeFile(t, dir, "log.csv", "arrival,size\n0,1.5\n1,2.5\n3,4\n")
	tr, err := LoadTrace(path)
	entries, _ := filepath.Glob(filepath.Join(cache, "parsed", "*.trace"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("first read: %v, %d entries", err, len(entries))
	}
	// An entry that says other values proves the second read is the cache's.
	forged := [][]float64{{0, 1, 3}, {1.5, 2.5, 7}}
	sum := entrySum(t, entries[0])
	if err := writeParsed(entries[0], sum, forged); err != nil {
		t.Fatal(err)
	}
	if again, err := LoadTrace(path); err != nil || again.Sizes[2] != 7 || tr.Sizes[2] != 4 {
		t.Errorf("second read: %v, %v; want the cache's sizes", again.Sizes, err)
	}
	writeFile(t, dir, "log.csv", "arrival,size\n0,1.5\n1,2.5\n3,5\n")
	if changed, err := LoadTrace(path); err != nil || changed.Sizes[2] != 5 {
		t.Errorf("changed file: %v, %v; want it parsed again (5)", changed.Sizes, err)
	}
	data, _ := os.ReadFile(entries[0])
	data[len(data)-40] ^= 1 // a flipped bit in the last value
	os.WriteFile(entries[0], data, 0o644)
	writeFile(t, dir, "log.csv", "arrival,size\n0,1.5\n1,2.5\n3,4\n")
	if back, err := LoadTrace(path); err != nil || back.Sizes[2] != 4 {
		t.Errorf("damaged entry: %v, %v; want the file parsed again (4)", back.Sizes, err)
	}
	s, err := SizesFromFile(path)
	if sizes, _ := filepath.Glob(filepath.Join(cache, "parsed", "*.sizes")); err != nil || len(sizes) != 1 || s.Mean() != 8.0/3 {
		t.Errorf("size file: %v, %v entries, mean %v", err, sizes, s.Mean())
	}
}

// entrySum is the source hash an entry is named by.
func entrySum(t *testing.T, entry string) (sum [32]byte) {
	b, err := hex.DecodeString(strings.TrimSuffix(filepath.Base(entry), filepath.Ext(entry)))
	if err != nil || len(b) != 32 {
		t.Fatalf("entry %s: %v", entry, err)
	}
	copy(sum[:], b)
	return sum
}

// TestLongEmpiricalName: a law of 10^6 values is named in keys, columns
// and sweep ids by its first values, its count and a hash, not by 8.9 MB
// of values.
func TestLongEmpiricalName(t *testing.T) {
	xs := make([]float64, 1_000_000)
	for i := range xs {
		xs[i] = 1 + float64(i%1000)/7
	}
	g := Grid{Base: Config{Servers: 2, Load: 0.5, Sizes: NewEmpirical(xs), Policy: Random{}, Jobs: 1000}}
	name := NewRow(Result{Config: g.Base}).Sizes
	if k, c := g.Base.Key(), g.Canonical(); len(k) > 2000 || len(c) > 2000 || !strings.Contains(name, "1000000 values #") {
		t.Errorf("key of %d bytes, sweep text of %d bytes, name %q; want short ones", len(k), len(c), name)
	}
	ys := slices.Clone(xs)
	ys[999_999] = 2
	if h := (Grid{Base: Config{Servers: 2, Load: 0.5, Sizes: NewEmpirical(ys), Policy: Random{}, Jobs: 1000}}); h.Base.Key() == g.Base.Key() || h.Canonical() == g.Canonical() {
		t.Errorf("laws differing in their last value share a key or sweep id")
	}
}

// sizeLog writes a log of n sizes, one a line, with a header.
func sizeLog(b *testing.B, n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	sb.WriteString("size\n")
	for range n {
		sb.WriteString(strconv.FormatFloat(rng.ExpFloat64()/rng.Float64(), 'g', 8, 64) + "\n")
	}
	return writeFile(b, b.TempDir(), "requests.csv", sb.String())
}

// BenchmarkSizesFromFile: a 10^6-line log read, validated and keyed,
// without the parse cache (the first read), and from it (as a notebook's
// cell reads it after the first).
func BenchmarkSizesFromFile(b *testing.B) {
	b.Setenv("LBSIM_CACHE_DIR", b.TempDir())
	path := sizeLog(b, 1_000_000)
	for _, cached := range []bool{false, true} {
		b.Run(map[bool]string{false: "uncached", true: "cached"}[cached], func(b *testing.B) {
			b.Setenv("LBSIM_NO_CACHE", map[bool]string{false: "1", true: ""}[cached])
			if _, err := SizesFromFile(path); err != nil { // fills the cache
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				s, err := SizesFromFile(path)
				if err != nil {
					b.Fatal(err)
				}
				cfg := Config{Servers: 40, Load: 0.7, Sizes: s, Policy: Random{}, Jobs: 1000}
				if err := cfg.Validate(); err != nil || cfg.Key() == "" {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadTraceCached: a 10^6-line trace read through the parse cache.
func BenchmarkLoadTraceCached(b *testing.B) {
	b.Setenv("LBSIM_CACHE_DIR", b.TempDir())
	b.Setenv("LBSIM_NO_CACHE", "")
	rng := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	tm := 0.0
	for range 1_000_000 {
		tm += rng.ExpFloat64()
		fmt.Fprintf(&sb, "%.6f,%.6g\n", tm, rng.ExpFloat64())
	}
	path := writeFile(b, b.TempDir(), "trace.csv", sb.String())
	b.Run("parse", func(b *testing.B) {
		b.Setenv("LBSIM_NO_CACHE", "1")
		for b.Loop() {
			if _, err := LoadTrace(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	if _, err := LoadTrace(path); err != nil {
		b.Fatal(err)
	}
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadTrace(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSizeDraw: draws a second of a 10^6-value file law against the
// exponential law.
func BenchmarkSizeDraw(b *testing.B) {
	b.Setenv("LBSIM_NO_CACHE", "1")
	file, err := SizesFromFile(sizeLog(b, 1_000_000))
	if err != nil {
		b.Fatal(err)
	}
	for _, law := range []SizeLaw{file, Exponential{M: 1}} {
		b.Run(strings.SplitN(law.String(), ":", 2)[0], func(b *testing.B) {
			r := NewStream(1, 2)
			sum := 0.0
			for b.Loop() {
				sum += law.Rand(r)
			}
			_ = sum
		})
	}
}

// A one-column file's first line is a header only when its name has a
// letter that does not pass for a digit: "O" (a mistyped 0) was taken as a
// header and the size lost. It is refused with its line and the fix.
func TestSizesFromFileHeaderRule(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, line string }{
		{"O\n1\n2\n", "line 1:"}, {"l0\n1\n", "line 1:"}, {"IO\n5\n", "line 1:"}, {"# log\n\nOo\n3\n", "line 3:"},
	} {
		_, err := SizesFromFile(writeFile(t, dir, "typo.csv", tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.line) || !strings.Contains(err.Error(), "neither a size nor a header") || !strings.Contains(err.Error(), "name the column size") {
			t.Errorf("%q: %v, want %s refused as neither a size nor a header, with the fix", tc.text, err, tc.line)
		}
	}
	for _, text := range []string{"size\n1\n2\n", "Size (ms)\n1\n2\n", "duration_ms\n1\n2\n", "x\n1\n2\n", "SIZE\n1\n2\n"} {
		s, err := SizesFromFile(writeFile(t, dir, "header.csv", text))
		if err != nil || len(s.Values) != 2 {
			t.Errorf("%q: %v sizes, %v; want a header and 2 sizes", text, len(s.Values), err)
		}
	}
}
