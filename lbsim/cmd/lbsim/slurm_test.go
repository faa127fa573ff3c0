package main

import (
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
func TestHarden2_SlurmRampPercentOut(t *testing.T) {
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
