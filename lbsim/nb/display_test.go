package nb

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/frame"
	"github.com/perfeval/lbsim/lbsim/plots"
)

func TestDisplays(t *testing.T) {
	r := fakeNotebook(t)
	df, err := frame.FromStructs([]struct {
		Policy string
		W      float64
	}{{"RND", 1.0 / 3}, {"RR", 2}})
	if err != nil {
		t.Fatal(err)
	}
	Table(df, "Mean waits", Digits(2))
	if len(r.shown) != 1 || !strings.Contains(r.shown[0], "Mean waits</caption>") || !strings.Contains(r.shown[0], ">0.33</td>") {
		t.Errorf("Table sent %q", r.shown)
	}
	fig := plots.Figure{Series: []plots.Series{{Name: "RND", X: []float64{0.1, 0.5}, Y: []float64{0.1, 1}}}}
	Figure(fig)
	Grid([]plots.Figure{fig, fig}, 2)
	if r.pngs != 2 {
		t.Errorf("%d PNGs displayed, want 2", r.pngs)
	}
	// A figure sized by its fields: 20 x 5 cm at plots.DPI.
	fig.WidthCm, fig.HeightCm = 20, 5
	Figure(fig)
	if w, h := r.lastPNGSize(t); w != 1181 || h != 295 {
		t.Errorf("a 20 x 5 cm figure is %d x %d pixels, want 1181 x 295 (20 and 5 cm at 150 dpi)", w, h)
	}
	// A figure too small for its labels: its defects are noted under it.
	shown := len(r.shown)
	tiny := fig
	tiny.Title, tiny.WidthCm, tiny.HeightCm = "Mean waiting time", 3, 2.5
	Figure(tiny)
	if len(r.shown) != shown+1 || !strings.Contains(r.shown[shown], "figure lint (plots.Lint)") || !strings.Contains(r.shown[shown], "Mean waiting time") {
		t.Errorf("a 3 x 2.5 cm figure showed no lint note: %q", r.shown[shown:])
	}
	bad := plots.Figure{Series: []plots.Series{{Name: "RND", X: []float64{1}}}}
	if !catchStop(t, func() { Figure(bad) }) || !strings.Contains(r.shown[len(r.shown)-1], `series &#34;RND&#34;`) {
		t.Errorf("a bad figure did not stop with an error box: %q", r.shown)
	}
	if !catchStop(t, func() { Grid([]plots.Figure{fig}, 0) }) {
		t.Error("Grid with 0 columns did not stop")
	}
	if r.pngs != 4 {
		t.Errorf("a failed figure was displayed (%d PNGs)", r.pngs)
	}
}

// Issue 25 item 26: GoNB reads display data asynchronously, so a cell that
// ends right after a display can lose it (a report with "no figure"). Every
// display of nb that is a result is followed by a sync (the kernel's
// acknowledgement) before it returns; before, Explorer.Show's static views
// were not.
func TestDisplaysSynced(t *testing.T) {
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
