package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDispatchersFlags: lbsim run -dispatchers M -dispatcher-weights
// reports M and the messages per job in its JSON (JSQ-2 live: 2d = 4), and
// a weight count that is not M is a one-line error.
func TestDispatchersFlags(t *testing.T) {
	out, e, code := cli("run", "-json", "-servers", "10", "-policy", "jsq:d=2", "-sizes", "exp:mean=1", "-load", "0.8",
		"-jobs", "20000", "-dispatchers", "3", "-dispatcher-weights", "2,1,1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatal(err)
	}
	if obj["dispatchers"] != 3.0 || obj["messages_per_job"] != 4.0 {
		t.Errorf("dispatchers %v, messages_per_job %v; want 3 and 4", obj["dispatchers"], obj["messages_per_job"])
	}
	_, e, code = cli("run", "-dispatchers", "3", "-dispatcher-weights", "2,1", "-jobs", "1000")
	if code != 2 || !strings.Contains(e, "2 values given for M=3 dispatchers") || strings.Count(strings.TrimSpace(e), "\n") > 0 {
		t.Errorf("2 weights for 3 dispatchers: exit %d, %q", code, e)
	}
}

// TestDispatchersSpec: "dispatchers", "dispatcher_weights" and "stagger"
// in a sweep spec change the sweep id and reach the batch script's command
// line (spec to flags to spec gives the same id); one dispatcher keeps the
// id of old.
func TestDispatchersSpec(t *testing.T) {
	dir := t.TempDir()
	id := func(spec string) string { return specSweepID(t, spec) }
	const many = `{"servers":[4],"jobs":2000,"policy":["jsq:d=2"],"refresh":[5],"dispatchers":2,"dispatcher_weights":[2,1],"stagger":true}`
	plain, one, m := id(`{"servers":[4],"jobs":2000}`), id(`{"servers":[4],"jobs":2000,"dispatchers":1}`), id(many)
	if plain == m || plain != one {
		t.Errorf("sweep ids: plain %s, one dispatcher %s, two %s: want plain = one != two", plain, one, m)
	}
	path := filepath.Join(dir, "spec.json")
	os.WriteFile(path, []byte(many), 0o644)
	script, e, code := cli("slurm", "-spec", path, "-shards", "1", "-out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatal(e)
	}
	task := scriptCommand(t, script, "0/1", filepath.Join(dir, "task"))
	if again, e, _ := cli(append(task, "-id")...); strings.TrimSpace(again) != m {
		t.Errorf("the task's command line %q gives %q (%s), the spec %q", task, again, e, m)
	}
}
