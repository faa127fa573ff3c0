package nb

import (
	"fmt"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"

	"github.com/perfeval/lbsim/lbsim/plots"
)

// frontEnd is where output goes: the GoNB kernel. Tests replace it.
//
// GoNB receives display data through a pipe, asynchronously: a cell whose
// program exits right after showing its figure can end before the kernel has
// read it, and the figure is missing from the saved notebook and the report
// (seen in a CI run). So every display that is a result goes through
// showHTML or showPNG, which wait for the kernel's acknowledgement (sync:
// gonbui.Sync, one round trip through the pipe), and a function that ends
// with in-place updates (a progress bar's last line, the explorer's views)
// syncs before it returns; the updates in between do not wait.
var frontEnd = struct {
	isNotebook  bool
	displayHTML func(html string)
	updateHTML  func(id, html string)
	displayPNG  func(png []byte)
	sync        func()
}{
	isNotebook:  gonbui.IsNotebook,
	displayHTML: gonbui.DisplayHTML,
	updateHTML:  gonbui.UpdateHTML,
	displayPNG:  gonbui.DisplayPng,
	sync:        gonbui.Sync,
}

// showHTML displays html as a result: it has reached the kernel on return.
func showHTML(html string) { frontEnd.displayHTML(html); frontEnd.sync() }

// showPNG displays a PNG image as a result: it has reached the kernel on return.
func showPNG(png []byte) { frontEnd.displayPNG(png); frontEnd.sync() }

// PNG displays a PNG image (e.g. a gonum/plot figure of your own, written
// with WriterTo(w, h, "png")) under the cell, as Figure does: it has reached
// the notebook when PNG returns, so a cell that ends right after it keeps it
// (gonbui.DisplayPNG alone can lose it, see frontEnd).
func PNG(png []byte) { showPNG(png) }

// showFigure renders fig at its size (plots.PNG) and displays it; as a PNG
// it survives export to HTML and PDF reports. Defects the figure lint finds
// (plots.Lint: overlapping or clipped texts, say in a figure too small for
// its labels) are noted under it, so they do not pass unseen.
func showFigure(fig plots.Figure) error {
	png, err := plots.PNG(fig)
	if err != nil {
		return err
	}
	showPNG(png)
	noteDefects(plots.Lint(fig))
	return nil
}

// showGrid displays figs side by side, cols panels per row (plots.GridPNG),
// with the defects of plots.LintGrid noted under them.
func showGrid(figs []plots.Figure, cols int) error {
	png, err := plots.GridPNG(figs, cols)
	if err != nil {
		return err
	}
	showPNG(png)
	noteDefects(plots.LintGrid(figs, cols))
	return nil
}

// noteDefects notes the figure lint's defects, if any (its error is the
// figure's own, which rendering has already reported).
func noteDefects(defects []plots.Defect, err error) {
	if err != nil || len(defects) == 0 {
		return
	}
	lines := make([]string, len(defects))
	for i, d := range defects {
		lines[i] = d.String()
	}
	showNote(fmt.Sprintf("figure lint (plots.Lint): %d defects; a larger WidthCm/HeightCm or shorter names help:\n%s", len(defects), strings.Join(lines, "\n")))
}
