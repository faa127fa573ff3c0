package nbrun

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

// Report is the set of files made from one executed notebook, all in one folder and each
// self-contained (see [selfContain]):
//
//   - NAME.html, the report view: markdown, outputs, figures and tables, no code;
//   - NAME-code.html, the whole notebook with its code;
//   - NAME.pdf, the report view printed by Chromium;
//   - when the notebook has cells tagged [SolutionTag], the students' files (see [Students]):
//     NAME-students.ipynb, NAME-students.html, NAME-students-code.html, NAME-students.pdf.
//
// The JSON form is an entry of the index's manifest (see [WriteIndex]).
type Report struct {
	Name string `json:"name"` // the notebook's file name without .ipynb
	// View, Full and PDF are absolute paths (in the manifest, relative to the index's folder).
	View string `json:"view"`
	Full string `json:"full"`
	PDF  string `json:"pdf"`
	// Students are the students' files, nil when the notebook has no solution cell.
	Students *Students `json:"students,omitempty"`
	Summary
	// Run is how the notebook ran, as [Execute] recorded it in the executed notebook: quick or
	// not, results from the cache, compute time (see runlog).
	Run runlog.Summary `json:"run"`
}

// Summary is what the index shows of a report, read from its report view.
type Summary struct {
	// Title is the text of the first level-1 heading; TitleLead the part before its first
	// formula (the words that a PDF's text holds).
	Title     string `json:"title"`
	TitleLead string `json:"title_lead"`
	// TitleHTML, QuestionHTML and AnswerHTML are HTML fragments copied from the report view,
	// math as inline SVG (see [summarize] for how the cells are found).
	TitleHTML    string `json:"title_html"`
	QuestionHTML string `json:"question_html"`
	AnswerHTML   string `json:"answer_html"`
	// MathCSS is MathJax's style sheet, which the copied formulas need.
	MathCSS string `json:"math_css"`
	// Figures counts the embedded PNG figures.
	Figures int `json:"figures"`
}

// Publish writes the report files of the executed notebook executedNb into outDir, named after
// name (see [Report]), and reads the summary from the report view. `make reports` (through
// cmd/nbreports) and the notebook tests both use it. The three files are replaced as one
// (files.Batch), under the folder's lock (lockFolder): a failure at any step (a full disk,
// Chromium failing) leaves the previous report's files whole, never a mixed set.
func Publish(executedNb, outDir, name string) (*Report, error) {
	dir, err := filepath.Abs(outDir)
	if err != nil {
		return nil, err
	}
	r := &Report{Name: name,
		View: filepath.Join(dir, name+".html"),
		Full: filepath.Join(dir, name+"-code.html"),
		PDF:  filepath.Join(dir, name+".pdf")}
	if r.Run, err = readRun(executedNb); err != nil {
		return nil, err
	}
	// One export and one typesetting pass for every page: the view is the page without code,
	// the students' pages are the same without the solution cells.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, files.Describe(err, "creating the report folder", dir)
	}
	doc, err := export(executedNb, filepath.Join(dir, "."+name+".typeset"))
	if err != nil {
		return nil, err
	}
	executed, err := os.ReadFile(executedNb)
	if err != nil {
		return nil, err
	}
	handout, withSolutions, err := studentsNotebook(handoutSource(executed, executedNb))
	if err != nil {
		return nil, err
	}
	full, err := renderHTML(doc)
	if err != nil {
		return nil, err
	}
	var sdoc *html.Node
	var studentsFull, studentsView []byte
	if withSolutions {
		r.Students = &Students{
			Notebook: filepath.Join(dir, name+"-students.ipynb"),
			View:     filepath.Join(dir, name+"-students.html"),
			Full:     filepath.Join(dir, name+"-students-code.html"),
			PDF:      filepath.Join(dir, name+"-students.pdf")}
		sdoc = clone(doc)
		removeSolutions(sdoc)
		if studentsFull, err = renderHTML(sdoc); err != nil {
			return nil, err
		}
		hideCode(sdoc)
		if studentsView, err = renderHTML(sdoc); err != nil {
			return nil, err
		}
	}
	hideCode(doc)
	view, err := renderHTML(doc)
	if err != nil {
		return nil, err
	}
	var set files.Batch
	defer set.Discard()
	if _, err := set.Write(r.Full, full); err != nil {
		return nil, err
	}
	viewTmp, err := set.Write(r.View, view)
	if err != nil {
		return nil, err
	}
	type printJob struct {
		view         []byte
		viewTmp, pdf string
		pdfTmp       string // "" when the PDF printed from the same view before is reused
	}
	prints := []printJob{{view: view, viewTmp: viewTmp, pdf: r.PDF}}
	if s := r.Students; s != nil {
		if _, err := set.Write(s.Notebook, handout); err != nil {
			return nil, err
		}
		if _, err := set.Write(s.Full, studentsFull); err != nil {
			return nil, err
		}
		sviewTmp, err := set.Write(s.View, studentsView)
		if err != nil {
			return nil, err
		}
		prints = append(prints, printJob{view: studentsView, viewTmp: sviewTmp, pdf: s.PDF})
	}
	for i, p := range prints {
		if old, ok := printedBefore(p.pdf, p.view); ok {
			if _, err := set.Write(p.pdf, old); err != nil {
				return nil, err
			}
			continue
		}
		if prints[i].pdfTmp, err = set.Reserve(p.pdf); err != nil {
			return nil, err
		}
	}
	// The PDFs print at once, each in a page of its own in the one browser.
	errs := make([]error, len(prints))
	var wg sync.WaitGroup
	for i, p := range prints {
		if p.pdfTmp != "" {
			wg.Go(func() { errs[i] = PrintPDF(p.viewTmp, p.pdfTmp) })
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	unlock, err := lockFolder(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := set.Commit(); err != nil {
		return nil, err
	}
	for _, p := range prints {
		if p.pdfTmp != "" {
			recordPrint(p.pdf, p.view)
		}
	}
	if r.Students == nil {
		// A notebook that no longer has solution cells: its old students' files would be stale.
		for _, suffix := range []string{"-students.ipynb", "-students.html", "-students-code.html", "-students.pdf"} {
			_ = os.Remove(filepath.Join(dir, name+suffix))
		}
		_ = os.Remove(printRecordPath(filepath.Join(dir, name+"-students.pdf")))
	}
	if r.Summary, err = summarize(view); err != nil {
		return r, fmt.Errorf("report %s: %w", r.View, err)
	}
	return r, nil
}

// summarize reads a report view's title, question and answer. The notebooks state them in
// markdown cells (the package doc, "The index"):
//
//   - the title is the first level-1 heading;
//   - the question is the first markdown cell with a bold lead "Question" (**Question.** or
//     **Question** (...)), shown without its title heading;
//   - the answer is the last markdown cell that opens with a heading "Answer..." or
//     "Conclusion..." (shown without that heading) or with a bold lead "Answer".
//
// A missing title or question is an error that says how to mark it. A missing answer is not
// (an interactive notebook such as the explorer asks and lets the reader answer): AnswerHTML
// is empty, the index says so, and TestNotebooks requires an answer of every other notebook.
func summarize(page []byte) (Summary, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return Summary{}, err
	}
	var s Summary
	for _, st := range findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Style }) {
		if st.FirstChild == nil {
			continue
		}
		if css := st.FirstChild.Data; strings.Contains(css, "MathJax_SVG") || strings.Contains(css, "MJX_Assistive_MathML") {
			s.MathCSS += css + "\n"
		}
	}
	s.Figures = len(findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Img && strings.HasPrefix(attr(n, "src"), "data:image/png;base64,")
	}))
	var cells []*html.Node
	for _, c := range findAll(doc, func(n *html.Node) bool { return hasClass(n, "jp-MarkdownCell") }) {
		if md := find(c, func(n *html.Node) bool { return hasClass(n, "jp-RenderedMarkdown") }); md != nil {
			cells = append(cells, md)
		}
	}
	var problems []string
	if h1 := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.H1 }); h1 != nil {
		s.TitleHTML = inner(h1, nil)
		s.Title = strings.Join(strings.Fields(textOf(withoutAnchors(h1))), " ")
		lead := withoutAnchors(h1)
		if m := find(lead, func(n *html.Node) bool { return hasClass(n, "MathJax_SVG") }); m != nil {
			for n := m; n != nil; {
				next := n.NextSibling
				n.Parent.RemoveChild(n)
				n = next
			}
		}
		s.TitleLead = strings.Join(strings.Fields(textOf(lead)), " ")
	} else {
		problems = append(problems, "no title: start the first markdown cell with a level-1 heading (# Title)")
	}
	for _, c := range cells {
		if boldLead(c, "Question") {
			s.QuestionHTML = inner(c, func(n *html.Node) bool { return n.DataAtom == atom.H1 })
			break
		}
	}
	if s.QuestionHTML == "" {
		problems = append(problems, "no question: write it in a markdown cell that starts a paragraph with **Question.**")
	}
	for i := len(cells) - 1; i >= 0 && s.AnswerHTML == ""; i-- {
		c := cells[i]
		first := firstElement(c)
		if first == nil {
			continue
		}
		switch {
		case isHeading(first) && hasPrefixFold(headingText(first), "Answer", "Conclusion"):
			s.AnswerHTML = inner(c, func(n *html.Node) bool { return n == first })
		case boldLead(c, "Answer"):
			s.AnswerHTML = inner(c, nil)
		}
	}
	if len(problems) > 0 {
		return s, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return s, nil
}

// boldLead tells whether a paragraph of the cell starts with bold text beginning with word.
func boldLead(cell *html.Node, word string) bool {
	for _, p := range findAll(cell, func(n *html.Node) bool { return n.DataAtom == atom.P }) {
		if f := firstElement(p); f != nil && f.DataAtom == atom.Strong && strings.TrimSpace(textBefore(p, f)) == "" &&
			hasPrefixFold(strings.TrimSpace(textOf(f)), word) {
			return true
		}
	}
	return false
}

// textBefore is the text of p's children before child.
func textBefore(p, child *html.Node) string {
	var b strings.Builder
	for c := p.FirstChild; c != nil && c != child; c = c.NextSibling {
		b.WriteString(textOf(c))
	}
	return b.String()
}

func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func isHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4:
		return true
	}
	return false
}

// headingText is a heading's text without nbconvert's "¶" anchor link.
func headingText(h *html.Node) string {
	return strings.TrimSpace(textOf(withoutAnchors(h)))
}

func hasPrefixFold(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

// withoutAnchors returns a deep copy of n without nbconvert's anchor links (the "¶" after
// every heading).
func withoutAnchors(n *html.Node) *html.Node {
	c := clone(n)
	for _, a := range findAll(c, func(x *html.Node) bool { return hasClass(x, "anchor-link") }) {
		if a.Parent != nil { // the copy's root itself is kept: inner skips it
			a.Parent.RemoveChild(a)
		}
	}
	return c
}

// inner renders the children of n, without anchor links and without the children for which
// skip is true, as an HTML fragment.
func inner(n *html.Node, skip func(*html.Node) bool) string {
	var b bytes.Buffer
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasClass(c, "anchor-link") || (skip != nil && skip(c)) {
			continue
		}
		_ = html.Render(&b, withoutAnchors(c))
	}
	return strings.TrimSpace(b.String())
}

// clone returns a deep copy of n, detached from its tree.
func clone(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace,
		Attr: append([]html.Attribute(nil), n.Attr...)}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.AppendChild(clone(k))
	}
	return c
}

// Check runs every check on a report's files:
//
//   - the report view shows figures that decode, no error text, and renders to a non-blank
//     screenshot written to screenshotPath ([CheckReport]);
//   - the report view shows no code, the page with code does;
//   - both pages pass [CheckOffline] in a folder outside the repository with the network closed;
//   - the PDF holds every figure once, has no blank page and starts with the title ([CheckPDF]);
//   - the students' files, when there are any, likewise (their pages need not show code).
func (r *Report) Check(screenshotPath string) error {
	figs, err := CheckReport(r.View, screenshotPath)
	if err != nil {
		return err
	}
	const none, some, either = 0, 1, 2 // code cells wanted on a page
	type page struct {
		path       string
		code, figs int
	}
	pages := []page{{r.View, none, len(figs)}, {r.Full, some, len(figs)}}
	studentFigs := 0
	if s := r.Students; s != nil {
		// The students' pages lack the solution cells' figures; their page with code may
		// have none when every code cell is a solution.
		data, err := os.ReadFile(s.View)
		if err != nil {
			return err
		}
		sum, _ := summarize(data)
		studentFigs = sum.Figures
		pages = append(pages, page{s.View, none, studentFigs}, page{s.Full, either, studentFigs})
	}
	for _, page := range pages {
		data, err := os.ReadFile(page.path)
		if err != nil {
			return err
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return err
		}
		code := len(findAll(doc, func(n *html.Node) bool { return hasClass(n, "jp-CodeCell") && find(n, isCodeInput) != nil }))
		if page.code != either && (page.code == some) != (code > 0) {
			return fmt.Errorf("%s shows code in %d cells, want %s", page.path, code, map[bool]string{true: "code", false: "none"}[page.code == some])
		}
		if _, err := CheckOffline(page.path, page.figs, false); err != nil {
			return err
		}
	}
	if _, err = CheckPDF(r.PDF, len(figs), r.TitleLead); err != nil {
		return err
	}
	if s := r.Students; s != nil {
		_, err = CheckPDF(s.PDF, studentFigs, r.TitleLead)
	}
	return err
}

// isCodeInput tells nbconvert's code input area (the editor block of a code cell).
func isCodeInput(n *html.Node) bool { return hasClass(n, "jp-InputArea") }
