package nb

import (
	"github.com/janpfeifer/gonb/gonbui"

	"github.com/perfeval/lbsim/lbsim/plots"
)

// frontEnd is where output goes: the GoNB kernel. Tests replace it.
//
// GoNB receives display data through a pipe, asynchronously: a cell whose
// program exits right after showing its figure can end before the kernel has
// read it, and the figure is missing from the saved notebook and the report
// (seen in a CI run). So every display that is a result waits for the
// kernel's acknowledgement (gonbui.Sync, one round trip through the pipe);
// in-place updates of a progress bar do not, its final line does.
var frontEnd = struct {
	isNotebook  bool
	displayHTML func(html string)
	updateHTML  func(id, html string)
	displayPNG  func(png []byte)
	sync        func()
}{
	isNotebook:  gonbui.IsNotebook,
	displayHTML: func(html string) { gonbui.DisplayHTML(html); gonbui.Sync() },
	updateHTML:  gonbui.UpdateHTML,
	displayPNG:  func(png []byte) { gonbui.DisplayPng(png); gonbui.Sync() },
	sync:        gonbui.Sync,
}

// showFigure renders fig at its size (plots.PNG) and displays it; as a PNG
// it survives export to HTML and PDF reports.
func showFigure(fig plots.Figure) error {
	png, err := plots.PNG(fig)
	if err != nil {
		return err
	}
	frontEnd.displayPNG(png)
	return nil
}

// showGrid displays figs side by side, cols panels per row (plots.GridPNG).
func showGrid(figs []plots.Figure, cols int) error {
	png, err := plots.GridPNG(figs, cols)
	if err != nil {
		return err
	}
	frontEnd.displayPNG(png)
	return nil
}
