package lbsim

import (
	"fmt"
	"strings"
	"testing"
)

// manyShortConfigs is a sweep of 48 short configurations of one replication
// each: the case where only spreading configurations (not replications)
// over the cores can use them.
func manyShortConfigs(workers int) Grid {
	return Grid{
		Base:     Config{Servers: 20, Sizes: Exponential{M: 1}, Jobs: 20_000, Seed: 3, Workers: workers},
		Policies: []Policy{Random{}, RoundRobin{}, LeastLoaded{D: 2}, JSQ{D: 2}, LeastLoaded{}, JSQ{}},
		Loads:    []float64{0.3, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95},
	}
}

// A sweep gives the same numbers, configuration by configuration, whatever
// the number of workers its (configuration, replication) tasks are spread
// over, and they are the numbers of each configuration run on its own.
func TestSweepIdenticalForAnyWorkerCount(t *testing.T) {
	var want []string
	for _, workers := range []int{1, 2, 3, 8} {
		g := manyShortConfigs(workers)
		g.Base.Reps = 2
		res, err := RunAll(g.Configs(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]string, len(res))
		for i, r := range res {
			r.Seconds, r.Config.Workers = 0, 0
			got[i] = fmt.Sprintf("%+v", r)
		}
		if want == nil {
			want = got
			alone, err := Run(g.Configs()[len(got)-1])
			if err != nil {
				t.Fatal(err)
			}
			alone.Seconds, alone.Config.Workers = 0, 0
			if s := fmt.Sprintf("%+v", alone); s != got[len(got)-1] {
				t.Fatalf("last configuration in the sweep:\n%s\nrun alone:\n%s", got[len(got)-1], s)
			}
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%d workers, configuration %d differs from 1 worker:\n%s\nvs\n%s", workers, i+1, got[i], want[i])
			}
		}
	}
}

// BenchmarkSweepManyConfigs is a sweep of many short configurations on every
// core (Workers = GOMAXPROCS): its time should about halve from -cpu 1 to
// -cpu 2. Run the two separately: a list (-cpu 1,2) does not set GOMAXPROCS
// for every run (golang/go#49980; with Go 1.26.8 here, the -cpu 1 run had
// GOMAXPROCS=2, and the two runs the same speed).
func BenchmarkSweepManyConfigs(b *testing.B) {
	g := manyShortConfigs(0)
	jobs := int64(len(g.Configs())) * g.Base.Jobs
	for b.Loop() {
		if _, err := Sweep(g, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(jobs*int64(b.N))/b.Elapsed().Seconds(), "jobs/s")
}

// Issue 34 item 12: the number of dispatchers M is a grid axis, set by a
// flag's list, a sweep file's list or one value, expanded between refresh
// and policy, each configuration's numbers those of M run on its own.
// ("dispatchers": [1, 4] was refused and -dispatchers 1,4 not a number.)
func TestDispatchersAxis(t *testing.T) {
	g := Grid{Base: Config{Servers: 8, Load: 0.8, Sizes: Exponential{M: 1}, Jobs: 3000, Seed: 2}}
	if err := g.Set("dispatchers", "1,4"); err != nil {
		t.Fatal(err)
	}
	if err := g.Set("policy", "jiq,rr"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range g.Configs() {
		got = append(got, fmt.Sprintf("%s/%d", c.Policy, c.dispatchers()))
	}
	if want := "[jiq/1 rr/1 jiq/4 rr/4]"; fmt.Sprint(got) != want {
		t.Errorf("configurations %v, want %s", got, want)
	}
	if n, err := g.Count(); n != 4 || err != nil {
		t.Errorf("Count %d, %v; want 4", n, err)
	}
	file := Grid{Base: g.Base}
	if _, err := file.ReadJSON([]byte(`{"dispatchers": [1, 4], "policy": ["jiq", "rr"]}`)); err != nil || file.Canonical() != g.Canonical() {
		t.Errorf("the sweep file's grid: %v\n%s\nthe flags':\n%s", err, file.Canonical(), g.Canonical())
	}
	var one Grid
	if _, err := one.ReadJSON([]byte(`{"dispatchers": 4}`)); err != nil || one.Text("dispatchers") != "4" {
		t.Errorf(`"dispatchers": 4: %v, %q`, err, one.Text("dispatchers"))
	}
	res, err := RunAll(g.Configs(), nil)
	if err != nil {
		t.Fatal(err)
	}
	alone := g.Base
	alone.Policy, alone.Dispatchers = JIQ{}, 4
	r, err := Run(alone)
	if err != nil {
		t.Fatal(err)
	}
	if res[2].Wait.Mean != r.Wait.Mean || res[2].Config.Key() != alone.Key() {
		t.Errorf("jiq, M=4 in the sweep: wait %v, key %s; alone %v, %s", res[2].Wait.Mean, res[2].Config.Key(), r.Wait.Mean, alone.Key())
	}
	if res[0].Wait.Mean == res[2].Wait.Mean {
		t.Errorf("jiq at M=1 and M=4 give the same wait %v", res[0].Wait.Mean)
	}
}

// Every key of a sweep file refuses an empty list, with one message: it
// set the key's default silently ("servers": [] ran K = 50). A key that is
// not a list (jobs, seed) refuses it as any list.
func TestSweepFileEmptyList(t *testing.T) {
	for _, key := range specKeys() {
		var g Grid
		_, err := g.ReadJSON([]byte(`{"` + key + `": []}`))
		if err == nil {
			t.Errorf("%q: []: accepted", key)
			continue
		}
		f, _ := fieldNamed(key)
		if list := f.kind == kindList || f.ops.axis != nil; list && !strings.Contains(err.Error(), "an empty list sets nothing") {
			t.Errorf("%q: []: %v, want the empty list refused as such", key, err)
		}
	}
	// A string key's example is its own: a trace is not "poisson".
	var g Grid
	if _, err := g.ReadJSON([]byte(`{"trace": 5}`)); err == nil || !strings.Contains(err.Error(), `e.g. "data/trace1.csv"`) {
		t.Errorf(`"trace": 5: %v, want a trace file as the example`, err)
	}
}

// Zero replications written out are refused, as a flag, a sweep-file key or
// a control's text; Config's zero value is still one replication, and a
// grid built in Go with it writes no -reps 0 into a batch script.
func TestRepsZeroRefused(t *testing.T) {
	for _, text := range []string{"0", "-3"} {
		var g Grid
		if err := g.Set("reps", text); err == nil || !strings.Contains(err.Error(), "replications must be at least 1") {
			t.Errorf("reps %s: %v, want the range named", text, err)
		}
		if _, err := g.ReadJSON([]byte(`{"reps": ` + text + `}`)); err == nil || !strings.Contains(err.Error(), `"reps": R=`+text+" is invalid") {
			t.Errorf(`"reps": %s: %v, want it refused`, text, err)
		}
	}
	g := DefaultGrid()
	g.Base.Reps = 0
	if err := g.Base.Validate(); err != nil {
		t.Errorf("Config.Reps 0 (the default, one replication): %v", err)
	}
	if args := strings.Join(g.Args(), " "); strings.Contains(args, "-reps") {
		t.Errorf("Reps 0 in Go writes %q; want no -reps (one replication, the default)", args)
	}
}

// Every setting refuses a blank value in one form, that of a number's
// ("" is empty: write ..., e.g. ...): as a flag's text, a sweep file's
// string, an axis's item or a control's text. -view "" ran live, -trace ""
// no trace and -dispatcher-weights "" an even split.
func TestEmptyValueRefused(t *testing.T) {
	const want = `"" is empty: write `
	for _, f := range Fields() {
		for _, text := range []string{"", "  "} {
			g := DefaultGrid()
			if err := g.Set(f.Name, text); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("-%s %q: %v, want %q", f.Name, text, err, want)
			}
			var c Config
			if err := f.Set(&c, text); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Field %s.Set(%q): %v, want %q", f.Name, text, err, want)
			}
		}
		if f.kind == kindText || f.kind == kindList {
			var g Grid
			if _, err := g.ReadJSON([]byte(`{"` + f.Column() + `": ""}`)); err == nil || !strings.Contains(err.Error(), `"`+f.Column()+`": `+want) {
				t.Errorf(`"%s": "": %v, want %q`, f.Column(), err, want)
			}
		}
	}
	for _, text := range []string{",own", " ,live"} { // a blank after a spec is its parameter's ("own," is unknown)
		g := DefaultGrid()
		if err := g.Set("view", text); err == nil || !strings.Contains(err.Error(), want+"the view, e.g. live") {
			t.Errorf("-view %q: %v, want the blank item refused", text, err)
		}
	}
	var g Grid
	if _, err := g.ReadJSON([]byte(`{"view": ["", "own"]}`)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf(`"view": ["", "own"]: %v, want the blank item refused`, err)
	}
}
