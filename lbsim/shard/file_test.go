package shard

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCompleteLifecycle(t *testing.T) {
	const m = 12
	header, rows := table(m)
	s := sweepOf(t, "lifecycle", m)
	dir := t.TempDir()
	mustComplete(t, dir, s, 1, 3, false)
	err := Verify(dir, s, 1, 3)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Verify of a missing file = %v, want fs.ErrNotExist", err)
	}
	writeSplit(t, dir, s, 3, header, rows)
	for i := range 3 {
		mustComplete(t, dir, s, i, 3, true)
	}
	// The same directory is not complete for another sweep or split.
	mustComplete(t, dir, sweepOf(t, "another spec", m), 1, 3, false)
	mustComplete(t, dir, Sweep{ID: s.ID, Configs: m + 1}, 1, 3, false)
	mustComplete(t, dir, s, 1, 4, false)
	// A file copied under another shard's name is foreign to that shard.
	copyFile(t, filepath.Join(dir, FileName(0, 3)), filepath.Join(dir, FileName(2, 3)))
	mustComplete(t, dir, s, 2, 3, false)
	if err := Verify(dir, s, 2, 3); err == nil || !strings.Contains(err.Error(), "holds shard 0/3, want 2/3") {
		t.Errorf("Verify of a copied file = %v", err)
	}
}

// No proper prefix of a shard file is complete, and neither is a file with
// one byte changed.
func TestTruncatedOrCorruptIsNotComplete(t *testing.T) {
	const m = 7
	header, rows := table(m)
	s := sweepOf(t, "truncation", m)
	src := t.TempDir()
	writeSplit(t, src, s, 1, header, rows)
	full, err := os.ReadFile(filepath.Join(src, FileName(0, 1)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, FileName(0, 1))
	for k := 0; k < len(full); k++ {
		os.WriteFile(p, full[:k], 0o644)
		if ok, err := Complete(dir, s, 0, 1); ok || err != nil {
			t.Fatalf("prefix of %d of %d bytes: Complete = %v, %v", k, len(full), ok, err)
		}
	}
	body := bytes.Index(full, []byte("\n")) + 1
	for _, k := range []int{body, body + 7, len(full) - 70} {
		bad := bytes.Clone(full)
		bad[k] ^= 0x01
		os.WriteFile(p, bad, 0o644)
		if ok, _ := Complete(dir, s, 0, 1); ok {
			t.Errorf("byte %d flipped: still complete", k)
		}
	}
	os.WriteFile(p, full, 0o644)
	mustComplete(t, dir, s, 0, 1, true)
}

func TestWriteRejectsWrongRows(t *testing.T) {
	const m = 6
	header, rows := table(m)
	s := sweepOf(t, "rows", m)
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		i, n    int
		rows    [][]string
		mention string
	}{
		{"wrong configuration", 0, 2, [][]string{rows[0], rows[1], rows[4]}, "row 1 is configuration 1, want 2"},
		{"missing row", 0, 2, [][]string{rows[0], rows[2]}, "2 rows, want 3"},
		{"short row", 1, 2, [][]string{rows[1], rows[3][:2], rows[5]}, "row 1 has 2 fields, header has 5"},
		{"no index", 0, 1, append([][]string{{"x", "", "", "", ""}}, rows[1:]...), `starts with "x"`},
		{"bad shard", 2, 2, nil, "shard index 2 outside 0..1"},
	} {
		err := Write(dir, s, tc.i, tc.n, header, tc.rows)
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: Write error %v, want one mentioning %q", tc.name, err, tc.mention)
		}
	}
	if err := Write(dir, Sweep{ID: "abc", Configs: m}, 0, 1, header, rows); err == nil || !strings.Contains(err.Error(), "NewSweep") {
		t.Errorf("bad sweep id: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("rejected writes left files: %v", left)
	}
}

const helperEnv = "LBSIM_SHARD_KILLED_WRITER_DIR"

// TestMain lets the test binary act as a shard writer that gets killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		header, rows := bigTable(killedConfigs)
		s, _ := NewSweep([]byte("killed"), killedConfigs)
		if err := Write(dir, s, 0, 1, header, rows); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const killedConfigs = 2_000_000

func bigTable(m int) ([]string, [][]string) {
	rows := make([][]string, m)
	for c := range rows {
		rows[c] = []string{fmt.Sprint(c), "LL-2", "0.95", "1234.5678901234", "0.000123456789"}
	}
	return []string{"config", "policy", "load", "mean_wait", "p99"}, rows
}

// A writer killed in the middle of Write leaves only its temporary file: the
// shard is not complete, Merge ignores the leftover, and rerunning the shard
// completes it.
func TestKilledWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100 MB shard; skipped with -short")
	}
	dir := t.TempDir()
	s := sweepOf(t, "killed", killedConfigs)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tmpGlob := filepath.Join(dir, "."+FileName(0, 1)+".tmp-*")
	deadline := time.Now().Add(5 * time.Minute) // a hang, not a slow machine
	for {
		if tmps, _ := filepath.Glob(tmpGlob); len(tmps) > 0 {
			if st, err := os.Stat(tmps[0]); err == nil && st.Size() > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the writer created no temporary file within 5 minutes")
		}
		time.Sleep(200 * time.Microsecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, FileName(0, 1))); err == nil {
		t.Skip("the writer finished before it could be killed; nothing to test on this machine")
	}
	tmps, _ := filepath.Glob(tmpGlob)
	if len(tmps) != 1 {
		t.Fatalf("leftover temporary files %v, want one", tmps)
	}
	mustComplete(t, dir, s, 0, 1, false)
	if _, _, err := Merge(dir); err == nil || !strings.Contains(err.Error(), "no shard files") {
		t.Errorf("Merge after a killed writer: %v, want 'no shard files'", err)
	}
	header, rows := bigTable(killedConfigs)
	if err := Write(dir, s, 0, 1, header, rows); err != nil {
		t.Fatal(err)
	}
	mustComplete(t, dir, s, 0, 1, true)
	_, got, err := Merge(dir)
	if err != nil || len(got) != killedConfigs {
		t.Errorf("Merge after the rerun: %d rows, %v", len(got), err)
	}
}

func mustComplete(t *testing.T, dir string, s Sweep, i, n int, want bool) {
	t.Helper()
	ok, err := Complete(dir, s, i, n)
	if err != nil {
		t.Fatalf("Complete(%d/%d): %v", i, n, err)
	}
	if ok != want {
		t.Errorf("Complete(%d/%d) = %v, want %v (Verify: %v)", i, n, ok, want, Verify(dir, s, i, n))
	}
}
