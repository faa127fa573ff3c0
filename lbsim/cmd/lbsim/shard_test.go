package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/perfeval/lbsim/lbsim/shard"
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

// Item 3: resubmitting a complete sweep writes nothing into the folder (so a
// read-only folder stops at once): no lock file is created.
func TestCompleteSweepWritesNothing(t *testing.T) {
	dir := t.TempDir()
	runShards(t, dir, 3)
	locks, _ := filepath.Glob(filepath.Join(dir, ".*.lock"))
	for _, l := range locks {
		os.Remove(l)
	}
	before, _ := os.ReadDir(dir)
	for i := range 3 {
		_, e := lbsimOK(t, sweepArgs("-shard", fmt.Sprintf("%d/3", i), "-out", dir, "-quiet")...)
		if !strings.Contains(e, "skipping shard") {
			t.Errorf("shard %d/3 not skipped: %s", i, e)
		}
	}
	after, _ := os.ReadDir(dir)
	if len(after) != len(before) {
		var names []string
		for _, f := range after {
			names = append(names, f.Name())
		}
		t.Errorf("resubmitting a complete sweep created files: %v", names)
	}
}

// Two runs of one shard into one directory, with different seeds, at the
// same time: exactly one writes the file, the other fails saying why, and
// the file holds the winner's sweep (it used to be silently replaced).
func TestConcurrentShardWritersOneWins(t *testing.T) {
	dir := t.TempDir()
	argsOf := func(seed, part string) []string {
		return []string{"sweep", "-jobs", "200000", "-policy", "rnd,rr,ll:d=2", "-load", "0.3,0.6", "-servers", "10",
			"-reps", "2", "-shard", part, "-out", dir, "-seed", seed, "-quiet", "-workers", "1"}
	}
	args := func(seed string) []string { return argsOf(seed, "0/2") }
	var wg sync.WaitGroup
	codes := make([]int, 2)
	errs := make([]string, 2)
	for k, seed := range []string{"1", "2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[k], codes[k] = cli(args(seed)...)
		}()
	}
	wg.Wait()
	if codes[0]+codes[1] != 2 || codes[0]*codes[1] != 0 {
		t.Fatalf("exit codes %v, want one 0 and one 2\n%s\n%s", codes, errs[0], errs[1])
	}
	loser := errs[0]
	if codes[1] != 0 {
		loser = errs[1]
	}
	if !strings.Contains(loser, "being computed by another lbsim process") && !strings.Contains(loser, "another sweep") {
		t.Errorf("the second writer's error does not say why: %q", loser)
	}
	// The loser, rerun after the winner finished, refuses the other sweep's file.
	winner := "1"
	if codes[1] == 0 {
		winner = "2"
	}
	other := map[string]string{"1": "2", "2": "1"}[winner]
	_, e, code := cli(args(other)...)
	if code != 2 || !strings.Contains(e, "never overwritten") {
		t.Errorf("rerun of the other seed: exit %d, %q", code, e)
	}
	_, e, code = cli(args(winner)...)
	if code != 0 || !strings.Contains(e, "skipping shard 0/2") {
		t.Errorf("rerun of the winner: exit %d, %q", code, e)
	}
	// A held claim stops a writer at once; Write never replaces a file.
	unlock, err := shard.Lock(dir, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, e, code = cli(argsOf(winner, "1/2")...)
	unlock()
	if code != 2 || !strings.Contains(e, "being computed by another lbsim process") {
		t.Errorf("shard 1/2 while claimed: exit %d, %q", code, e)
	}
	st, err := os.Stat(filepath.Join(dir, shard.FileName(0, 2)))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("shard file mode %v (%v), want 0644", st.Mode().Perm(), err)
	}
}

// A shard file whose identification line claims 9e18 configurations, or
// whose line was edited, is refused with an error (it used to panic in
// makeslice, and the line was outside the checksum).
func TestHostileShardFiles(t *testing.T) {
	dir := t.TempDir()
	runShards(t, dir, 2)
	path := filepath.Join(dir, "shard-0-of-2.csv")
	good, _ := os.ReadFile(path)
	for _, tc := range []struct {
		name, from, to, mention string
	}{
		{"9e18 configurations", "configs=8", "configs=9000000000000000000", "configurations"},
		{"configs=16", "configs=8", "configs=16", "is corrupt"},
		{"another shard", "shard=0/2", "shard=0/1", "is corrupt"},
		{"another code", "code=", "code=0", "is corrupt"},
	} {
		bad := bytes.Replace(good, []byte(tc.from), []byte(tc.to), 1)
		if bytes.Equal(bad, good) {
			t.Fatalf("%s: %q not in the file", tc.name, tc.from)
		}
		os.WriteFile(path, bad, 0o644)
		if _, e, code := cli("merge", dir); code != 2 || !strings.Contains(e, tc.mention) {
			t.Errorf("%s: merge exit %d, %q; want an error saying %q", tc.name, code, e, tc.mention)
		}
		// The sweep redoes a damaged shard of its own (the claim of 9e18
		// configurations must not crash it either).
		if _, e, code := cli(sweepArgs("-shard", "0/2", "-out", dir, "-quiet")...); code != 0 || !strings.Contains(e, "redoing shard 0/2") {
			t.Errorf("%s: sweep exit %d, %q; want the shard redone", tc.name, code, e)
		}
		if b, _ := os.ReadFile(path); !bytes.Equal(b, good) {
			t.Errorf("%s: the redone shard differs from the original", tc.name)
		}
	}
	os.WriteFile(path, good, 0o644)
	o := filepath.Join(t.TempDir(), "merged.csv")
	lbsimOK(t, "merge", dir, "-o", o)
	if st, err := os.Stat(o); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("merge -o mode %v, %v; want 0644", st.Mode().Perm(), err)
	}
}

// Two builds of the simulator that differ only in a link-time tag (as a
// bug fix would differ in code) never mix results: their sweep ids differ,
// merge refuses a directory with shards of both and names both versions, a
// shard of the other build is not skipped as complete, and the notebook
// cache of one build is never served to the other.
func TestTwoBuildsNeverMix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lbsim twice")
	}
	tmp := t.TempDir()
	build := func(tag string, args ...string) string {
		bin := filepath.Join(tmp, tag)
		cmd := exec.Command("go", append([]string{"build", "-o", bin, "-ldflags", "-X github.com/perfeval/lbsim/lbsim.buildTag=" + tag}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", cmd.Args, err, out)
		}
		return bin
	}
	a, b := build("A", "."), build("B", ".")
	run := func(bin string, args ...string) (string, error) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		return string(out), err
	}
	dir := filepath.Join(tmp, "shards")
	sweep := func(i string) []string {
		return append(append([]string{"sweep"}, smallSweep...), "-shard", i+"/2", "-out", dir, "-quiet")
	}
	if out, err := run(a, sweep("0")...); err != nil {
		t.Fatalf("A shard 0: %v %s", err, out)
	}
	if out, err := run(b, sweep("1")...); err != nil {
		t.Fatalf("B shard 1: %v %s", err, out)
	}
	codeOf := func(i int) string {
		f, err := shard.ReadFile(filepath.Join(dir, shard.FileName(i, 2)))
		if err != nil {
			t.Fatal(err)
		}
		return f.Sweep.Code
	}
	ca, cb := codeOf(0), codeOf(1)
	if ca == cb {
		t.Fatalf("builds A and B have one code version %s", ca)
	}
	for _, bin := range []string{a, b} {
		out, err := run(bin, "merge", dir)
		if err == nil || !strings.Contains(out, "never merged") || !strings.Contains(out, ca) || !strings.Contains(out, cb) {
			t.Errorf("merge of A's and B's shards: %v, %q; want a refusal naming %s and %s", err, out, ca, cb)
		}
	}
	out, err := run(b, sweep("0")...)
	if err == nil || strings.Contains(out, "skipping") || !strings.Contains(out, "another build") {
		t.Errorf("B on A's complete shard: %v, %q; want a refusal, not a skip", err, out)
	}

	// The notebook cache: nb's test binary doubles as a cache client.
	pa, pb := filepath.Join(tmp, "probeA"), filepath.Join(tmp, "probeB")
	for tag, p := range map[string]string{"A": pa, "B": pb} {
		cmd := exec.Command("go", "test", "-c", "-o", p, "-ldflags", "-X github.com/perfeval/lbsim/lbsim.buildTag="+tag, "../../nb")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go test -c: %v\n%s", err, out)
		}
	}
	cache := filepath.Join(tmp, "cache")
	probe := func(bin, wd string) string {
		cmd := exec.Command(bin, "-test.run=^$")
		cmd.Dir = wd
		// None of the caller's LBSIM_ settings: one left in the shell (even
		// empty) makes nb print a warning before the probe's line.
		env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "LBSIM_") })
		cmd.Env = append(env, "LBSIM_CACHE_PROBE=1", "LBSIM_CACHE_DIR="+cache, "LBSIM_NO_CACHE=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("probe: %v\n%s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	codeA := regexp.MustCompile(`code=(\w+)`).FindStringSubmatch(probe(pa, tmp))[1]
	codeB := regexp.MustCompile(`code=(\w+)`).FindStringSubmatch(probe(pb, tmp))[1]
	if codeA == codeB {
		t.Fatalf("probes A and B share code %s", codeA)
	}
	for _, step := range []struct{ bin, wd, want string }{
		{pa, tmp, fmt.Sprintf("computed=false value=%s", codeA)},
		{pb, tmp, fmt.Sprintf("computed=false value=%s", codeB)},
		{pa, "/", fmt.Sprintf("computed=false value=%s", codeA)}, // run from elsewhere: same version
	} {
		if got := probe(step.bin, step.wd); !strings.HasPrefix(got, step.want) {
			t.Errorf("probe: %q, want %q", got, step.want)
		}
	}
}

// Issue 34 item 12: a wrong -shard is refused before anything else, not
// after the list of the points -skip-invalid leaves out: the error is all
// that is printed.
func TestBadShardRefusedFirst(t *testing.T) {
	for _, args := range [][]string{{"-shard", "3/3", "-out", t.TempDir()}, {"-shard", "0/2"}} {
		args = append([]string{"sweep", "-skip-invalid", "-policy", "rnd,jsq", "-refresh", "0,1", "-servers", "2", "-jobs", "100"}, args...)
		_, e, code := cli(args...)
		if code != 2 || strings.Contains(e, "skipped") || strings.Count(strings.TrimSpace(e), "\n") > 0 {
			t.Errorf("lbsim %v: exit %d, stderr:\n%s\nwant exit 2 and one line, no list of skipped points", args, code, e)
		}
	}
}
