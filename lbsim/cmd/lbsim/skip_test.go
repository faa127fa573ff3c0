package main

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
)

// skipGrid crosses RND and SITA-3 with K = 2 and 8: SITA-3 at K=2 has more
// servers for short jobs than K-1, so 2 of its 8 points are invalid.
var skipGrid = []string{"sweep", "-servers", "2,8", "-sizes", "exp:mean=1", "-policy", "rnd,sita:cut=2,c=3",
	"-load", "0.3,0.6", "-reps", "2", "-jobs", "5000", "-seed", "3", "-quiet"}

// Without -skip-invalid, the error names the grid point and the way out.
func TestSweepInvalidPointNamed(t *testing.T) {
	msg := lbsimFails(t, skipGrid...)
	for _, want := range []string{"configuration 3 (sita:cut=2,c=3, K=2, load 0.3, sizes exp:mean=1)", "skip such points with -skip-invalid"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}
	if n := strings.Count(strings.TrimSpace(msg), "\n"); n != 0 {
		t.Errorf("error has %d lines, want one: %q", n+1, msg)
	}
}

// With -skip-invalid the valid points run, the skipped ones are listed with
// their reasons, and a sharded sweep merges to the unsharded bytes.
func TestSweepSkipInvalid(t *testing.T) {
	args := append(append([]string{}, skipGrid...), "-skip-invalid")
	out, errOut := lbsimOK(t, args...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 1+6 {
		t.Fatalf("%d CSV lines (%v), want a header and 6 rows:\n%s", len(recs), err, out)
	}
	for _, want := range []string{"skipped 2 invalid configuration(s) of 8", "configuration 3 (sita:cut=2,c=3, K=2, load 0.3", "configuration 4 (sita:cut=2,c=3, K=2, load 0.6"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not contain %q", errOut, want)
		}
	}
	for _, n := range []int{1, 4} {
		dir := t.TempDir()
		for i := n - 1; i >= 0; i-- {
			lbsimOK(t, append(append([]string{}, args...), "-shard", fmt.Sprintf("%d/%d", i, n), "-out", dir, "-workers", "1")...)
		}
		if got, _ := lbsimOK(t, "merge", dir); got != out {
			t.Errorf("%d shards merge to\n%s\nwant\n%s", n, got, out)
		}
	}
	// -skip-invalid is part of the sweep: its id differs, and -id agrees with a spec file.
	plain, _ := lbsimOK(t, "sweep", "-servers", "8", "-policy", "rnd", "-jobs", "100", "-id")
	skip, _ := lbsimOK(t, "sweep", "-servers", "8", "-policy", "rnd", "-jobs", "100", "-id", "-skip-invalid")
	if plain == skip {
		t.Errorf("-skip-invalid does not change the sweep id: %s", plain)
	}
}

// Every point invalid: one line saying so, even with -skip-invalid.
func TestSweepAllInvalid(t *testing.T) {
	msg := lbsimFails(t, "sweep", "-servers", "2", "-policy", "sita:cut=2,c=3", "-load", "0.3,0.6", "-jobs", "1000", "-skip-invalid")
	if !strings.Contains(msg, "every one of the 2 configurations is invalid") {
		t.Errorf("error %q", msg)
	}
}
