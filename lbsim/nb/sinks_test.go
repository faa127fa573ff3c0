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
