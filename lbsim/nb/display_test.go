package nb

import (
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
	ShowTable(df, "Mean waits")
	if len(r.shown) != 1 || !strings.Contains(r.shown[0], "Mean waits</caption>") || !strings.Contains(r.shown[0], ">0.3333</td>") {
		t.Errorf("ShowTable sent %q", r.shown)
	}
	fig := plots.Figure{Series: []plots.Series{{Name: "RND", X: []float64{0.1, 0.5}, Y: []float64{0.1, 1}}}}
	if err := ShowFigure(fig); err != nil {
		t.Fatal(err)
	}
	if err := ShowGrid([]plots.Figure{fig, fig}, 2); err != nil {
		t.Fatal(err)
	}
	if r.pngs != 2 {
		t.Errorf("%d PNGs displayed, want 2", r.pngs)
	}
	bad := plots.Figure{Series: []plots.Series{{Name: "RND", X: []float64{1}}}}
	if err := ShowFigure(bad); err == nil || !strings.Contains(err.Error(), `series "RND"`) {
		t.Errorf("ShowFigure of a bad figure: %v", err)
	}
	if err := ShowGrid([]plots.Figure{fig}, 0); err == nil {
		t.Error("ShowGrid with 0 columns gave no error")
	}
	if r.pngs != 2 {
		t.Errorf("a failed figure was displayed (%d PNGs)", r.pngs)
	}
}
