package main

import (
	"os"
	"path/filepath"
	"testing"
)

// -speeds and a spec file take runs COUNT@SPEED; written either way, the
// same servers give the same rows.
func TestSpeedsRuns(t *testing.T) {
	common := []string{"sweep", "-servers", "4", "-load", "0.5", "-sizes", "exp:mean=1", "-policy", "jsq:d=2", "-jobs", "3000"}
	runs, errOut, code := cli(append(common, "-speeds", "2@2,2@1")...)
	if code != 0 {
		t.Fatalf("-speeds 2@2,2@1: exit %d: %s", code, errOut)
	}
	list, _, _ := cli(append(common, "-speeds", "2,2,1,1")...)
	if runs != list {
		t.Errorf("-speeds 2@2,2@1 and 2,2,1,1 differ:\n%s\n%s", runs, list)
	}
	spec := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(spec, []byte(`{"servers": [4], "speeds": "2@2,2@1", "load": [0.5], "sizes": ["exp:mean=1"], "policy": ["jsq:d=2"], "jobs": 3000}`), 0o644)
	fromSpec, errOut, code := cli("sweep", "-spec", spec)
	if code != 0 || fromSpec != runs {
		t.Errorf("spec with \"speeds\": \"2@2,2@1\": exit %d %s\n%s\nwant\n%s", code, errOut, fromSpec, runs)
	}
}
