package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A trace is identified by its contents, not by how its path is written.
func TestSpecIdentifiesTraceByContents(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "trace.csv")
	os.WriteFile(abs, []byte("arrival_time,size\n0.5,1\n1.25,2\n"), 0o644)
	t.Chdir(dir)
	id := func(path string) string {
		out, _ := lbsimOK(t, "sweep", "-trace", path, "-servers", "2", "-id")
		return out
	}
	first := id(abs)
	if !strings.HasPrefix(first, "sweep ") || first != id("trace.csv") {
		t.Errorf("relative and absolute paths of one trace give different sweep ids: %q, %q", first, id("trace.csv"))
	}
	os.WriteFile(abs, []byte("arrival_time,size\n0.5,1\n1.25,3\n"), 0o644)
	if first == id(abs) {
		t.Error("a changed trace keeps the sweep id")
	}
	if e := lbsimFails(t, "sweep", "-trace", filepath.Join(dir, "absent.csv"), "-id"); !strings.Contains(e, "absent.csv") {
		t.Errorf("a missing trace: %q", e)
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
