package nb

import (
	"github.com/go-gota/gota/dataframe"
	"github.com/janpfeifer/gonb/gonbui"

	"github.com/perfeval/lbsim/lbsim/frame"
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

// Figure size used by ShowFigure and, per panel, by ShowGrid, in cm.
const (
	FigureWidthCm  = 16
	FigureHeightCm = 10
	PanelWidthCm   = 11
	PanelHeightCm  = 8
)

// ShowTable displays df as an HTML table under the given caption.
func ShowTable(df dataframe.DataFrame, caption string) {
	frontEnd.displayHTML(frame.HTML(df, frame.Caption(caption)))
}

// ShowPNG displays a PNG image, such as one made by plots.PNG.
func ShowPNG(png []byte) {
	frontEnd.displayPNG(png)
}

// ShowFigure renders fig at FigureWidthCm x FigureHeightCm and displays it.
// As a PNG it survives export to HTML and PDF reports.
func ShowFigure(fig plots.Figure) error {
	png, err := plots.PNG(fig, FigureWidthCm, FigureHeightCm)
	if err != nil {
		return err
	}
	ShowPNG(png)
	return nil
}

// ShowGrid displays figs side by side, cols panels per row, each panel
// PanelWidthCm x PanelHeightCm.
func ShowGrid(figs []plots.Figure, cols int) error {
	png, err := plots.GridPNG(figs, cols, PanelWidthCm, PanelHeightCm)
	if err != nil {
		return err
	}
	ShowPNG(png)
	return nil
}
