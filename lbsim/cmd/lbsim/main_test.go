package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

func cli(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = mainWithArgs(args, &o, &e)
	return o.String(), e.String(), code
}

// The JSON contract: exactly one object whose keys are the CSV header of
// lbsim sweep, in its order, and "exact" and "limit" (the former names of
// exact_wait and limit_wait); every mean has a _ci95 companion; a value
// that does not exist (handout_wait under PS, per-class waits without
// two-point sizes) is null.
func TestRunJSONContract(t *testing.T) {
	out, errOut, code := cli("run", "-json", "-jobs", "20000", "-policy", "ll:d=2", "-reps", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value on stdout: %q", out)
	}
	if keys := jsonKeys(t, out); !slices.Equal(keys, append(lbsim.RowHeader(), "exact", "limit")) {
		t.Errorf("JSON keys\n%v\nwant the CSV header and exact, limit\n%v", keys, lbsim.RowHeader())
	}
	for f := range obj {
		if strings.HasPrefix(f, "mean_") && !strings.HasSuffix(f, "_ci95") {
			if _, ok := obj[f+"_ci95"]; !ok {
				t.Errorf("%s has no _ci95 companion", f)
			}
		}
	}
	if obj["policy"] != "ll:d=2" || obj["servers"] != 50.0 || obj["load"] != 0.5 || obj["jobs"] != 20000.0 || obj["reps"] != 2.0 {
		t.Errorf("defaults/flags not reflected: %v", obj)
	}
	if obj["handout_wait"] == nil || obj["mean_wait_short"] == nil {
		t.Errorf("handout_wait %v, mean_wait_short %v: want numbers under FCFS with two-point sizes", obj["handout_wait"], obj["mean_wait_short"])
	}
	out, _, _ = cli("run", "-json", "-jobs", "2000", "-discipline", "ps", "-sizes", "exp:mean=1")
	obj = nil
	json.Unmarshal([]byte(out), &obj)
	if v, ok := obj["handout_wait"]; !ok || v != nil {
		t.Errorf("handout_wait %v under PS, want null", v)
	}
	if v, ok := obj["mean_wait_short"]; !ok || v != nil {
		t.Errorf("mean_wait_short %v for exponential sizes, want null", v)
	}
	if obj["exact"] != obj["exact_wait"] || obj["exact"] == nil || obj["limit"] != nil {
		t.Errorf("aliases: exact %v limit %v, want exact_wait %v (M/G/1-PS) and null", obj["exact"], obj["limit"], obj["exact_wait"])
	}
}

// jsonKeys are the keys of the JSON object in text, in order.
func jsonKeys(t *testing.T, text string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %q", text)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// The readable summary names the policy and the waiting time.
func TestRunSummary(t *testing.T) {
	out, _, code := cli("run", "-jobs", "10000", "-servers", "5", "-speeds", "1,1,2,2,4", "-policy", "lwl")
	if code != 0 || !strings.Contains(out, "policy lwl") || !strings.Contains(out, "mean waiting time") {
		t.Errorf("exit %d, summary %q", code, out)
	}
}

// sweep prints one CSV row per configuration, loads fastest, and keeps a
// policy's own comma-separated parameters together.
func TestSweepCSV(t *testing.T) {
	out, errOut, code := cli("sweep", "-policy", "rnd,sita:cut=10,c=20,ll:d=2", "-load", "0.3,0.6", "-jobs", "5000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 7 {
		t.Fatalf("%d CSV lines, want header + 6", len(recs))
	}
	want := [][2]string{{"rnd", "0.3"}, {"rnd", "0.6"}, {"sita:cut=10,c=20", "0.3"}, {"sita:cut=10,c=20", "0.6"}, {"ll:d=2", "0.3"}, {"ll:d=2", "0.6"}}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for i, w := range want {
		if recs[i+1][col["policy"]] != w[0] || recs[i+1][col["load"]] != w[1] {
			t.Errorf("row %d: %v, want policy %s load %s", i+1, recs[i+1][:5], w[0], w[1])
		}
	}
	again, _, _ := cli("sweep", "-policy", "rnd,sita:cut=10,c=20,ll:d=2", "-load", "0.3,0.6", "-jobs", "5000", "-workers", "1")
	if again != out {
		t.Errorf("the same sweep on 1 worker gave different bytes")
	}
}

// Bad input: exit status 2 and one line naming the value.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-load", "1"}, "rho=1"},
		{[]string{"run", "-servers", "0"}, "K=0"},
		{[]string{"run", "-policy", "ll:d=51"}, "d=51"},
		{[]string{"run", "-policy", "sita:c=0"}, "c=0"},
		{[]string{"run", "-policy", "sita:c=50"}, "c=50"},
		{[]string{"run", "-sizes", "twopoint:xm=5,xM=1,beta=0.8"}, "xm=5"},
		{[]string{"run", "-sizes", "exp:mean=NaN"}, "mean"},
		{[]string{"run", "-sizes", "h2:mean=1,scv=0.5"}, "scv=0.5"},
		{[]string{"run", "-sizes", "weibull:k=1"}, "unknown size law"},
		{[]string{"run", "-policy", "best"}, "unknown policy"},
		{[]string{"run", "-speeds", "1,2"}, "2 values"},
		{[]string{"run", "-jobs", "0"}, "N=0"},
		{[]string{"run", "-arrivals", "bursty"}, "unknown arrival"},
		{[]string{"run", "-trace", "/nonexistent.csv"}, "nonexistent"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		out, errOut, code := cli(tc.args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || out != "" || len(lines) != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want one line with %q)", tc.args, code, out, errOut, tc.want)
		}
	}
	// Overload is accepted with the flag, with a warning.
	_, errOut, code := cli("run", "-load", "1.1", "-overload", "-jobs", "1000")
	if code != 0 || !strings.Contains(errOut, "warning") {
		t.Errorf("overload run: exit %d, stderr %q", code, errOut)
	}
}

// hostile are command lines from issue 11 (the reproductions and a sibling
// of each) with what their one-line error must say. Each used to panic,
// hang, run out of memory, or exit 0 with wrong numbers.
var hostile = []struct {
	args    []string
	mention string
}{
	// Arithmetic that overflowed: arrival times to +Inf, then a panic or a loop.
	{[]string{"run", "-jobs", "10000", "-load", "5e-324"}, "load rho=5e-324 is out of range"},
	{[]string{"run", "-jobs", "10000", "-load", "1e-310", "-policy", "jsq"}, "load rho=1e-310"},
	{[]string{"run", "-jobs", "10000", "-load", "1e-310", "-policy", "jsq:d=2"}, "load rho=1e-310"},
	{[]string{"run", "-jobs", "10000", "-load", "1e-310", "-discipline", "ps"}, "load rho=1e-310"},
	{[]string{"run", "-jobs", "10000", "-sizes", "exp:mean=1e307"}, "exp mean=1e+307 is out of range"},
	{[]string{"run", "-jobs", "10000", "-sizes", "pareto:alpha=1.5,mean=1e99,max=1e300"}, "sqrt(E[X^2])"},
	{[]string{"run", "-jobs", "1000", "-arrivals", "ramp:from=0.5,to=1e-310,over=10"}, "ramp to=1e-310"},
	{[]string{"run", "-jobs", "1000", "-speeds", "1e-300"}, "speed mu_1=1e-300"},
	{[]string{"run", "-jobs", "1000", "-refresh", "5e-324", "-policy", "ll:d=2"}, "refresh T=5e-324"},
	{[]string{"run", "-jobs", "1000", "-refresh", "1e-320", "-policy", "jsq:d=2"}, "refresh T=1e-320"},
	{[]string{"run", "-warmup", "1", "-jobs", "9223372036854775807"}, "2^53"},
	{[]string{"run", "-warmup", "9007199254740992", "-jobs", "1"}, "2^53"},
	// Sizes that need bounds.
	{[]string{"run", "-servers", "100000000", "-policy", "ll:d=2", "-jobs", "10"}, "K=100000000 is too large"},
	{[]string{"run", "-servers", "2000000000", "-jobs", "10"}, "is too large"},
	{[]string{"run", "-servers", "9000000", "-reps", "2", "-workers", "2", "-jobs", "10"}, "GiB of memory"},
	{[]string{"run", "-reps", "100000", "-jobs", "1000"}, "R=100000 is too large"},
	{[]string{"run", "-batches", "1000000000"}, "batches=1000000000 is too large"},
	{[]string{"run", "-batches", "5000", "-jobs", "1000"}, "exceeds the 1000 measured jobs"},
	// Clear errors.
	{[]string{"run", "-load", "1e999"}, `"1e999" is out of range`},
	{[]string{"run", "-servers", "99999999999999999999"}, "is out of range"},
	{[]string{"run", "-sizes", "exp:mean=1e999"}, `mean="1e999" is out of range (float64 holds magnitudes up to 1.8e308)`},
	{[]string{"run", "-sizes", "h2:mean=1,scv=1e300"}, "scv=1e+300 is too large"},
	{[]string{"run", "-sizes", "det:x=1e-320"}, "det x=1e-320 is out of range"},
	{[]string{"run", "-bogus", "1"}, "not defined: -bogus (lbsim run -h lists the flags)"},
	{[]string{"sweep", "-nope"}, "not defined: -nope"},
	{[]string{"run", "-jobs", "10", "-jobs", "20"}, "-jobs: given twice"},
	{[]string{"run", "-tally", "-tally", "-refresh", "1", "-policy", "ll:d=2"}, "flag tally: given twice"},
	{[]string{"run", "-arrivals", "ramp:from=0.5,to=5,over=100", "-load", "7"}, "-load 7 has no effect"},
	{[]string{"sweep", "-arrivals", "ramp:from=0.5,to=0.9,over=100", "-load", "0.3,0.6"}, "has no effect"},
	// A grid listed in memory before it runs: 999 x 999 x 2 configurations.
	{[]string{"sweep", "-load", gridAxis, "-refresh", gridAxis, "-policy", "ll:d=2,jsq:d=2", "-jobs", "10"}, "more than 1000000 configurations"},
	// Batch scripts: a value must not end its line and start a command.
	{[]string{"slurm", "-shards", "1", "-out", "dir\ntouch PWNED #", "-jobs", "100"}, "control character"},
	{[]string{"slurm", "-shards", "1", "-out", "x", "-partition", "debug\necho X", "-jobs", "100"}, "-partition"},
	{[]string{"slurm", "-shards", "1", "-out", "x", "-time", "1:00 --wrap=id", "-jobs", "100"}, "-time"},
}

// gridAxis is 999 values 0.001, 0.002, ..., 0.999.
var gridAxis = func() string {
	var b strings.Builder
	for i := 1; i < 1000; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%g", float64(i)/1000)
	}
	return b.String()
}()

func TestHostileCommandLines(t *testing.T) {
	for _, tc := range hostile {
		out, errOut, code := cli(tc.args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || out != "" || len(lines) != 1 || !strings.Contains(errOut, tc.mention) || strings.Contains(errOut, "panic") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line saying %q", tc.args, code, out, errOut, tc.mention)
		}
	}
	if _, err := os.Stat("PWNED"); err == nil {
		t.Error("a batch script ran the injected command")
	}
}

// -h lists every flag with its default, once, and exits 0 (the flags are
// wrapped to refuse duplicates; printing them must not trip on that).
func TestHelpListsFlags(t *testing.T) {
	_, errOut, code := cli("run", "-h")
	if code != 0 || strings.Contains(errOut, "panic") || !strings.Contains(errOut, "-jobs") || !strings.Contains(errOut, "(default 2000000)") {
		t.Errorf("run -h: exit %d, %q", code, errOut)
	}
}

// Unstable loads warn: a ramp to load 5 and an overloaded sweep point.
func TestUnstableLoadsWarn(t *testing.T) {
	_, errOut, code := cli("run", "-arrivals", "ramp:from=0.5,to=5,over=100", "-jobs", "2000", "-json")
	if code != 0 || !strings.Contains(errOut, "warning: load 5 >= 1") {
		t.Errorf("ramp to 5: exit %d, stderr %q", code, errOut)
	}
	out, errOut, code := cli("sweep", "-load", "0.5,1.5", "-overload", "-jobs", "2000", "-quiet", "-servers", "5")
	if code != 0 || !strings.Contains(errOut, "warning: load 1.5 >= 1") || strings.Contains(errOut, "load 0.5 ") {
		t.Errorf("sweep with 1.5: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, ",1.5,") {
		t.Errorf("sweep rows lack load 1.5:\n%s", out)
	}
	out, _, _ = cli("run", "-arrivals", "ramp:from=0.2,to=0.7,over=100", "-jobs", "2000", "-json")
	if !strings.Contains(out, `"load":0.7`) {
		t.Errorf("a ramp to 0.7 reports another load: %s", out)
	}
}
