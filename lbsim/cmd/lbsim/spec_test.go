package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A trace is identified by its contents, not by how its path is written.
func TestSpecIdentifiesTraceByContents(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "trace.csv")
	os.WriteFile(abs, []byte("arrival_time,size\n0.5,1\n1.25,2\n"), 0o644)
	t.Chdir(dir)
	id := func(path string) []byte {
		b, err := sweepSpec{Trace: path, Load: []float64{0.5}}.canonical()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := id(abs)
	if !bytes.Equal(first, id("trace.csv")) {
		t.Error("relative and absolute paths of one trace give different sweep ids")
	}
	os.WriteFile(abs, []byte("arrival_time,size\n0.5,1\n1.25,3\n"), 0o644)
	if bytes.Equal(first, id(abs)) {
		t.Error("a changed trace keeps the sweep id")
	}
	if _, err := (sweepSpec{Trace: filepath.Join(dir, "absent.csv")}).canonical(); err == nil {
		t.Error("a missing trace gives a sweep id")
	}
}
