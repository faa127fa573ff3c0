package main

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/compare"
)

// compareJSON runs lbsim compare -json with args and decodes its object.
func compareJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errOut, code := cli(append([]string{"compare", "-json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	return obj
}

// A side against itself: two set-ups that run alike (the same
// configuration but -overload, which a load below 1 leaves unused) give a
// difference of exactly 0 with a paired interval of exactly 0, a ratio of
// exactly 1; the same set-up twice is refused, as -policy rnd,rnd is.
func TestCompareSidesSelf(t *testing.T) {
	flags := []string{"-servers", "10", "-load", "0.8", "-sizes", "exp:mean=1", "-jobs", "20000", "-reps", "3",
		"-a", "policy=jsq view=own dispatchers=4", "-b", "policy=jsq view=own dispatchers=4 overload"}
	obj := compareJSON(t, flags...)
	if obj["diff_mean_wait"] != 0.0 || obj["diff_mean_wait_ci95"] != 0.0 || obj["ratio_mean_wait"] != 1.0 || obj["ratio_mean_wait_ci95"] != 0.0 {
		t.Errorf("a side against itself: diff %v ± %v, ratio %v ± %v; want 0 ± 0 and 1 ± 0",
			obj["diff_mean_wait"], obj["diff_mean_wait_ci95"], obj["ratio_mean_wait"], obj["ratio_mean_wait_ci95"])
	}
	if w, ok := obj["mean_wait_a"].(float64); !ok || w <= 0 || obj["mean_wait_b"] != w {
		t.Errorf("means %v and %v: want the same positive wait", obj["mean_wait_a"], obj["mean_wait_b"])
	}
	if obj["a"] != "jsq, overload false" || obj["b"] != "jsq, overload true" {
		t.Errorf("names %q and %q", obj["a"], obj["b"])
	}
	text, errOut, code := cli(append([]string{"compare"}, flags...)...)
	if code != 0 || !strings.HasPrefix(text, "A: jsq, overload false\nB: jsq, overload true\nA - B: mean wait difference 0, paired 95% CI ± 0 (3 replications)") ||
		!strings.Contains(text, "(the paired differences do not vary)") {
		t.Errorf("exit %d, %q (%s)", code, text, errOut)
	}
	_, errOut, code = cli("compare", "-jobs", "2000", "-a", "policy=jsq view=own dispatchers=4", "-b", "dispatchers=4 view=own policy=jsq")
	if code != 2 || !strings.Contains(errOut, "A and B are the same configuration") {
		t.Errorf("the same set-up twice: exit %d, %q", code, errOut)
	}
}

// jsq on each dispatcher's own counts with 4 dispatchers against rr, by the
// command line and by an independent route: the two configurations written
// in Go, run, and paired by package compare. Every number is the same.
func TestCompareSidesIndependent(t *testing.T) {
	obj := compareJSON(t, "-servers", "10", "-load", "0.8", "-sizes", "exp:mean=1", "-jobs", "20000", "-reps", "4", "-seed", "5",
		"-a", "policy=jsq view=own dispatchers=4", "-b", "policy=rr")
	a := lbsim.Config{Servers: 10, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.JSQ{}, View: lbsim.OwnView, Dispatchers: 4,
		Jobs: 20000, Reps: 4, Seed: 5}
	b := a
	b.Policy, b.View, b.Dispatchers = lbsim.RoundRobin{}, lbsim.LiveView, 1
	ra, err := lbsim.Run(a)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := lbsim.Run(b)
	if err != nil {
		t.Fatal(err)
	}
	c, err := compare.Results(ra, rb)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]float64{
		"diff_mean_wait": c.Diff, "diff_mean_wait_ci95": c.DiffCI95, "ratio_mean_wait": c.Ratio, "ratio_mean_wait_ci95": c.RatioCI95,
		"mean_wait_a": c.MeanA, "mean_wait_a_ci95": c.MeanACI95, "mean_wait_b": c.MeanB, "mean_wait_b_ci95": c.MeanBCI95,
		"unpaired_diff_ci95": c.UnpairedDiffCI95, "pairs": float64(c.Pairs),
	} {
		if obj[key] != want {
			t.Errorf("%s: the command line gives %v, Go and package compare %v", key, obj[key], want)
		}
	}
	if c.Pairs != 4 || !(c.DiffCI95 > 0) || c.Diff == 0 {
		t.Errorf("pairs %d, diff %v ± %v: want 4 pairs and a difference that varies", c.Pairs, c.Diff, c.DiffCI95)
	}
	if obj["a"] != "jsq, dispatchers 4, view own" || obj["b"] != "rr, dispatchers 1, view live" {
		t.Errorf("names %q and %q", obj["a"], obj["b"])
	}
	// -policy A,B gives each side its policy, -a the rest of A's set-up.
	again := compareJSON(t, "-servers", "10", "-load", "0.8", "-sizes", "exp:mean=1", "-jobs", "20000", "-reps", "4", "-seed", "5",
		"-policy", "jsq,rr", "-a", "view=own dispatchers=4")
	if again["diff_mean_wait"] != c.Diff || again["a"] != obj["a"] {
		t.Errorf("-policy jsq,rr -a 'view=own dispatchers=4': diff %v (%v), want %v (%v)", again["diff_mean_wait"], again["a"], c.Diff, obj["a"])
	}
}

// A side that changes what arrives (load, servers, seed, ...) is refused
// before anything runs, naming the setting, both values and the fix; a bad
// value is refused in the words of its flag.
func TestCompareSidesRefused(t *testing.T) {
	fix := func(flag string) string { return "give " + flag + " once, for both sides, and not in -a or -b" }
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-load", "0.8", "-a", "policy=jsq load=0.9", "-b", "policy=rr"},
			[]string{"A and B are not paired: load is 0.9 in A and 0.8 in B", "common random numbers need the same load on both sides", fix("-load")}},
		{[]string{"-a", "policy=jsq servers=20", "-b", "policy=rr servers=10"},
			[]string{"A and B are not paired: servers is 20 in A and 10 in B", "(only policy, view, ", fix("-servers")}},
		{[]string{"-a", "policy=jsq", "-b", "policy=rr seed=2"}, []string{"seed is 1 in A and 2 in B", fix("-seed")}},
		{[]string{"-a", "policy=jsq", "-b", "policy=rr sizes=exp:mean=1"},
			[]string{"sizes is twopoint:xm=1,xM=1000,beta=0.8 in A and exp:mean=1 in B", fix("-sizes")}},
		{[]string{"-a", "policy=jsq reps=2"}, []string{"reps is 2 in A and 1 in B", fix("-reps")}},
		{[]string{"-a", "policy=jsq jobs=1000"}, []string{"jobs is 1000 in A and 2000000 in B", fix("-jobs")}},
		{[]string{"-a", "policy=jsq precision=0.05"}, []string{"-precision stops each run at its own length"}},
		{[]string{"-policy", "jsq,rr", "-a", "policy=rnd"}, []string{"-a: policy given beside -policy A,B"}},
		{[]string{"-policy", "jsq,rr,rnd", "-a", "view=own"}, []string{"-policy has 3 values; with -a and -b it takes one (both sides) or two (A,B)"}},
		{[]string{"-a", "policy=jsq workers=2"}, []string{`-a: workers=2: no setting of a side is named "workers"`}},
		{[]string{"-a", "view=own view=live"}, []string{"-a: view given twice"}},
		{[]string{"-a", "view"}, []string{"-a: view: give a value, view=VALUE"}},
		{[]string{"-a", " "}, []string{`-a: "" is empty: write side A's settings, name=value separated by spaces`}},
	} {
		out, errOut, code := cli(append([]string{"compare"}, tc.args...)...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q, %q: want 2 and one line", tc.args, code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: %q lacks %q", tc.args, errOut, w)
			}
		}
	}
	// A side's bad value is refused as its flag refuses it.
	for _, bad := range [][2]string{{"view", "foo"}, {"dispatchers", "x"}, {"discipline", "lifo"}, {"policy", "sita"}, {"refresh", "x"}} {
		_, runErr, _ := cli("run", "-jobs", "1000", "-"+bad[0], bad[1])
		_, sideErr, code := cli("compare", "-jobs", "1000", "-a", bad[0]+"="+bad[1], "-b", "policy=rr")
		want := strings.TrimPrefix(runErr, "lbsim run: -"+bad[0]+": ")
		if code != 2 || want == runErr || sideErr != "lbsim compare: -a: "+bad[0]+": "+want {
			t.Errorf("-a %s=%s: %q; want the flag's own error %q", bad[0], bad[1], sideErr, runErr)
		}
	}
	// And a value the configuration's checks refuse, as lbsim run does, by side.
	for _, bad := range [][2]string{{"servers", "0"}, {"refresh", "-1"}, {"load", "1.5"}} {
		_, runErr, _ := cli("run", "-jobs", "1000", "-"+bad[0], bad[1])
		_, sideErr, code := cli("compare", "-jobs", "1000", "-a", bad[0]+"="+bad[1], "-b", "policy=rr")
		if code != 2 || !strings.HasPrefix(runErr, "lbsim run: ") || sideErr != "lbsim compare: A: "+strings.TrimPrefix(runErr, "lbsim run: ") {
			t.Errorf("-a %s=%s: %q; want lbsim run's error %q for A", bad[0], bad[1], sideErr, runErr)
		}
	}
}

// The first form, -policy A,B, is unchanged: stdout, stderr and the exit
// status of old invocations are those of the command before the set-ups
// (commit fc2b6cf), recorded in testdata/compare_oldform.golden.json by
// running its binary. JSON runs may have gained columns since (a new
// metric); every recorded key keeps its value.
func TestCompareOldFormGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/compare_oldform.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Args           []string
		Stdout, Stderr string
		Code           int
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 3 {
		t.Fatalf("%d recorded invocations", len(cases))
	}
	for _, tc := range cases {
		out, errOut, code := cli(tc.Args...)
		if code != tc.Code || errOut != tc.Stderr {
			t.Errorf("%v: exit %d, stderr %q; recorded %d, %q", tc.Args, code, errOut, tc.Code, tc.Stderr)
		}
		if out == tc.Stdout {
			continue
		}
		if !slices.Contains(tc.Args, "-json") || !jsonKeeps(t, tc.Stdout, out) {
			t.Errorf("%v: stdout\n%s\nrecorded\n%s", tc.Args, out, tc.Stdout)
		}
	}
}

// jsonKeeps reports whether the JSON object now has every key of the
// recorded one with the same value, in its runs too.
func jsonKeeps(t *testing.T, recorded, now string) bool {
	var r, n map[string]json.RawMessage
	if json.Unmarshal([]byte(recorded), &r) != nil || json.Unmarshal([]byte(now), &n) != nil {
		return false
	}
	for k, v := range r {
		if k == "runs" {
			var rr, nr []map[string]json.RawMessage
			if json.Unmarshal(v, &rr) != nil || json.Unmarshal(n[k], &nr) != nil || len(rr) != len(nr) {
				return false
			}
			for i := range rr {
				for col, val := range rr[i] {
					if !bytes.Equal(val, nr[i][col]) {
						t.Logf("run %d: %s is %s, recorded %s", i, col, nr[i][col], val)
						return false
					}
				}
			}
			continue
		}
		if !bytes.Equal(v, n[k]) {
			t.Logf("%s is %s, recorded %s", k, n[k], v)
			return false
		}
	}
	return true
}

// The command's doc (Comparing two set-ups) shows the refusal lbsim
// compare prints and lists what may differ as compare.MayDiffer does.
func TestCompareSidesDoc(t *testing.T) {
	data, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(strings.ReplaceAll(string(data), "\n//", "\n")), " ")
	_, errOut, _ := cli("compare", "-load", "0.8", "-a", "policy=jsq load=0.9", "-b", "policy=rr")
	if !strings.Contains(doc, "$ lbsim compare -load 0.8 -a 'policy=jsq load=0.9' -b 'policy=rr' "+strings.TrimSpace(errOut)) {
		t.Errorf("doc.go does not show the refusal %q", errOut)
	}
	if !strings.Contains(doc, "compare.MayDiffer lists ("+strings.Join(compare.MayDiffer(), ", ")+":") {
		t.Errorf("doc.go does not list compare.MayDiffer, %v", compare.MayDiffer())
	}
}
