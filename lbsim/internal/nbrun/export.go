package nbrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// exportTimeout bounds one nbconvert HTML export; it takes well under a second.
const exportTimeout = 5 * time.Minute

// ExportHTML converts the executed notebook executedNb into the HTML page htmlPath (parent
// folders are created) with every cell, code included. The page is self-contained: figures are
// data URIs (nbconvert embeds image/png outputs), math is typeset into inline SVG and no script
// remains (see [selfContain]); it opens offline in any browser.
func ExportHTML(executedNb, htmlPath string) error {
	doc, err := export(executedNb, "")
	if err != nil {
		return err
	}
	return writeHTML(htmlPath, doc)
}

// export runs nbconvert's HTML exporter (lab template) on executedNb and makes the page a
// report (exportFull), then drops the style rules that cannot apply to it (pruneStyles).
// typesetCache, if not "", names the file that keeps the last typeset page (see [selfContain]).
func export(executedNb, typesetCache string) (*html.Node, error) {
	doc, err := exportFull(executedNb, typesetCache)
	if err != nil {
		return nil, err
	}
	pruneStyles(doc)
	return doc, nil
}

// exportFull is export with nbconvert's style sheets whole: the page made self-contained, without
// progress bars (dropProgress), its printed text sized for paper (fitPrinted), and opened by the
// quick-run banner when the run was quick (the run that [Execute] recorded in the notebook).
func exportFull(executedNb, typesetCache string) (*html.Node, error) {
	run, err := readRun(executedNb)
	if err != nil {
		return nil, err
	}
	doc, err := nbconvertHTML(executedNb, typesetCache)
	if err != nil {
		return nil, err
	}
	dropProgress(doc)
	fitPrinted(doc)
	if run.Quick {
		if err := addQuickBanner(doc); err != nil {
			return nil, fmt.Errorf("export %s: %w", executedNb, err)
		}
	}
	return doc, nil
}

// progressClass marks nb.Progress's bars (nb.ProgressClass). A bar clears itself when done,
// but its output stays, and a cell stopped early keeps the bar itself.
const progressClass = "lbsim-progress"

// dropProgress removes every output that holds a progress bar: a report must read the same
// whether a result was computed (with a bar) or came from the cache (without one).
func dropProgress(doc *html.Node) {
	for _, n := range findAll(doc, func(n *html.Node) bool {
		return hasClass(n, "jp-OutputArea-child") && find(n, func(c *html.Node) bool { return hasClass(c, progressClass) }) != nil
	}) {
		n.Parent.RemoveChild(n)
	}
}

// nbconvertHTML is nbconvert's HTML export of executedNb, made self-contained (selfContain).
func nbconvertHTML(executedNb, typesetCache string) (*html.Node, error) {
	src, err := filepath.Abs(executedNb)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", executedNb, err)
	}
	tmp, err := os.MkdirTemp("", "nbrun-export-")
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", executedNb, err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	defer cancel()
	if err := nbconvertExport(ctx, src, filepath.Join(tmp, "export.html")); err != nil {
		return nil, fmt.Errorf("export %s: %w", executedNb, err)
	}
	doc, err := selfContain(filepath.Join(tmp, "export.html"), typesetCache)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", executedNb, err)
	}
	return doc, nil
}

// hideCode removes what nbconvert's --no-input leaves out: the input of every code cell (its
// editor block and In [n] prompt) and the text of the Out[n] prompts. Markdown cells and all outputs stay,
// except those of the module set-up cell (the one with %goworkfix, package nb's "Importing lbsim in a notebook"),
// whose "Added replace rule" line is plumbing, not a result.
func hideCode(doc *html.Node) {
	for _, n := range findAll(doc, func(n *html.Node) bool {
		if hasClass(n, "jp-CodeCell") {
			if in := find(n, isCodeInput); in != nil && strings.Contains(textOf(in), "%goworkfix") {
				return true
			}
		}
		return hasClass(n, "jp-Cell-inputWrapper") && n.Parent != nil && hasClass(n.Parent, "jp-CodeCell")
	}) {
		n.Parent.RemoveChild(n)
	}
	// Out[n] prompts are emptied, not removed: their column keeps outputs aligned with the text.
	for _, p := range findAll(doc, func(n *html.Node) bool { return hasClass(n, "jp-OutputPrompt") }) {
		for p.FirstChild != nil {
			p.RemoveChild(p.FirstChild)
		}
	}
	// On paper the empty prompt column goes (printCSS): text and figures span the page.
	if body := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Body }); body != nil {
		setAttr(body, reportViewAttr, "")
	}
}

// reportViewAttr marks the body of a report view (an attribute, not a class: pruneStyles has
// already kept only the rules whose classes the page had when the view is made from it).
const reportViewAttr = "data-lbsim-view"
