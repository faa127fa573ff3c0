package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestControlVariatesFlag: lbsim run -control-variates reports its
// controls in ci_method, and refuses a ramp with a one-line reason.
func TestControlVariatesFlag(t *testing.T) {
	args := []string{"run", "-json", "-servers", "4", "-policy", "rr", "-sizes", "exp:mean=1", "-load", "0.9", "-jobs", "100000"}
	out, e, code := cli(append(args, "-control-variates")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatal(err)
	}
	if m, want := obj["ci_method"], "20 batch means, control variates (sizes, arrivals, sizes²)"; m != want {
		t.Errorf("ci_method %q, want %q", m, want)
	}
	_, e, code = cli("run", "-control-variates", "-arrivals", "ramp:from=0.2,to=0.6,over=500", "-jobs", "1000")
	if code != 2 || !strings.Contains(e, "control variates need arrivals of known mean rate") || strings.Count(strings.TrimSpace(e), "\n") > 0 {
		t.Errorf("a ramp with -control-variates: exit %d, %q", code, e)
	}
}

// TestControlVariatesSpec: "control_variates" in a sweep spec changes
// the sweep id, reaches the batch script's command line (spec to flags to
// spec gives the same id), and a spec without it keeps its old id (the key
// is omitted from the canonical form).
func TestControlVariatesSpec(t *testing.T) {
	dir := t.TempDir()
	id := func(spec string) string { return specSweepID(t, spec) }
	plain, cv := id(`{"servers":[4],"jobs":2000}`), id(`{"servers":[4],"jobs":2000,"control_variates":true}`)
	if plain == cv {
		t.Errorf("control_variates does not change the sweep id %s", cv)
	}
	path := filepath.Join(dir, "spec.json")
	os.WriteFile(path, []byte(`{"servers":[4],"jobs":2000,"control_variates":true}`), 0o644)
	script, e, code := cli("slurm", "-spec", path, "-shards", "1", "-out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatal(e)
	}
	task := scriptCommand(t, script, "0/1", filepath.Join(dir, "task"))
	if !strings.Contains(strings.Join(task, " "), "-control-variates") {
		t.Errorf("the task's command line lacks -control-variates: %q", task)
	}
	if again, e, _ := cli(append(task, "-id")...); strings.TrimSpace(again) != cv {
		t.Errorf("the task's command line gives %q (%s), the spec %q", again, e, cv)
	}
}
