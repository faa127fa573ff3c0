package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Item 4: a trace read from a pipe is read once, and its sweep id follows
// its bytes: two different piped traces never share an id.
func TestPipedTraceIdentity(t *testing.T) {
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
func TestSweepStreams(t *testing.T) {
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
func TestTraceJobsDefault(t *testing.T) {
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
// trace replaces are refused; -load scales its arrival times (issue 35).
func TestTraceLoad(t *testing.T) {
	// 5 jobs of mean size 2 over 4 time units on 2 servers: lambda = 4/4
	// (4 gaps), rho = 1 x 2 / 2 = 1 ... use sizes of mean 1: rho = 0.5.
	trace := filepath.Join(t.TempDir(), "t.csv")
	os.WriteFile(trace, []byte("0,1\n1,0.5\n2,1.5\n3,1\n4,1\n"), 0o644)
	out, _ := lbsimOK(t, "run", "-trace", trace, "-servers", "2", "-json")
	if !strings.Contains(out, `"load":0.5,`) {
		t.Errorf("trace load: %s", clipBytes([]byte(out)))
	}
	if !strings.Contains(out, `"trace_scale":1,`) {
		t.Errorf("trace at its own load: %s", clipBytes([]byte(out)))
	}
	out, _ = lbsimOK(t, "run", "-trace", trace, "-servers", "2", "-load", "0.25", "-json")
	if !strings.Contains(out, `"load":0.25,`) || !strings.Contains(out, `"trace_scale":2,`) {
		t.Errorf("trace scaled to load 0.25 (its arrival times x2): %s", clipBytes([]byte(out)))
	}
	// A sweep over loads with one trace: a row per load, each scaled.
	out, _ = lbsimOK(t, "sweep", "-trace", trace, "-servers", "2", "-load", "0.1,0.2,0.25,0.4,0.5", "-quiet")
	rows := strings.Split(strings.TrimSpace(out), "\n")
	head := strings.Split(rows[0], ",")
	col := func(name string) int { return slices.Index(head, name) }
	var got []string
	for _, r := range rows[1:] {
		f := strings.Split(r, ",")
		got = append(got, f[col("load")]+"x"+f[col("trace_scale")])
	}
	if want := []string{"0.1x5.0", "0.2x2.5", "0.25x2.0", "0.4x1.25", "0.5x1.0"}; !slices.Equal(got, want) {
		t.Errorf("sweep -trace -load 0.1,...,0.5: load x trace_scale %v, want %v", got, want)
	}
	for _, f := range [][]string{{"-sizes", "exp:mean=1"}, {"-arrivals", "det"}} {
		e := lbsimFails(t, append([]string{"run", "-trace", trace}, f...)...)
		if !strings.Contains(e, f[0]) || !strings.Contains(e, "-trace") {
			t.Errorf("run -trace %v: %q; want an error naming %s", f, e, f[0])
		}
	}
}
