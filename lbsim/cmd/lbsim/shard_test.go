package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallSweep is 2 policies x 4 loads x 2 replications of 2e4 jobs: 8
// configurations, well under a second.
var smallSweep = []string{"-servers", "10", "-sizes", "exp:mean=1", "-policy", "rnd,ll:d=2",
	"-load", "0.3,0.5,0.7,0.9", "-reps", "2", "-jobs", "20000", "-seed", "7"}

// lbsimOK runs the command in-process and fails the test on a non-zero exit.
func lbsimOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := mainWithArgs(args, &out, &errb); code != 0 {
		t.Fatalf("lbsim %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	return out.String(), errb.String()
}

func lbsimFails(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := mainWithArgs(args, &out, &errb); code == 0 {
		t.Fatalf("lbsim %s succeeded, want an error", strings.Join(args, " "))
	}
	return errb.String()
}

func sweepArgs(extra ...string) []string {
	return append(append([]string{"sweep"}, smallSweep...), extra...)
}

// runShards runs every shard of an n-way split into dir, last first.
func runShards(t *testing.T, dir string, n int, extra ...string) {
	t.Helper()
	for i := n - 1; i >= 0; i-- {
		lbsimOK(t, sweepArgs(append([]string{"-shard", fmt.Sprintf("%d/%d", i, n), "-out", dir, "-quiet"}, extra...)...)...)
	}
}

// A sweep split into 1, 3 or 8 shards merges to exactly the bytes of the
// unsharded sweep, on stdout and with -o.
func TestShardedSweepMergesToUnshardedBytes(t *testing.T) {
	want, _ := lbsimOK(t, sweepArgs("-quiet")...)
	if lines := strings.Count(want, "\n"); lines != 9 {
		t.Fatalf("unsharded sweep has %d lines, want a header and 8 rows", lines)
	}
	for _, n := range []int{1, 3, 8} {
		dir := t.TempDir()
		// Workers must not matter: shards run on one core, the reference on all.
		runShards(t, dir, n, "-workers", "1")
		got, _ := lbsimOK(t, "merge", dir)
		if got != want {
			t.Errorf("%d shards: merged table differs from the unsharded sweep:\n%s\nwant\n%s", n, got, want)
		}
		out := filepath.Join(t.TempDir(), "merged.csv")
		lbsimOK(t, "merge", "-o", out, dir)
		if b, _ := os.ReadFile(out); string(b) != want {
			t.Errorf("%d shards: merge -o wrote different bytes", n)
		}
	}
}

// The same grid from a -spec file has the same sweep id as from flags: its
// shards are taken as complete, and merge to the same table.
func TestSpecFileIsTheSameSweep(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "sweep.json")
	os.WriteFile(spec, []byte(`{
  "servers": [10], "sizes": ["exp:mean=1"], "policy": ["rnd", "ll:d=2"],
  "load": [0.3, 0.5, 0.7, 0.9], "reps": 2, "jobs": 20000, "seed": 7
}`), 0o644)
	dir := t.TempDir()
	runShards(t, dir, 3)
	for i := range 3 {
		_, stderr := lbsimOK(t, "sweep", "-spec", spec, "-shard", fmt.Sprintf("%d/3", i), "-out", dir, "-quiet")
		if !strings.Contains(stderr, "is complete") || !strings.Contains(stderr, "skipping") {
			t.Errorf("shard %d/3 from -spec was not recognised as complete: %s", i, stderr)
		}
	}
	want, _ := lbsimOK(t, "sweep", "-spec", spec, "-quiet")
	if got, _ := lbsimOK(t, "merge", dir); got != want {
		t.Error("the -spec sweep differs from the same grid given as flags")
	}
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"sweep", "-spec", spec, "-load", "0.5"}, "-load given together with -spec"},
		{[]string{"sweep", "-spec", writeTemp(t, `{"lod": [0.5]}`)}, `unknown field "lod"`},
		{[]string{"sweep", "-spec", writeTemp(t, `{"load": [0.5, 1.5]}`)}, "1.5"},
	} {
		if e := lbsimFails(t, tc.args...); !strings.Contains(e, tc.mention) {
			t.Errorf("lbsim %v: error %q does not mention %q", tc.args, e, tc.mention)
		}
	}
}

// A complete shard is skipped, a truncated one (a killed run) is redone, and a
// complete shard of another sweep is never overwritten.
func TestShardSkipRedoForeign(t *testing.T) {
	dir := t.TempDir()
	runShards(t, dir, 3)
	path := filepath.Join(dir, "shard-1-of-3.csv")
	full, _ := os.ReadFile(path)
	before, _ := os.Stat(path)

	_, stderr := lbsimOK(t, sweepArgs("-shard", "1/3", "-out", dir, "-quiet")...)
	after, _ := os.Stat(path)
	if !strings.Contains(stderr, "skipping shard 1/3") || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("a complete shard was not skipped: %s", stderr)
	}

	os.WriteFile(path, full[:len(full)/2], 0o644)
	_, stderr = lbsimOK(t, sweepArgs("-shard", "1/3", "-out", dir, "-quiet")...)
	if !strings.Contains(stderr, "redoing shard 1/3") || !strings.Contains(stderr, "truncated") {
		t.Errorf("a truncated shard was not redone: %s", stderr)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, full) {
		t.Error("the redone shard differs from the first run")
	}

	e := lbsimFails(t, "sweep", "-servers", "10", "-sizes", "exp:mean=1", "-load", "0.4", "-jobs", "1000", "-shard", "1/3", "-out", dir, "-quiet")
	if !strings.Contains(e, "of another sweep") {
		t.Errorf("a foreign shard was not protected: %s", e)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, full) {
		t.Error("the foreign sweep overwrote the shard")
	}
}

func TestMergeAndShardErrors(t *testing.T) {
	dir := t.TempDir()
	runShards(t, dir, 3)
	os.Remove(filepath.Join(dir, "shard-2-of-3.csv"))
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"merge", dir}, "missing shard 2/3"},
		{[]string{"merge"}, "need exactly one shard directory"},
		{sweepArgs("-shard", "3/3", "-out", dir), "i in 0..n-1"},
		{sweepArgs("-shard", "two", "-out", dir), "is not i/n"},
		{sweepArgs("-shard", "0/2"), "needs -out DIR"},
		{append([]string{"slurm"}, smallSweep...), "-shards 0"},
		{append([]string{"slurm", "-shards", "3"}, smallSweep...), "-out DIR is required"},
	} {
		if e := lbsimFails(t, tc.args...); !strings.Contains(e, tc.mention) {
			t.Errorf("lbsim %v: error %q does not mention %q", tc.args, e, tc.mention)
		}
	}
}

// The generated batch script is an array of n tasks, each running one shard
// of the same sweep with the given binary.
func TestSlurmScript(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out dir")
	bin, _ := os.Executable()
	script, _ := lbsimOK(t, append([]string{"slurm", "-shards", "4", "-out", out, "-bin", bin, "-time", "0:10:00"}, smallSweep...)...)
	for _, want := range []string{"#!/bin/sh\n", "#SBATCH --array=0-3\n", "#SBATCH --time=0:10:00\n",
		"exec " + bin + " sweep ", `-shard "$SLURM_ARRAY_TASK_ID/4" -out '` + out + `'`, "-load 0.3,0.5,0.7,0.9", "-policy rnd,ll:d=2"} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
	if strings.Index(script, "#SBATCH") > strings.Index(script, "set -eu") {
		t.Error("#SBATCH lines must precede the first command")
	}
}

func writeTemp(t *testing.T, content string) string {
	p := filepath.Join(t.TempDir(), "spec.json")
	os.WriteFile(p, []byte(content), 0o644)
	return p
}
