package lbsim

import (
	"flag"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// A setting added to the table is, with nothing else written, a flag (with
// its doc and default), a sweep-file key, a part of Config.Key and of the
// sweep id and an argument of a batch script's tasks; the package's start
// (checkRow) then asks for its Row field, which makes it a CSV column and a
// key of the run's JSON.
func TestFieldAddedEverywhere(t *testing.T) {
	defer func(saved []Field) { fields = saved }(fields)
	fields = append(slices.Clone(fields), Field{Name: "test-setting", Label: "test", Go: "Seed",
		Doc: "a setting a test added", Default: "7", kind: kindInt,
		ops: value(func(c *Config) *uint64 { return &c.Seed }, nil, number.Uint, func(s uint64) string { return strconv.FormatUint(s, 10) })})

	g := DefaultGrid()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	given := map[string]bool{}
	g.Flags(fs, false, given)
	if f := fs.Lookup("test-setting"); f == nil || f.Usage != "a setting a test added" || f.DefValue != "7" {
		t.Fatalf("flag -test-setting: %+v", f)
	}
	if err := fs.Parse([]string{"-test-setting", "9"}); err != nil || !given["test-setting"] || g.Base.Seed != 9 {
		t.Errorf("-test-setting 9: %v, given %v, seed %d", err, given, g.Base.Seed)
	}
	if args := strings.Join(g.Args(), " "); !strings.Contains(args, "-test-setting 9") {
		t.Errorf("the tasks' arguments %q lack -test-setting 9", args)
	}
	if !strings.Contains(g.Canonical(), `test_setting=["9"]`) {
		t.Errorf("the sweep id's text lacks test_setting:\n%s", g.Canonical())
	}

	var fromFile Grid
	if given, err := fromFile.ReadJSON([]byte(`{"test_setting": 11}`)); err != nil || !given["test-setting"] || fromFile.Base.Seed != 11 {
		t.Errorf(`sweep file {"test_setting": 11}: %v, given %v, seed %d`, err, given, fromFile.Base.Seed)
	}

	cfg := Config{Servers: 2, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 1000, Seed: 9}
	if !strings.Contains(cfg.Key(), "test_setting=9") {
		t.Errorf("Config.Key lacks test_setting: %s", cfg.Key())
	}
	want := "add\n\tTestSetting uint64 `json:\"test_setting\"`\nto Row (result_row.go) after SampleEvery"
	if err := checkRow(fields, percentiles[:]); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("checkRow with the setting added: %v, want it to say\n%s", err, want)
	}
}

// Row's setting fields are views of the table: each holds its setting's
// column, of the very type the table gives it.
func TestRowSettingsFollowTable(t *testing.T) {
	cfg := Config{Servers: 3, Speeds: []float64{2, 1, 1}, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2},
		Jobs: 100, Warmup: 10, Reps: 2, Seed: 4, Refresh: 1, Tally: true, Dispatchers: 2, DispatcherWeights: []float64{2, 1},
		Stagger: true, Batches: 5, ControlVariates: true, AllowOverload: true, SampleEvery: 3}
	var row Row
	row.setSettings(&cfg)
	for _, f := range fields {
		if !f.Result() {
			continue
		}
		if v, col := row.setting(f.Column()), f.ops.column(&cfg); v != col {
			t.Errorf("column %s: row %v, table %v", f.Column(), v, col)
		}
	}
	if row.Stagger != true || row.DispatcherWeights != "2,1" || row.Speeds != "1@2,2@1" || row.Overload != true {
		t.Errorf("row %+v", row)
	}
}

// Config.Key names every setting that changes a run and only those: two
// configurations that differ in one setting have different keys, and the
// workers do not enter.
func TestKeyNamesEverySetting(t *testing.T) {
	base := Config{Servers: 4, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JSQ{D: 2}, Jobs: 100}
	g := Grid{Base: base}
	seen := map[string]string{base.Key(): "base"}
	for _, f := range fields {
		if !f.Result() || f.Name == "trace" {
			continue
		}
		c := base
		other := map[kind]string{kindInt: "3", kindFloat: "0.25", kindBool: "true", kindList: "2,1"}[f.kind]
		if f.kind == kindText {
			other = map[string]string{"policy": "rnd", "sizes": "det:x=1", "arrivals": "det", "discipline": "ps", "view": "own"}[f.Name]
		}
		if err := f.Set(&c, other); err != nil {
			t.Fatalf("%s=%s: %v", f.Name, other, err)
		}
		if prev, dup := seen[c.Key()]; dup {
			t.Errorf("%s=%s gives the key of %s: %s", f.Name, other, prev, c.Key())
		}
		seen[c.Key()] = f.Name
	}
	g.Base.Workers = 8
	if g.Base.Key() != base.Key() {
		t.Errorf("the workers change the key: %s", g.Base.Key())
	}
}

// Issue 34 item 12: every list-valued setting of the table reads the same
// forms, in a flag or a sweep file: a JSON list, or a string of values and
// runs COUNT@VALUE. "dispatcher_weights": "1@2,2@1" was refused ("value #1
// "1@2" is not a number") where "speeds": "1@2,2@1" was read.
func TestListFieldsReadEveryForm(t *testing.T) {
	want := []float64{2, 1, 1}
	for i := range fields {
		f := &fields[i]
		if f.kind != kindList {
			continue
		}
		for _, form := range []string{`[2, 1, 1]`, `"2,1,1"`, `"1@2,2@1"`, `"1@2, 1, 1@1"`} {
			g := DefaultGrid()
			if _, err := g.ReadJSON([]byte(`{"` + f.Column() + `": ` + form + `}`)); err != nil {
				t.Errorf("%s: %s: %v", f.Column(), form, err)
				continue
			}
			var got []float64
			for _, text := range strings.Split(g.Text(f.Name), ",") {
				run, _ := ParseSpeeds(text)
				got = append(got, run...)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s read as %v (%q), want %v", f.Column(), form, got, g.Text(f.Name), want)
			}
			flagged := DefaultGrid()
			if err := flagged.Set(f.Name, strings.Trim(form, `"[]`)); err != nil || flagged.Text(f.Name) != g.Text(f.Name) {
				t.Errorf("-%s %s: %v, %q; the file gives %q", f.Name, form, err, flagged.Text(f.Name), g.Text(f.Name))
			}
		}
	}
}
