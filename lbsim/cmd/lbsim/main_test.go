package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

func cli(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = mainWithArgs(args, &o, &e)
	return o.String(), e.String(), code
}

// The JSON contract: exactly one object with the documented fields; every
// mean has a _ci95 companion; handout_wait only under FCFS; per-class means
// for two-point sizes.
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
	for _, f := range []string{"policy", "servers", "load", "jobs", "reps", "mean_wait", "mean_wait_ci95", "mean_response",
		"mean_response_ci95", "p50_wait", "p95_wait", "p99_wait", "handout_wait", "utilization", "seconds",
		"mean_wait_short", "mean_wait_long"} {
		if _, ok := obj[f]; !ok {
			t.Errorf("field %s missing", f)
		}
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
	out, _, _ = cli("run", "-json", "-jobs", "2000", "-discipline", "ps", "-sizes", "exp:mean=1")
	obj = nil
	json.Unmarshal([]byte(out), &obj)
	if _, ok := obj["handout_wait"]; ok {
		t.Errorf("handout_wait reported under PS")
	}
	if _, ok := obj["mean_wait_short"]; ok {
		t.Errorf("per-class wait reported for exponential sizes")
	}
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
