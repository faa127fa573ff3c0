package main

import (
	"regexp"
	"strings"
	"testing"
)

// refused runs a command line that must fail with exit 2 and one line of
// stderr saying mention.
func refused(t *testing.T, mention string, args ...string) {
	t.Helper()
	out, errOut, code := cli(args...)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != 2 || out != "" || len(lines) != 1 || !strings.Contains(errOut, mention) {
		t.Errorf("%.200q: exit %d, stdout %.100q, stderr %.300q; want exit 2 and one line saying %q", args, code, out, errOut, mention)
	}
}

// Go literal syntax is not a number on the command line, in any flag or
// list (issue 25, item 18).
func TestFlagNumbers(t *testing.T) {
	dir := t.TempDir() // where a wrongly accepted shard would go
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"run", "-load", "0x1p-1"}, `-load: "0x1p-1" is not a number: write a plain decimal`},
		{[]string{"run", "-servers", "+5"}, `-servers: "+5" is not a whole number`},
		{[]string{"run", "-speeds", "1_0"}, `-speeds: "1_0" is not a number: write a plain decimal`},
		{[]string{"sweep", "-refresh", "0,0x10", "-policy", "ll:d=2"}, `-refresh: "0x10" is not a number: write a plain decimal`},
		{[]string{"run", "-load", "-1e-400"}, "smallest magnitude 5e-324"},
		{[]string{"run", "-load", "inf"}, "not a finite number"},
		{[]string{"run", "-jobs", "1_000"}, `-jobs: "1_000" is not a whole number`},
		{[]string{"run", "-jobs", "0x10"}, `-jobs: "0x10" is not a whole number`},
		{[]string{"run", "-reps", "+2"}, `-reps: "+2" is not a whole number`},
		{[]string{"run", "-workers", "0b1"}, "is not a whole number"},
		{[]string{"run", "-batches", "0o7"}, "is not a whole number"},
		{[]string{"run", "-seed", "0x10"}, `-seed: "0x10" is not a whole number`},
		{[]string{"run", "-seed", "-1"}, "negative"},
		{[]string{"run", "-max-jobs", "1e6", "-precision", "0.1"}, "is not a whole number"},
		{[]string{"run", "-precision", "0x1p-4"}, `-precision: "0x1p-4" is not a number: write a plain decimal`},
		{[]string{"run", "-max-seconds", "1_0", "-precision", "0.1"}, "plain decimal"},
		{[]string{"run", "-warmup", "+10"}, `-warmup`},
		{[]string{"run", "-jobs", "99999999999999999999"}, "out of range"},
		{[]string{"run", "-policy", "ll:d=0x2"}, "plain decimal"},
		{[]string{"sweep", "-shard", "+0/2", "-out", dir}, "-shard"},
		{[]string{"sweep", "-shard", "0/0x2", "-out", dir}, "-shard"},
		{[]string{"slurm", "-shards", "+2", "-out", dir}, `-shards: "+2" is not a whole number`},
		{[]string{"slurm", "-shards", "2", "-cpus-per-task", "0x2", "-out", dir}, `-cpus-per-task: "0x2" is not a whole number`},
	} {
		refused(t, tc.mention, tc.args...)
	}
	// Plain decimals still work, with surrounding blanks trimmed.
	out, errOut, code := cli("run", "-load", " 0.5 ", "-servers", "4", "-jobs", "2000", "-seed", "18446744073709551615", "-json")
	if code != 0 || !strings.Contains(out, `"servers":4`) {
		t.Errorf("plain decimals: exit %d, %s %s", code, out, errOut)
	}
}

// The first duplicate parameter of a long spec fails, whatever follows it.
func TestDuplicateParameter(t *testing.T) {
	refused(t, `parameter "d" given twice`, "run", "-policy", "ll:"+strings.Repeat("d=2,", 200_000)+"d=2")
}

// A spec file is read as strictly as flags (item 20).
func TestSpecStrict(t *testing.T) {
	for _, tc := range []struct{ json, mention string }{
		{`{"jobs": 10, "jobs": 20}`, `key "jobs" given twice`},
		{`{"Jobs": 10}`, `unknown field "Jobs"`},
		{`{"max-jobs": 10}`, "max_jobs"},
		{`{"lod": [0.5]}`, "warmup_auto"},
		{`{"jobs": 10} {"jobs": 20}`, "more than one JSON object"},
		{`{"jobs": 10} x`, "more than one JSON object"},
		{`{"warmup": 100, "warmup_auto": true}`, `"warmup" and "warmup_auto"`},
		{`{"jobs": 1e2}`, `"jobs": "1e2" is not a whole number`},
		{`{"jobs": 10.5}`, "whole number"},
		{`{"jobs": "10"}`, `"jobs": need a number`},
		{`{"load": [1e-400]}`, "smallest magnitude"},
		{`{"load": "0.5"}`, `"load": need a number`}, // one value, as -load 0.5, is a one-value axis
		{`{"seed": -1}`, "negative"},
		{`{"tally": 1}`, `"tally": need true or false`},
		{`[1]`, "need one JSON object"},
		{`{"jobs": 10`, "-spec"},
		{``, "need one JSON object"},
	} {
		refused(t, tc.mention, "sweep", "-spec", writeTemp(t, tc.json))
	}
	out, errOut, code := cli("sweep", "-spec", writeTemp(t, `{"servers": [2], "load": [0.5], "jobs": 1000, "policy": ["rnd", "rr"], "warmup_auto": true}`), "-quiet")
	if code != 0 || strings.Count(out, "\n") != 3 {
		t.Errorf("a good spec: exit %d\n%s%s", code, out, errOut)
	}
}

// Messages that name the fix (item 23).
func TestMessages(t *testing.T) {
	refused(t, "is a folder", "sweep", "-spec", t.TempDir())
	refused(t, "is a folder", "run", "-trace", t.TempDir())
	refused(t, "modal: value #2 is empty", "run", "-sizes", "modal:1,,2")
	refused(t, "run two sweeps", "sweep", "-refresh", "0,3", "-policy", "rnd,ll:d=2", "-jobs", "1000")
	refused(t, "-policy rnd -refresh 0", "sweep", "-refresh", "0,3", "-policy", "rnd,ll:d=2", "-jobs", "1000")
	refused(t, "at least 2 servers", "run", "-servers", "1", "-policy", "sita:c=1")
}

// -reps 0 and "reps": 0 are refused with the range, not run as one
// replication.
func TestRepsZero(t *testing.T) {
	const want = "R=0 is invalid: replications must be at least 1"
	refused(t, "-reps: "+want, "run", "-reps", "0", "-jobs", "1000")
	refused(t, "-reps: "+want, "sweep", "-reps", "0", "-jobs", "1000")
	refused(t, "-reps: "+want, "compare", "-reps", "0", "-jobs", "1000", "-policy", "rnd,rr")
	refused(t, `"reps": `+want, "sweep", "-spec", writeTemp(t, `{"reps": 0}`))
}

// Every flag of run, sweep and compare refuses an empty value in the words
// of -servers= ("" is empty: write ...): -view= ran live, -trace= no trace,
// -spec= the flags' sweep.
func TestEmptyFlagValues(t *testing.T) {
	for _, cmd := range []string{"run", "sweep", "compare"} {
		_, help, _ := cli(cmd, "-h")
		names := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(help, -1)
		if len(names) < 25 {
			t.Fatalf("%s -h lists %d flags:\n%s", cmd, len(names), help)
		}
		for _, m := range names {
			refused(t, "-"+m[1]+`: "" is empty: write `, cmd, "-"+m[1]+"=", "-jobs", "1000")
		}
	}
}
