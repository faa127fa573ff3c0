package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/slurmtest"
)

// buildLbsim builds the command into a temporary directory, for Slurm tasks.
func buildLbsim(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lbsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// submit writes the batch script of sweep for n shards into out and submits it.
func submit(t *testing.T, c *slurmtest.Cluster, bin, out string, n int, sweep []string) string {
	t.Helper()
	script, _ := lbsimOK(t, append([]string{"slurm", "-shards", fmt.Sprint(n), "-out", out, "-bin", bin}, sweep...)...)
	path := filepath.Join(t.TempDir(), "job.sbatch")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	id, err := c.Submit(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wait(id, 5*time.Minute); err != nil {
		t.Fatalf("%v\n%s\n%s", err, taskLogs(out, id), c.Logs())
	}
	return id
}

func taskLogs(out, id string) string {
	var b strings.Builder
	logs, _ := filepath.Glob(filepath.Join(out, "slurm-"+id+"_*.out"))
	for _, p := range logs {
		data, _ := os.ReadFile(p)
		fmt.Fprintf(&b, "--- %s\n%s", filepath.Base(p), data)
	}
	return b.String()
}

// The sweep run as a Slurm job array of 3 shards merges to the bytes of the
// local unsharded run; after a shard is lost (a killed task), resubmitting
// the same array reruns that shard and nothing else.
func TestSlurmArrayMergesToUnshardedBytes(t *testing.T) {
	c := slurmtest.Start(t)
	bin := buildLbsim(t)
	want, _ := lbsimOK(t, sweepArgs("-quiet")...)
	out := t.TempDir()

	first := submit(t, c, bin, out, 3, smallSweep)
	got, _ := lbsimOK(t, "merge", out)
	if got != want {
		t.Fatalf("Slurm merge differs from the unsharded sweep:\n%s\nwant\n%s", got, want)
	}
	for task := range 3 {
		if log := readLog(out, first, task); !strings.Contains(log, fmt.Sprintf("wrote %s/shard-%d-of-3.csv", out, task)) {
			t.Errorf("first submission, task %d did not write its shard:\n%s", task, log)
		}
	}

	kept := map[int]os.FileInfo{}
	for _, i := range []int{0, 2} {
		kept[i], _ = os.Stat(filepath.Join(out, fmt.Sprintf("shard-%d-of-3.csv", i)))
	}
	os.Remove(filepath.Join(out, "shard-1-of-3.csv"))
	second := submit(t, c, bin, out, 3, smallSweep)
	for task := range 3 {
		log := readLog(out, second, task)
		ran := strings.Contains(log, "wrote ")
		skipped := strings.Contains(log, "skipping shard")
		if ran != (task == 1) || skipped != (task != 1) {
			t.Errorf("resubmission, task %d: ran %v, skipped %v; want only task 1 to run:\n%s", task, ran, skipped, log)
		}
	}
	for i, before := range kept {
		after, err := os.Stat(filepath.Join(out, fmt.Sprintf("shard-%d-of-3.csv", i)))
		if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
			t.Errorf("shard %d/3 was rewritten by the resubmission", i)
		}
	}
	if got, _ := lbsimOK(t, "merge", out); got != want {
		t.Error("after the resubmission the merge differs from the unsharded sweep")
	}
}

func readLog(out, id string, task int) string {
	b, _ := os.ReadFile(filepath.Join(out, fmt.Sprintf("slurm-%s_%d.out", id, task)))
	return string(b)
}

// TestSweepWallTime measures a bigger sweep on 1 and 2 cores and through
// Slurm (2 shards of 1 CPU each); run with LBSIM_SWEEP_TIMING=1.
func TestSweepWallTime(t *testing.T) {
	if os.Getenv("LBSIM_SWEEP_TIMING") != "1" {
		t.Skip("timing only; set LBSIM_SWEEP_TIMING=1")
	}
	sweep := []string{"-servers", "50", "-sizes", "exp:mean=1", "-policy", "rnd,ll:d=2",
		"-load", "0.5,0.6,0.7,0.8,0.9,0.95", "-reps", "4", "-jobs", "2000000", "-seed", "3"}
	bin := buildLbsim(t)
	local := map[int][]byte{}
	for _, procs := range []int{1, 2} {
		cmd := exec.Command(bin, append([]string{"sweep", "-quiet"}, sweep...)...)
		cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", procs))
		start := time.Now()
		b, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		local[procs] = b
		t.Logf("local sweep, GOMAXPROCS=%d: %v", procs, time.Since(start).Round(10*time.Millisecond))
	}
	if string(local[1]) != string(local[2]) {
		t.Error("the sweep on 1 and 2 cores differs")
	}
	c := slurmtest.Start(t)
	out := t.TempDir()
	start := time.Now()
	submit(t, c, bin, out, 2, sweep)
	t.Logf("Slurm, 2 shards x 1 CPU: %v (submit to all tasks finished)", time.Since(start).Round(10*time.Millisecond))
	got, err := exec.Command(bin, "merge", out).Output()
	if err != nil || string(got) != string(local[1]) {
		t.Errorf("the Slurm sweep differs from the local one (%v)", err)
	}
}

// Items 7 and 8 of issue 25 on real Slurm: a ramp sweep (whose tasks were
// given -load and all failed) written to a folder with a '%' in its name
// (which Slurm expanded in --output, so no task left a log) runs, logs and
// merges to the bytes of the local sweep.
func TestSlurmRampPercentOut(t *testing.T) {
	c := slurmtest.Start(t)
	bin := buildLbsim(t)
	sweep := []string{"-servers", "4", "-sizes", "exp:mean=1", "-policy", "rnd,ll:d=2", "-jobs", "20000",
		"-arrivals", "ramp:from=0.2,to=0.7,over=2000", "-seed", "5"}
	want, _ := lbsimOK(t, append([]string{"sweep", "-quiet"}, sweep...)...)
	out := filepath.Join(t.TempDir(), "ramp 100%_a")
	id := submit(t, c, bin, out, 2, sweep)
	for task := range 2 {
		if log := readLog(out, id, task); !strings.Contains(log, "wrote ") {
			t.Errorf("task %d left no log saying it wrote its shard: %q", task, log)
		}
	}
	if got, _ := lbsimOK(t, "merge", out); got != want {
		t.Errorf("the Slurm ramp sweep differs from the local one:\n%s\nwant\n%s", got, want)
	}
}

// scriptCommand is the task's command line of a batch script, unquoted, with
// the task's shard and output folder filled in.
func scriptCommand(t *testing.T, script string, shard, out string) []string {
	t.Helper()
	i := strings.Index(script, "\nexec ")
	if i < 0 {
		t.Fatalf("no exec line in\n%s", script)
	}
	line := strings.ReplaceAll(script[i+6:], "\\\n", " ")
	line, _, _ = strings.Cut(line, "\n")
	words := shellWords(t, line)
	var args []string
	for k := 2; k < len(words); k++ { // skip the binary and "sweep"
		switch words[k] {
		case "-shard":
			args, k = append(args, "-shard", shard), k+1
		case "-out":
			args, k = append(args, "-out", out), k+1
		case "-workers":
			args, k = append(args, "-workers", "1"), k+1
		default:
			args = append(args, words[k])
		}
	}
	return append([]string{"sweep"}, args...)
}

// shellWords splits a line of sh words quoted by shellQuote ('...' and
// "...", no expansions but $VAR inside double quotes left as is).
func shellWords(t *testing.T, line string) []string {
	var words []string
	var w strings.Builder
	in := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			w.WriteString(line[i+1 : i+1+j])
			i, in = i+1+j, true
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			w.WriteString(line[i+1 : i+1+j])
			i, in = i+1+j, true
		case c == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// slurmAgrees checks that the batch script's header id, the id of the
// sweep run by hand and the id the script's task computes are one.
func slurmAgrees(t *testing.T, name string, sweep []string) {
	t.Helper()
	out := t.TempDir()
	script, e, code := cli(append([]string{"slurm", "-shards", "1", "-out", out}, sweep...)...)
	if code != 0 {
		t.Errorf("%s: slurm refused it: %s", name, e)
		return
	}
	header := sweepID(t, script)
	byHand := t.TempDir()
	if _, e, code := cli(append(append([]string{"sweep"}, sweep...), "-shard", "0/1", "-out", byHand, "-quiet")...); code != 0 {
		t.Errorf("%s: the sweep by hand failed: %s", name, e)
		return
	}
	f, _ := os.ReadFile(filepath.Join(byHand, "shard-0-of-1.csv"))
	task := t.TempDir()
	args := scriptCommand(t, script, "0/1", task)
	if _, e, code := cli(args...); code != 0 {
		t.Errorf("%s: the script's task fails: lbsim %s: %s", name, strings.Join(args, " "), e)
		return
	}
	g, _ := os.ReadFile(filepath.Join(task, "shard-0-of-1.csv"))
	if a, b, c := header, sweepID(t, string(f)), sweepID(t, string(g)); a != b || b != c {
		t.Errorf("%s: sweep ids differ: script header %s, by hand %s, task %s", name, a, b, c)
	}
}

// Items 5 and 7: for every kind of spec the batch script's tasks run, and
// the header, the sweep by hand and the task compute one sweep id.
func TestSlurmIdentityAgrees(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.csv")
	os.WriteFile(trace, []byte("0,1\n0.5,2\n1.5,1\n2,1\n"), 0o644)
	for _, tc := range []struct {
		name  string
		sweep []string
	}{
		{"plain", []string{"-servers", "4", "-jobs", "2000", "-load", "0.3,0.6"}},
		{"ramp flag", []string{"-servers", "4", "-jobs", "2000", "-arrivals", "ramp:from=0.2,to=0.6,over=500"}},
		{"ramp spec", []string{"-spec", writeTemp(t, `{"servers":[4],"jobs":2000,"arrivals":"ramp:from=0.2,to=0.6,over=500"}`)}},
		{"precision", []string{"-servers", "4", "-jobs", "2000", "-precision", "0.2", "-max-jobs", "40000", "-reps", "4"}},
		{"auto warm-up", []string{"-servers", "4", "-jobs", "2000", "-warmup", "auto"}},
		{"trace", []string{"-servers", "2", "-trace", trace}},
		{"trace spec", []string{"-spec", writeTemp(t, `{"servers":[2],"trace":"`+trace+`"}`)}},
	} {
		slurmAgrees(t, tc.name, tc.sweep)
	}
	// The specs whose ids disagreed: now refused by sweep and slurm alike.
	for _, spec := range []string{
		`{"servers":[4],"jobs":2000,"max_jobs":5000}`,
		`{"servers":[4],"jobs":2000,"max_seconds":60}`,
		`{"servers":[4],"jobs":2000,"warmup":100,"warmup_auto":true}`,
	} {
		path := writeTemp(t, spec)
		e1 := lbsimFails(t, "sweep", "-spec", path, "-id")
		e2 := lbsimFails(t, "slurm", "-spec", path, "-shards", "1", "-out", t.TempDir())
		if strings.TrimPrefix(e1, "lbsim sweep: ") != strings.TrimPrefix(e2, "lbsim slurm: ") {
			t.Errorf("spec %s: sweep says %q, slurm %q", spec, e1, e2)
		}
	}
}

// Item 8: a '%' in -out reaches Slurm as '%%' in #SBATCH --output.
func TestSlurmPercentOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "100%_done")
	script, _ := lbsimOK(t, "slurm", "-shards", "2", "-out", out, "-servers", "4", "-jobs", "1000", "-load", "0.3,0.6")
	if want := `#SBATCH --output="` + strings.ReplaceAll(out, "%", "%%") + `/slurm-%A_%a.out"`; !strings.Contains(script, want) {
		t.Errorf("script lacks %s:\n%s", want, script)
	}
}

// Item 9: slurm refuses more shards than configurations and flags it would
// drop, carries -quiet to the tasks, and takes its sweep id from -bin.
func TestSlurmFlags(t *testing.T) {
	out := t.TempDir()
	base := []string{"slurm", "-out", out, "-servers", "4", "-jobs", "1000", "-load", "0.3,0.6"}
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{append(base, "-shards", "1000"), "-shards 1000"},
		{append(base, "-shards", "2", "-workers", "3"), "-cpus-per-task"},
		{append(base, "-shards", "2", "-bin", "/bin/true"), "not an lbsim binary"},
	} {
		if e := lbsimFails(t, tc.args...); !strings.Contains(e, tc.mention) {
			t.Errorf("lbsim %s: %q does not mention %q", strings.Join(tc.args, " "), e, tc.mention)
		}
	}
	script, _ := lbsimOK(t, append(base, "-shards", "2", "-quiet")...)
	if !strings.Contains(script, " -quiet") {
		t.Errorf("-quiet is dropped from the tasks:\n%s", script)
	}
	// Another build (another code version): the header's id is that build's.
	bin := filepath.Join(t.TempDir(), "lbsim-other")
	if b, err := exec.Command("go", "build", "-ldflags", "-X github.com/perfeval/lbsim/lbsim.buildTag=other", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	script, _ = lbsimOK(t, append(base, "-shards", "2", "-bin", bin)...)
	task := t.TempDir()
	if b, err := exec.Command(bin, scriptCommand(t, script, "0/2", task)...).CombinedOutput(); err != nil {
		t.Fatalf("the task with -bin fails: %v\n%s", err, b)
	}
	f, _ := os.ReadFile(filepath.Join(task, "shard-0-of-2.csv"))
	if a, b := sweepID(t, script), sweepID(t, string(f)); a != b {
		t.Errorf("the script's header names sweep %s, its tasks (run by -bin) compute %s", a, b)
	}
}

// The batch script carries any -out path as data: with spaces, quotes and
// a '$', the task receives it unchanged, and nothing else runs.
func TestSlurmScriptQuotesPaths(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	base := t.TempDir()
	out := filepath.Join(base, "it's a $HOME dir; touch PWNED")
	// A stand-in for lbsim that prints its arguments (and a sweep id for -id).
	echo := filepath.Join(base, "echo-lbsim")
	os.WriteFile(echo, []byte("#!/bin/sh\ncase \"$*\" in *' -id') echo sweep "+strings.Repeat("0", 64)+" configs=2 code=x;; *) echo \"$@\";; esac\n"), 0o755)
	script, _ := lbsimOK(t, "slurm", "-shards", "2", "-out", out, "-bin", echo, "-servers", "4", "-jobs", "100",
		"-load", "0.3,0.6", "-sizes", "exp:mean=1", "-partition", "debug", "-time", "1:00:00")
	if !strings.Contains(script, `#SBATCH --output="`+out+`/slurm-%A_%a.out"`) {
		t.Errorf("#SBATCH --output is not quoted:\n%s", script)
	}
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = base
	cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=1", "SLURM_CPUS_PER_TASK=3")
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("script: %v\n%s", err, got)
	}
	if !strings.Contains(string(got), "-shard 1/2 -out "+out+" -workers 3") {
		t.Errorf("the task got %q, want the path unchanged", got)
	}
	if _, err := os.Stat(filepath.Join(base, "PWNED")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the path ran as a command")
	}
}
