package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCLI feeds arbitrary command lines to sweep (planned with -id, so that
// nothing runs for long), slurm and merge: every one exits 0, or 2 with
// exactly one line on stderr; none panics. Flags that name files are
// dropped from the input (the fuzzer must not read /dev/stdin or write into
// the source tree); the test adds its own.
func FuzzCLI(f *testing.F) {
	for _, seed := range []string{
		"sweep -servers 4 -load 0.3,0.6 -policy rnd,ll:d=2",
		"sweep -arrivals ramp:from=0.2,to=0.9,over=100 -jobs 1000",
		"sweep -policy sita:c=1 -servers 2 -sizes pareto:alpha=1.5,mean=1",
		"sweep -precision 0.05 -max-jobs 100000 -warmup auto",
		"slurm -shards 2 -load 0.3,0.6 -quiet",
		"slurm -shards 3 -time 1:00:00 -partition debug",
		"merge",
		"sweep -load 0x1p-1 -servers +5 -jobs 1_000",
		"sweep -policy ll:d=2,d=2 -refresh 0,3",
	} {
		f.Add(seed)
	}
	dir := f.TempDir()
	shards := filepath.Join(dir, "shards")
	os.Mkdir(shards, 0o755)
	f.Fuzz(func(t *testing.T, line string) {
		words := strings.Fields(line)
		if len(words) == 0 {
			return
		}
		var args []string
		for k := 1; k < len(words); k++ {
			w := words[k]
			switch strings.TrimLeft(strings.SplitN(w, "=", 2)[0], "-") {
			case "out", "o", "spec", "trace", "bin", "shard", "h", "help":
				k++ // and its value
				continue
			}
			if strings.ContainsAny(w, "/\\") {
				continue
			}
			args = append(args, w)
		}
		switch words[0] {
		case "sweep":
			args = append(append([]string{"sweep"}, args...), "-id")
		case "slurm":
			args = append(append([]string{"slurm"}, args...), "-out", filepath.Join(dir, "slurm"))
		case "merge":
			args = append([]string{"merge", shards}, args...)
		default:
			return
		}
		var out, errb bytes.Buffer
		code := mainWithArgs(args, &out, &errb)
		switch {
		case code == 0:
		case code != 2:
			t.Fatalf("lbsim %q: exit %d", args, code)
		case strings.Count(strings.TrimRight(errb.String(), "\n"), "\n") > 0 || errb.Len() == 0:
			t.Fatalf("lbsim %q: want one line on stderr, got %q", args, errb.String())
		}
	})
}

// FuzzSpecRoundTrip checks that one spec file gives one sweep id everywhere:
// sweep -spec, the batch script's header, and the command line its tasks
// run (spec to flags to spec), for any spec lbsim accepts.
func FuzzSpecRoundTrip(f *testing.F) {
	for _, seed := range []string{
		`{"servers":[4],"load":[0.3,0.6],"jobs":2000}`,
		`{"servers":[4,8],"policy":["rnd","ll:d=2"],"refresh":[0,5],"jobs":1000}`,
		`{"arrivals":"ramp:from=0.2,to=0.6,over=500","jobs":2000}`,
		`{"precision":0.1,"max_jobs":100000,"reps":2}`,
		`{"warmup_auto":true,"sizes":["exp:mean=1","h2:mean=1,scv=4"]}`,
		`{"speeds":[1,2,3],"servers":[3],"policy":["sita:c=1"],"discipline":["ps"]}`,
		`{"trace":"TRACE","servers":[2]}`,
		`{"servers":[2,8],"policy":["rnd","sita:cut=2,c=3"],"sizes":["exp:mean=1"],"jobs":1000,"skip_invalid":true}`,
		`{"trace":"TRACE","servers":[2],"jobs":2,"warmup":1}`,
		`{"servers":[4],"jobs":2000,"control_variates":true}`,
	} {
		f.Add(seed)
	}
	dir := f.TempDir()
	trace := filepath.Join(dir, "trace.csv")
	os.WriteFile(trace, []byte("0,1\n0.5,2\n1.5,1\n2,1\n"), 0o644)
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.Contains(spec, "/") || strings.Contains(spec, `\`) {
			return // paths: only the test's trace
		}
		spec = strings.ReplaceAll(spec, "TRACE", trace)
		path := filepath.Join(t.TempDir(), "spec.json")
		os.WriteFile(path, []byte(spec), 0o644)
		var out, errb bytes.Buffer
		if mainWithArgs([]string{"sweep", "-spec", path, "-id"}, &out, &errb) != 0 {
			return // refused: a clear error is all that is asked
		}
		id := strings.TrimSpace(out.String())
		script, e, code := cli("slurm", "-spec", path, "-shards", "1", "-out", filepath.Join(dir, "out"))
		if code != 0 {
			t.Fatalf("sweep -spec accepts %s but slurm refuses it: %s", spec, e)
		}
		if header := sweepID(t, script); !strings.HasPrefix(id, "sweep "+header) {
			t.Fatalf("spec %s: sweep -id says %q, the script's header %s", spec, id, header)
		}
		task := append(scriptCommand(t, script, "0/1", filepath.Join(dir, "task")), "-id")
		again, e, code := cli(task...)
		if code != 0 || strings.TrimSpace(again) != id {
			t.Fatalf("spec %s: the task's command line lbsim %s gives %q (%s), the spec %q", spec, strings.Join(task, " "), again, e, id)
		}
	})
}
