package nb

import (
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// SweepValid notes the skipped configurations once per sweep, not on every
// call (a later cell reading the cache repeats none of it).
func TestSweepValidNotesOnce(t *testing.T) {
	r := fakeNotebook(t)
	t.Setenv("LBSIM_NO_CACHE", "1")
	t.Setenv("GONB_TMP_DIR", t.TempDir())
	g := lbsim.Grid{
		Base:     lbsim.Config{Servers: 4, Sizes: lbsim.Exponential{M: 1}, Jobs: 2000, Reps: 2, Seed: 3},
		Policies: []lbsim.Policy{lbsim.Random{}, lbsim.SITA{C: 9}},
		Loads:    []float64{0.3, 0.6},
	}
	for range 3 {
		if _, _, err := SweepValid("once", g); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(strings.Join(r.shown, ""), "skipped 2 invalid configuration(s) of 4"); n != 1 {
		t.Errorf("three calls of one sweep noted its skipped configurations %d times, want 1", n)
	}
	// A later program run of the same GoNB session (a later cell) notes nothing either.
	notedNotes.Clear()
	r.shown = nil
	SweepValid("once", g)
	if len(r.shown) != 0 {
		t.Errorf("a later cell of the session noted again: %q", r.shown)
	}
}

// A message shown in a notebook names Config fields, not command-line flags.
func TestNotebookMessagesNameFields(t *testing.T) {
	r := fakeNotebook(t)
	bad := lbsim.Config{Servers: 4, Load: 1.2, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{}, Jobs: 100}
	err := bad.Validate()
	if err == nil || !strings.Contains(err.Error(), "-overload") {
		t.Fatalf("the library's message names the flag: %v", err)
	}
	if !catchStop(t, func() { Must(err) }) {
		t.Fatal("Must did not stop")
	}
	box := strings.Join(r.shown, "")
	if !strings.Contains(box, "AllowOverload: true") || strings.Contains(box, "-overload") {
		t.Errorf("the error box names the flag, not the field: %q", box)
	}
	r.shown = nil
	type point struct {
		Load     float64        `json:"load"`
		Warnings lbsim.Warnings `json:"warnings"`
	}
	Table([]point{{0.9, lbsim.Warnings{{Rule: "correlated-batches", Message: "use several replications (-reps 5) or a warm-up (-warmup auto)"}}}}, "t")
	table := strings.Join(r.shown, "")
	if !strings.Contains(table, "Reps: 5") || !strings.Contains(table, "WarmupAuto: true") || strings.Contains(table, "-reps") {
		t.Errorf("the table's warnings name flags: %q", table)
	}
}

// RunAllValid runs the configurations of a list that lbsim accepts, in
// order, and skips the others with their reasons, noted once as SweepValid
// notes a grid's; a list of none valid is an error.
func TestRunAllValid(t *testing.T) {
	r := fakeNotebook(t)
	t.Setenv("LBSIM_NO_CACHE", "1")
	t.Setenv("GONB_TMP_DIR", t.TempDir())
	base := lbsim.Config{Servers: 4, Sizes: lbsim.Exponential{M: 1}, Jobs: 2000, Reps: 2, Seed: 3}
	at := func(p lbsim.Policy, rho float64) lbsim.Config {
		c := base
		c.Policy, c.Load = p, rho
		return c
	}
	cfgs := []lbsim.Config{at(lbsim.Random{}, 0.3), at(lbsim.SITA{C: 9}, 0.3), at(lbsim.Random{}, 0.6), at(lbsim.Random{}, 1.2)}
	want, err := RunAll("valid ones", []lbsim.Config{cfgs[0], cfgs[2]})
	if err != nil {
		t.Fatal(err)
	}
	r.shown = nil
	for range 2 {
		rows, skipped, err := RunAllValid("list", cfgs)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0].Load != 0.3 || rows[1].Load != 0.6 || rows[1].MeanWait != want[1].MeanWait {
			t.Fatalf("rows %v: want RND at 0.3 and 0.6, as RunAll of those two gives", rows)
		}
		if len(skipped) != 2 || !strings.HasPrefix(skipped[0].Error(), "configuration 2 (sita:c=9") || !strings.HasPrefix(skipped[1].Error(), "configuration 4 (rnd, K=4, load 1.2") {
			t.Fatalf("skipped %v: want configurations 2 (SITA-9 on 4 servers) and 4 (load 1.2)", skipped)
		}
	}
	note := strings.Join(r.shown, "")
	if n := strings.Count(note, "list: skipped 2 invalid configuration(s) of 4"); n != 1 {
		t.Errorf("two calls noted the skipped configurations %d times, want 1: %q", n, note)
	}
	if !strings.Contains(note, "configuration 4 (rnd") || !strings.Contains(note, "AllowOverload") {
		t.Errorf("the note does not give the reasons, with Config fields: %q", note)
	}
	if _, skipped, err := RunAllValid("none", cfgs[3:]); err == nil || len(skipped) != 1 || !strings.Contains(err.Error(), "every one of the 1 configurations is invalid") {
		t.Errorf("no valid configuration: %v, %v", skipped, err)
	}
}
