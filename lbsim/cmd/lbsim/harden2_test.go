package main

// Tests of issue 25 (hardening, round 2) for the command line: files never
// replaced that were not asked for, sweep identities that follow the bytes,
// batch scripts that run, streamed sweeps. Each test reproduced its defect
// on the code before the fix.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mergedDir is a directory of 3 complete shards of smallSweep and the bytes
// they merge to.
func mergedDir(t *testing.T) (dir string, merged []byte) {
	t.Helper()
	dir = t.TempDir()
	runShards(t, dir, 3)
	out, _ := lbsimOK(t, "merge", dir)
	return dir, []byte(out)
}

// Item 1: merge -o through a symlink writes the link's target and keeps the
// link.
func TestHarden2_MergeOutSymlink(t *testing.T) {
	dir, merged := mergedDir(t)
	other := t.TempDir()
	target := filepath.Join(other, "table.csv")
	os.WriteFile(target, []byte("old\n"), 0o644)
	link := filepath.Join(other, "link.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	lbsimOK(t, "merge", dir, "-o", link)
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("merge -o replaced the symlink %s by a regular file", link)
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, merged) {
		t.Errorf("the symlink's target holds %q, want the merged table", clipBytes(b))
	}
}

// Item 1: merge -o onto a FIFO or a device writes into it and leaves the node
// in place.
func TestHarden2_MergeOutSpecialFiles(t *testing.T) {
	dir, merged := mergedDir(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	_, e, code := cli("merge", dir, "-o", fifo)
	if code != 0 {
		t.Errorf("merge -o FIFO: exit %d, %s", code, e)
		// Unblock the reader of a FIFO the merge did not open.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
	}
	select {
	case b := <-got:
		if code == 0 && !bytes.Equal(b, merged) {
			t.Errorf("the FIFO's reader got %q, want the merged table", clipBytes(b))
		}
	case <-time.After(5 * time.Minute): // a hang, not a slow machine
		t.Error("the FIFO's reader got nothing in 5 minutes")
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("merge -o replaced the FIFO by a regular file")
	}
	// A private /dev/null (needs root to create): it stays a device.
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, int(1<<8|3)); err == nil {
		lbsimOK(t, "merge", dir, "-o", null)
		if st, err := os.Lstat(null); err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("merge -o replaced the device node %s by a regular file", null)
		}
	}
}

// Item 2: merge -o never writes over a shard file, of this sweep or another.
func TestHarden2_MergeOutShard(t *testing.T) {
	dir, _ := mergedDir(t)
	shard0 := filepath.Join(dir, "shard-0-of-3.csv")
	before, _ := os.ReadFile(shard0)
	copyDir := t.TempDir()
	elsewhere := filepath.Join(copyDir, "results.csv") // a shard file under another name
	os.WriteFile(elsewhere, before, 0o644)
	for _, o := range []string{shard0, elsewhere} {
		e := lbsimFails(t, "merge", dir, "-o", o)
		if !strings.Contains(e, "shard file") || strings.Count(strings.TrimSpace(e), "\n") > 0 {
			t.Errorf("merge -o %s: %q; want one line saying it is a shard file", o, e)
		}
		if b, _ := os.ReadFile(o); !bytes.Equal(b, before) {
			t.Errorf("merge -o overwrote the shard file %s", o)
		}
	}
	// The resume after it still finds the shard complete.
	if _, e := lbsimOK(t, sweepArgs("-shard", "0/3", "-out", dir, "-quiet")...); !strings.Contains(e, "skipping shard 0/3") {
		t.Errorf("after merge -o onto it, the shard is not complete: %s", e)
	}
}

// Item 3: a shard name that is a dangling symlink is refused before the
// shard is computed, with the fix.
func TestHarden2_DanglingShardSymlink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "shard-1-of-3.csv")
	os.Symlink(filepath.Join(dir, "gone.csv"), link)
	var progress bytes.Buffer
	code := mainWithArgs(sweepArgs("-shard", "1/3", "-out", dir), io.Discard, &progress)
	e := progress.String()
	if code == 0 || !strings.Contains(e, "symlink") || strings.Contains(e, "already exists") {
		t.Errorf("sweep into a dangling shard symlink: exit %d, %q; want an error naming the symlink, before computing", code, e)
	}
	if strings.Contains(e, "shard 1/3: 1/") || strings.Contains(e, "configurations]") {
		t.Errorf("the shard was computed before the symlink was refused: %q", e)
	}
}

// Item 3: resubmitting a complete sweep writes nothing into the folder (so a
// read-only folder stops at once): no lock file is created.
func TestHarden2_CompleteSweepWritesNothing(t *testing.T) {
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

// Item 4: a trace read from a pipe is read once, and its sweep id follows
// its bytes: two different piped traces never share an id.
func TestHarden2_PipedTraceIdentity(t *testing.T) {
	bin := buildLbsim(t)
	ids := map[string]string{}
	for _, trace := range []string{"arrival,size\n0,1\n0.5,2\n1.5,1\n", "arrival,size\n0,3\n0.5,2\n1.5,1\n"} {
		out := t.TempDir()
		cmd := exec.Command(bin, "sweep", "-trace", "/dev/stdin", "-servers", "2", "-shard", "0/1", "-out", out, "-quiet")
		cmd.Stdin = strings.NewReader(trace)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sweep -trace /dev/stdin: %v\n%s", err, b)
		}
		f, _ := os.ReadFile(filepath.Join(out, "shard-0-of-1.csv"))
		ids[sweepID(t, string(f))] = trace
	}
	if len(ids) != 2 {
		t.Errorf("two different piped traces got one sweep id")
	}
}

var sweepIDPattern = regexp.MustCompile(`sweep[ =]([0-9a-f]{12})`)

func sweepID(t *testing.T, text string) string {
	t.Helper()
	m := sweepIDPattern.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no sweep id in %q", clipBytes([]byte(text)))
	}
	return m[1]
}

// specSweepID is the output of `lbsim sweep -spec FILE -id` for a spec file
// holding spec.
func specSweepID(t *testing.T, spec string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, e, code := cli("sweep", "-spec", path, "-id")
	if code != 0 {
		t.Fatalf("sweep -spec %s: %s", spec, e)
	}
	return strings.TrimSpace(out)
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
func TestHarden2_SlurmIdentityAgrees(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.csv")
	os.WriteFile(trace, []byte("0,1\n0.5,2\n1.5,1\n2,1\n"), 0o644)
	for _, tc := range []struct {
		name  string
		sweep []string
	}{
		{"plain", []string{"-servers", "4", "-jobs", "2000", "-load", "0.3,0.6"}},
		{"ramp flag", []string{"-servers", "4", "-jobs", "2000", "-arrivals", "ramp:from=0.2,to=0.6,over=500"}},
		{"ramp spec", []string{"-spec", writeTemp(t, `{"servers":[4],"jobs":2000,"arrivals":"ramp:from=0.2,to=0.6,over=500"}`)}},
		{"precision", []string{"-servers", "4", "-jobs", "2000", "-precision", "0.2", "-max-jobs", "40000", "-reps", "2"}},
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
func TestHarden2_SlurmPercentOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "100%_done")
	script, _ := lbsimOK(t, "slurm", "-shards", "2", "-out", out, "-servers", "4", "-jobs", "1000", "-load", "0.3,0.6")
	if want := `#SBATCH --output="` + strings.ReplaceAll(out, "%", "%%") + `/slurm-%A_%a.out"`; !strings.Contains(script, want) {
		t.Errorf("script lacks %s:\n%s", want, script)
	}
}

// Item 9: slurm refuses more shards than configurations and flags it would
// drop, carries -quiet to the tasks, and takes its sweep id from -bin.
func TestHarden2_SlurmFlags(t *testing.T) {
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

// failAfter accepts n writes, then fails every write.
type failAfter struct {
	n      int
	writes int
}

func (w *failAfter) Write(p []byte) (int, error) {
	if w.writes++; w.writes > w.n {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// Item 12: a sweep streams its rows: when the output fails, the sweep stops
// at once instead of computing the remaining configurations first, and says
// how far it got.
func TestHarden2_SweepStreams(t *testing.T) {
	loads := make([]string, 40)
	for i := range loads {
		loads[i] = fmt.Sprintf("%.3f", 0.2+0.01*float64(i))
	}
	args := []string{"sweep", "-servers", "4", "-jobs", "200000", "-workers", "1", "-load", strings.Join(loads, ","), "-quiet"}
	for _, n := range []int{0, 1} { // the header fails; the first row fails
		var errb bytes.Buffer
		code := mainWithArgs(args, &failAfter{n: n}, &errb)
		m := regexp.MustCompile(`after (\d+) of 40 configurations`).FindStringSubmatch(errb.String())
		if code == 0 || !strings.Contains(errb.String(), "disk full") || m == nil {
			t.Fatalf("sweep into an output failing after %d writes: exit %d, %q", n, code, errb.String())
		}
		if m[1] != "0" {
			t.Errorf("the sweep wrote %s of 40 rows into an output failing after %d writes (the header is the first)", m[1], n)
		}
	}
}

// Item 17: -jobs N with a trace replays N jobs, also when N is the flag's
// default value.
func TestHarden2_TraceJobsDefault(t *testing.T) {
	var b strings.Builder
	b.WriteString("arrival,size\n")
	for i := range 2_000_010 {
		fmt.Fprintf(&b, "%d,1\n", i)
	}
	trace := filepath.Join(t.TempDir(), "long.csv")
	os.WriteFile(trace, []byte(b.String()), 0o644)
	out, _ := lbsimOK(t, "run", "-trace", trace, "-servers", "2", "-jobs", "2000000", "-json")
	if !strings.Contains(out, `"jobs":2000000,`) {
		t.Errorf("-jobs 2000000 with a trace of 2000010 jobs: %s", clipBytes([]byte(out)))
	}
	out, _ = lbsimOK(t, "run", "-trace", trace, "-servers", "2", "-json")
	if !strings.Contains(out, `"jobs":2000010,`) {
		t.Errorf("no -jobs with a trace of 2000010 jobs: %s", clipBytes([]byte(out)))
	}
}

// Item 22: a trace's run reports the trace's offered load, and flags the
// trace replaces are refused.
func TestHarden2_TraceLoad(t *testing.T) {
	// 5 jobs of mean size 2 over 4 time units on 2 servers: lambda = 4/4
	// (4 gaps), rho = 1 x 2 / 2 = 1 ... use sizes of mean 1: rho = 0.5.
	trace := filepath.Join(t.TempDir(), "t.csv")
	os.WriteFile(trace, []byte("0,1\n1,0.5\n2,1.5\n3,1\n4,1\n"), 0o644)
	out, _ := lbsimOK(t, "run", "-trace", trace, "-servers", "2", "-json")
	if !strings.Contains(out, `"load":0.5,`) {
		t.Errorf("trace load: %s", clipBytes([]byte(out)))
	}
	for _, f := range [][]string{{"-load", "0.7"}, {"-sizes", "exp:mean=1"}, {"-arrivals", "det"}} {
		e := lbsimFails(t, append([]string{"run", "-trace", trace}, f...)...)
		if !strings.Contains(e, f[0]) || !strings.Contains(e, "-trace") {
			t.Errorf("run -trace %v: %q; want an error naming %s", f, e, f[0])
		}
	}
}

// Item 23: merge -o errors say what is wrong and what to do.
func TestHarden2_MergeOutMessages(t *testing.T) {
	dir, _ := mergedDir(t)
	for _, tc := range []struct{ out, mention string }{
		{t.TempDir(), "is a folder"},
		{filepath.Join(t.TempDir(), "absent", "x.csv"), "does not exist"},
		{fullDevice(t), "no space left"},
	} {
		e := lbsimFails(t, "merge", dir, "-o", tc.out)
		if !strings.Contains(e, tc.mention) || strings.Contains(e, ".tmp-") || strings.Count(strings.TrimSpace(e), "\n") > 0 {
			t.Errorf("merge -o %s: %q; want one line saying %q", tc.out, e, tc.mention)
		}
	}
}

// fullDevice is a private /dev/full (a device whose writes fail with ENOSPC),
// so that a test of the old code could not replace the real one.
func fullDevice(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "full")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(1<<8|7)); err != nil {
		t.Skip("cannot make a device node (needs root):", err)
	}
	return p
}

func clipBytes(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// Item 13: files lbsim reads are bounded: a FIFO or /dev/zero as the spec, a
// FIFO as a shard file, /dev/zero as the trace, each an error at once (they
// blocked forever or ran out of memory).
func TestHarden2_BoundedReaders(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "spec.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	shards := filepath.Join(dir, "shards")
	os.Mkdir(shards, 0o755)
	syscall.Mkfifo(filepath.Join(shards, "shard-0-of-1.csv"), 0o644)
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"sweep", "-spec", fifo, "-id"}, "not a regular file"},
		{[]string{"sweep", "-spec", "/dev/zero", "-id"}, "not a regular file"},
		{[]string{"merge", shards}, "not a regular file"},
		{[]string{"sweep", "-trace", "/dev/zero", "-id"}, "longer than 1 MiB"},
	} {
		done := make(chan string, 1)
		go func() { _, e, _ := cli(tc.args...); done <- e }()
		select {
		case e := <-done:
			if !strings.Contains(e, tc.mention) {
				t.Errorf("lbsim %s: %q; want an error saying %q", strings.Join(tc.args, " "), e, tc.mention)
			}
		case <-time.After(5 * time.Minute): // a hang, not a slow machine
			t.Fatalf("lbsim %s blocks", strings.Join(tc.args, " "))
		}
	}
}
