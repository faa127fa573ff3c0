package nb

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/perfeval/lbsim/lbsim/plots"
)

// Issue 25 item 26: GoNB reads display data asynchronously, so a cell that
// ends right after a display can lose it (a report with "no figure"). Every
// display of nb that is a result is followed by a sync (the kernel's
// acknowledgement) before it returns; before, Explorer.Show's static views
// were not.
func TestHarden2_DisplaysSynced(t *testing.T) {
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	fig := plots.Figure{Title: "t", Series: []plots.Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1, 4}}}}
	for _, tc := range []struct {
		name     string
		notebook bool
		show     func()
	}{
		{"Figure", true, func() { Figure(fig) }},
		{"Grid", true, func() { Grid([]plots.Figure{fig, fig}, 2) }},
		{"Table", true, func() { Table([]struct{ A int }{{1}}, "t") }},
		{"Note", true, func() { Note("n") }},
		{"PNG", true, func() { PNG(pngBytes.Bytes()) }},
		{"Explorer static", false, func() {
			if e := testExplorer(); e.Show() != nil {
				t.Error(e.Show())
			}
		}},
	} {
		r := fakeNotebook(t)
		frontEnd.isNotebook = tc.notebook
		tc.show()
		r.mu.Lock()
		ev := r.events
		r.mu.Unlock()
		if len(ev) == 0 || len(ev) == 1 && ev[0] == "sync" {
			t.Errorf("%s displayed nothing: %v", tc.name, ev)
			continue
		}
		if ev[len(ev)-1] != "sync" {
			t.Errorf("%s returned with its display not synced: front-end calls %v", tc.name, ev)
		}
	}
}
