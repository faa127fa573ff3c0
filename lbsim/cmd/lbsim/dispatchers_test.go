package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
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

// TestDispatcherRowsDiffer: the same sweep with private tallies, then with
// staggered boards, then with uneven dispatcher weights, gives rows that
// differ in a setting column (they used to be identical in every one),
// and lbsim.Find names the column that tells them apart.
func TestDispatcherRowsDiffer(t *testing.T) {
	base := []string{"sweep", "-policy", "jsq:d=2", "-servers", "8", "-load", "0.8", "-sizes", "exp:mean=1", "-jobs", "4000",
		"-reps", "2", "-dispatchers", "3", "-refresh", "1", "-tally", "-quiet"}
	var rows [][]string
	var header []string
	for _, extra := range [][]string{nil, {"-stagger"}, {"-dispatcher-weights", "5,1,1"}} {
		out, _ := lbsimOK(t, append(append([]string{}, base...), extra...)...)
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) != 2 {
			t.Fatalf("%v: %d records (%v)", extra, len(recs), err)
		}
		header = recs[0]
		rows = append(rows, recs[1])
	}
	settings := 0
	for _, f := range lbsim.Fields() {
		if f.Result() {
			settings++
		}
	}
	for i := range rows {
		for j := range i {
			if slices.Equal(rows[i][:settings], rows[j][:settings]) {
				t.Errorf("rows %d and %d agree in every setting column %v:\n%v", j, i, header[:settings], rows[i][:settings])
			}
		}
	}
	col := func(name string) int { return slices.Index(header, name) }
	if rows[1][col("stagger")] != "true" || rows[2][col("dispatcher_weights")] != "5,1,1" || rows[0][col("tally")] != "true" {
		t.Errorf("stagger %s, dispatcher_weights %q, tally %s", rows[1][col("stagger")], rows[2][col("dispatcher_weights")], rows[0][col("tally")])
	}
	cfg := lbsim.Config{Policy: lbsim.JSQ{D: 2}, Servers: 8, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Jobs: 4000, Reps: 2,
		Dispatchers: 3, Refresh: 1, Tally: true}
	staggered := cfg
	staggered.Stagger = true
	res, err := lbsim.RunAll([]lbsim.Config{cfg, staggered}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = lbsim.Find(lbsim.Rows(res), "JSQ-2", 0.8)
	if err == nil || !strings.Contains(err.Error(), "with stagger false and true") || !strings.Contains(err.Error(), "r.Stagger == false") {
		t.Errorf("Find on the two rows: %v; want the column stagger named", err)
	}
}

// TestDispatchersSweepAxis: -dispatchers takes a list in a sweep (issue
// 34 item 12: it was "not a whole number"), a row per M with its column,
// the row of M=4 the numbers of lbsim run -dispatchers 4.
func TestDispatchersSweepAxis(t *testing.T) {
	args := []string{"-policy", "jiq", "-servers", "8", "-load", "0.8", "-sizes", "exp:mean=1", "-jobs", "3000"}
	out, _ := lbsimOK(t, append([]string{"sweep", "-quiet", "-dispatchers", "1,4"}, args...)...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records (%v):\n%s", len(recs), err, out)
	}
	col := func(name string) int { return slices.Index(recs[0], name) }
	if recs[1][col("dispatchers")] != "1" || recs[2][col("dispatchers")] != "4" {
		t.Errorf("dispatchers column %q, %q; want 1, 4", recs[1][col("dispatchers")], recs[2][col("dispatchers")])
	}
	js, _ := lbsimOK(t, append([]string{"run", "-json", "-dispatchers", "4"}, args...)...)
	var obj map[string]any
	if err := json.Unmarshal([]byte(js), &obj); err != nil {
		t.Fatal(err)
	}
	var wait float64
	if err := json.Unmarshal([]byte(recs[2][col("mean_wait")]), &wait); err != nil || wait != obj["mean_wait"] {
		t.Errorf("M=4 in the sweep: mean_wait %s; run alone: %v", recs[2][col("mean_wait")], obj["mean_wait"])
	}
}

// jiq:d=3 with one dispatcher is refused, not run as plain JIQ labelled
// JIQ-SQ(3).
func TestJIQOptionsOneDispatcher(t *testing.T) {
	refused(t, "jiq:d=3 has no effect with one dispatcher (M=1)", "run", "-policy", "jiq:d=3", "-jobs", "1000")
	refused(t, "dispatcher weight 2 has no effect with one dispatcher", "run", "-dispatcher-weights", "2", "-jobs", "1000")
}
