package main

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/study/loadmoments"
)

// The files read back (comment line and header skipped) as exactly the generated traces.
func TestWriteReadsBack(t *testing.T) {
	dir := t.TempDir()
	if err := write(dir, 5); err != nil {
		t.Fatal(err)
	}
	for _, g := range loadmoments.Traces(5) {
		want, err := g.Generate()
		if err != nil {
			t.Fatal(err)
		}
		got, err := lbsim.LoadTrace(filepath.Join(dir, g.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Times, want.Times) || !slices.Equal(got.Sizes, want.Sizes) {
			t.Errorf("%s: file differs from the generator", g.Name)
		}
	}
}
