package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/perfeval/lbsim/lbsim/shard"
)

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

// One grid, one id: "policy": ["rnd,rr"] and ["rnd","rr"] are the same sweep.
func TestSpecListsCanonical(t *testing.T) {
	ids := map[string]bool{}
	for _, spec := range []string{
		`{"policy": ["rnd,rr"], "load": [0.3], "servers": [4], "jobs": 1000, "sizes": ["exp:mean=1"]}`,
		`{"policy": ["rnd", "rr"], "load": [0.3], "servers": [4], "jobs": 1000, "sizes": ["exp:mean=1"]}`,
	} {
		dir := t.TempDir()
		lbsimOK(t, "sweep", "-spec", writeTemp(t, spec), "-shard", "0/1", "-out", dir, "-quiet")
		b, _ := os.ReadFile(filepath.Join(dir, "shard-0-of-1.csv"))
		ids[regexp.MustCompile(`sweep=[0-9a-f]+`).FindString(string(b))] = true
	}
	if len(ids) != 1 {
		t.Errorf("two spellings of one grid have ids %v", ids)
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
		cmd.Env = append(os.Environ(), "LBSIM_CACHE_PROBE=1", "LBSIM_CACHE_DIR="+cache, "LBSIM_NO_CACHE=")
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
