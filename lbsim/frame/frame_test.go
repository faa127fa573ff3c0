package frame

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gota/gota/series"
)

type base struct {
	Seed int `json:"seed"`
}

type result struct {
	base
	Policy  string        `frame:"policy"`
	Rho     float64       `json:"rho,omitempty"`
	Wait    float64       `frame:"W" json:"ignored"`
	Jobs    int64         // no tag: field name
	Stable  bool          `frame:"stable"`
	Elapsed time.Duration `frame:"elapsed"` // a Stringer: shown as text
	Skip    float64       `frame:"-"`
	hidden  int
}

func sample() []result {
	return []result{
		{base{17}, "RND", 0.5, 1.0 / 3, 2_000_000, true, 1500 * time.Millisecond, 9, 1},
		{base{18}, "LL-2", 0.95, 1e-9, 7, false, time.Second, 9, 2},
	}
}

func TestFromStructsColumnsTypesValues(t *testing.T) {
	df, err := FromStructs(sample())
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"seed", "policy", "rho", "W", "Jobs", "stable", "elapsed"}
	wantTypes := []series.Type{series.Int, series.String, series.Float, series.Float, series.Int, series.Bool, series.String}
	if got := df.Names(); strings.Join(got, ",") != strings.Join(wantNames, ",") {
		t.Fatalf("names = %v, want %v", got, wantNames)
	}
	for i, typ := range df.Types() {
		if typ != wantTypes[i] {
			t.Errorf("column %s has type %s, want %s", wantNames[i], typ, wantTypes[i])
		}
	}
	if r, c := df.Dims(); r != 2 || c != 7 {
		t.Fatalf("dims = %d x %d, want 2 x 7", r, c)
	}
	// Full float precision is kept (gota's LoadStructs goes through text).
	if got := df.Col("W").Float()[0]; got != 1.0/3 {
		t.Errorf("W[0] = %v, want exactly 1/3", got)
	}
	if got := df.Col("W").Float()[1]; got != 1e-9 {
		t.Errorf("W[1] = %v, want 1e-9", got)
	}
	if got := df.Elem(0, 6).String(); got != "1.5s" {
		t.Errorf("elapsed[0] = %q, want 1.5s", got)
	}
	if got, _ := df.Elem(1, 0).Int(); got != 18 {
		t.Errorf("seed[1] = %d, want 18", got)
	}
}

func TestFromStructsPointersAndEmpty(t *testing.T) {
	rs := sample()
	df, err := FromStructs([]*result{&rs[1]})
	if err != nil {
		t.Fatal(err)
	}
	if df.Elem(0, 1).String() != "LL-2" {
		t.Errorf("policy = %q, want LL-2", df.Elem(0, 1).String())
	}
	empty, err := FromStructs([]result{})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := empty.Dims(); r != 0 || c != 7 {
		t.Errorf("empty dims = %d x %d, want 0 x 7", r, c)
	}
}

func TestFromStructsErrors(t *testing.T) {
	type dup struct {
		A float64 `frame:"x"`
		B float64 `frame:"x"`
	}
	cases := []struct {
		name string
		rows any
		want string
	}{
		{"nil", nil, "nil"},
		{"not a slice", result{}, "want a slice of structs"},
		{"slice of ints", []int{1, 2}, "must be structs"},
		{"nil element", []*result{nil}, "element 0 is a nil pointer"},
		{"duplicate names", []dup{{}}, `two columns named "x"`},
		{"no fields", []struct{ a int }{{1}}, "no exported fields"},
	}
	for _, c := range cases {
		_, err := FromStructs(c.rows)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestHTML(t *testing.T) {
	rs := sample()
	rs[0].Policy = `<b>&"x"`
	rs[1].Wait = math.NaN()
	df, err := FromStructs(rs)
	if err != nil {
		t.Fatal(err)
	}
	h := HTML(df, Caption("Waiting <time>"), Precision(3))
	for _, want := range []string{
		"<table", "</table>",
		"Waiting &lt;time&gt;</caption>",
		">W</th>", ">policy</th>",
		"&lt;b&gt;&amp;&#34;x&#34;", // escaped cell
		">0.333</td>",               // 1/3 at 3 significant digits
		">" + Missing + "</td>",
		">2000000</td>",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "<b>") {
		t.Errorf("HTML contains an unescaped cell:\n%s", h)
	}
	if got := strings.Count(h, "<tr>"); got != 3 {
		t.Errorf("HTML has %d rows, want header + 2", got)
	}
	// Default precision %.4g.
	if d := HTML(df); !strings.Contains(d, ">0.3333</td>") {
		t.Errorf("default precision: want 0.3333 in\n%s", d)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	rs := sample()
	rs[0].Rho, rs[1].Rho = 1, 2 // integral floats must not read back as Int
	df, err := FromStructs(rs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "new", "dir", "results.csv")
	if err := WriteCSV(df, path, false); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(back.Names(), ",") != strings.Join(df.Names(), ",") {
		t.Fatalf("names %v, want %v", back.Names(), df.Names())
	}
	for i, typ := range back.Types() {
		if typ != df.Types()[i] {
			t.Errorf("column %s read back as %s, want %s", df.Names()[i], typ, df.Types()[i])
		}
	}
	// Exact float round trip (gota's writer would give 0.333333 and 0.000000).
	w := back.Col("W").Float()
	if w[0] != 1.0/3 || w[1] != 1e-9 {
		t.Errorf("W read back as %v, want [1/3 1e-9] exactly", w)
	}
	// A float column whose values are integral stays Float.
	if rho := back.Col("rho"); rho.Type() != series.Float || rho.Float()[1] != 2 {
		t.Errorf("rho read back as %s %v, want Float [1 2]", rho.Type(), rho.Float())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the CSV (no temp file left)", len(entries))
	}
}

func TestWriteCSVOverwrite(t *testing.T) {
	df, err := FromStructs(sample())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.csv")
	if err := os.WriteFile(path, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = WriteCSV(df, path, false)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "overwrite=true") {
		t.Fatalf("error %v, want one naming %s and overwrite=true", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me\n" {
		t.Fatalf("refused write changed the file: %q", b)
	}
	if err := WriteCSV(df, path, true); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Nrow() != 2 {
		t.Errorf("rows after overwrite = %d, want 2", back.Nrow())
	}
}

func TestReadCSVMissing(t *testing.T) {
	if _, err := ReadCSV(filepath.Join(t.TempDir(), "none.csv")); err == nil {
		t.Error("reading a missing file gave no error")
	}
}
