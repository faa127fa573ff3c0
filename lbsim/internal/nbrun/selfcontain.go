package nbrun

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// MathJaxDir is Debian's MathJax 2 (package libjs-mathjax, a dependency of jupyter-nbconvert).
// It is used only while a report is made: the report itself carries the typeset math as SVG.
const MathJaxDir = "/usr/share/javascript/mathjax"

// mathJaxSVG is MathJax 2 with TeX input and SVG output. SVG output draws every glyph as a path
// (no web fonts); useGlobalCache=false gives each formula its own glyph definitions, so a
// formula stays whole when it is copied (the index copies questions and answers).
const mathJaxSVG = "TeX-AMS_SVG-full,Safe"

// mathDoneAttr is set on <body> once MathJax has typeset the page (its startup "End" hook runs
// after the first typeset pass; the queue runs our function after nbconvert's own Typeset call).
const mathDoneAttr = "data-lbsim-math"

const mathConfig = `MathJax.Hub.Config({jax: ["input/TeX", "output/SVG"],
  SVG: {useGlobalCache: false, linebreaks: {automatic: true}},
  messageStyle: "none", showMathMenu: false, showProcessingMessages: false});
MathJax.Hub.Register.StartupHook("End", function () {
  MathJax.Hub.Queue(function () { document.body.setAttribute("` + mathDoneAttr + `", "done"); });
});`

// mathTimeout bounds MathJax's typesetting of a page; it takes about a second for a report.
const mathTimeout = time.Minute

// printCSS lays reports out for print (the PDF) and keeps outputs whole on screen and paper: a
// figure, a table or a code block is never cut by a page break, and a heading stays with what
// follows it.
//
// On paper: the report view drops the empty prompt column (hideCode marks it), and a figure
// spans the text width (a wide grid of panels is not shrunk to half a page); printed text wraps at spaces only, never inside a number, and a block whose longest
// line (fitPrinted's lbsim-printed wrapper) is wider than the text width is set smaller, down to 6.5px,
// so that its lines stay whole (0.62 em is a little more than a monospace character's advance,
// 0.60 em in DejaVu and Liberation Mono); an output is not split over two pages, nor a
// paragraph's first or last two lines left alone on one.
//
// On screen: nbconvert lays an output out as a table row (prompt cell, output cell), and a table
// cell grows to its content, so a wide table's scroll wrapper grew with it and the whole output
// scrolled, figures too; a fixed layout (its prompt column as wide as before) keeps the output
// cell to the page, and the wrapper scrolls.
const printCSS = `
.jp-OutputArea-child { table-layout: fixed; width: 100%; }
.jp-OutputArea-child > .jp-OutputPrompt { width: var(--jp-cell-prompt-width, 64px); }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .jp-OutputArea-output, .jp-OutputArea-child, .jp-InputArea, img, svg, table, tr, pre, figure { break-inside: avoid; }
  h1, h2, h3, h4 { break-after: avoid; break-inside: avoid; }
  p, li, pre, .jp-RenderedText { orphans: 3; widows: 3; }
  body[data-lbsim-view] .jp-InputPrompt, body[data-lbsim-view] .jp-OutputPrompt, body[data-lbsim-view] .jp-Collapser { display: none !important; }
  .jp-OutputArea-output img { width: 100% !important; max-height: 250mm; object-fit: contain; height: auto !important; }
  img { max-width: 100% !important; height: auto !important; }
  .jp-OutputArea-output { overflow: visible !important; }
  pre { white-space: pre-wrap !important; overflow-wrap: normal !important; word-break: normal !important; }
  .lbsim-printed { container-type: inline-size; }
  .lbsim-printed > pre {
    font-size: max(6.5px, min(var(--jp-code-font-size, 13px), calc(100cqi / var(--lbsim-cols) / 0.62))) !important;
  }
  /* Wide tables (a dozen columns) fit the A4 text width instead of running off the page. */
  .jp-OutputArea-output { max-width: 100% !important; }
  .jp-OutputArea-output table { font-size: 9px !important; max-width: 100%; }
  .jp-OutputArea-output th, .jp-OutputArea-output td { padding: 2px 4px !important; overflow-wrap: anywhere; }
}
`

// selfContain turns nbconvert's HTML export src into the document of a report that needs
// nothing outside itself: MathJax typesets the math to inline SVG in headless Chromium (no network), the DOM
// after typesetting is kept, and every script is removed (MathJax, RequireJS, the TeX sources);
// a print stylesheet is added. It fails when MathJax did not finish, when a formula has a TeX
// error, or when anything in the result would still be loaded from outside the file ([loads]).
//
// cache, if not "", keeps the typeset page of the last call with that cache (a file beside
// it, named by a hash of the page to typeset, of the tools' versions and of typesetVersion):
// when a notebook's page comes out the same as last time, as it does when its results come
// from the cache, MathJax is not run again (3-4 s of a 1.5 MB report on a busy machine).
func selfContain(src, cache string) (*html.Node, error) {
	if _, err := os.Stat(filepath.Join(MathJaxDir, "MathJax.js")); err != nil {
		return nil, fmt.Errorf("MathJax not found in %s: run .ci/setup.sh (installs Debian's libjs-mathjax)", MathJaxDir)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s does not parse: %w", src, err)
	}
	if err := useSVGMath(doc); err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	// The page to typeset sits beside src: nbconvert's export holds only data URIs and the
	// MathJax script, which is loaded by absolute file:// URL.
	// It is scratch in the caller's temporary folder, not an output: written in place.
	typeset := strings.TrimSuffix(src, ".html") + ".typeset.html"
	page, err := renderHTML(doc)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(typeset, page, 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(typeset)
	dom, cached := typesetCached(cache, page)
	if !cached {
		err = onPage(fileURL(typeset), pageSize{}, func(p *rod.Page) error {
			done, err := waitFor(p, "body["+mathDoneAttr+"=done]", mathTimeout)
			if err != nil || !done {
				return err
			}
			dom, err = evalString(p, "document.documentElement.outerHTML")
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("typesetting math in %s: %w", src, err)
		}
	}
	if dom == "" {
		return nil, fmt.Errorf("MathJax did not finish typesetting %s within %v", src, mathTimeout)
	}
	if doc, err = html.Parse(strings.NewReader(dom)); err != nil {
		return nil, fmt.Errorf("typeset DOM of %s does not parse: %w", src, err)
	}
	body := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Body })
	if body == nil || attr(body, mathDoneAttr) != "done" {
		return nil, fmt.Errorf("the typeset DOM of %s has no <body %s=done>", src, mathDoneAttr)
	}
	if bad := findAll(doc, isMathError); len(bad) > 0 {
		frame := bad[0]
		if !hasClass(frame, "MathJax_SVG") {
			frame = frame.Parent
		}
		return nil, fmt.Errorf("%d formulas have TeX errors (fix them in the notebook's markdown), the first: %q", len(bad), texOf(frame))
	}
	if !cached {
		keepTypeset(cache, page, dom) // a page with TeX errors is not kept: it fails above
	}
	cleanTypeset(doc, body)
	if err := addStyle(doc, printCSS); err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	if outside := loads(doc); len(outside) > 0 {
		return nil, fmt.Errorf("%s would still load %d resources from outside the file, the first: %s", src, len(outside), outside[0])
	}
	return doc, nil
}

// useSVGMath points the page's MathJax script at Debian's MathJax with SVG output, adds the
// configuration before it and drops RequireJS (nbconvert adds it for widgets, which reports do
// not have).
func useSVGMath(doc *html.Node) error {
	scripts := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Script && attr(n, "src") != "" })
	found := false
	for _, s := range scripts {
		src := attr(s, "src")
		switch {
		case strings.Contains(src, "MathJax.js"):
			setAttr(s, "src", fileURL(filepath.Join(MathJaxDir, "MathJax.js"))+"?config="+mathJaxSVG)
			cfg := &html.Node{Type: html.ElementNode, Data: "script", DataAtom: atom.Script,
				Attr: []html.Attribute{{Key: "type", Val: "text/x-mathjax-config"}}}
			cfg.AppendChild(&html.Node{Type: html.TextNode, Data: mathConfig})
			s.Parent.InsertBefore(cfg, s)
			found = true
		case strings.Contains(src, "require"):
			s.Parent.RemoveChild(s)
		}
	}
	if !found {
		return errors.New("no MathJax <script> in the nbconvert export: the template changed; nbrun expects nbconvert's lab template")
	}
	return nil
}

// isMathError tells a formula MathJax 2 could not typeset: a TeX syntax error is shown as its
// source in a span of class noError (the noErrors extension), an undefined macro as its name in
// red (noUndefined), which the formula's MathML records as a red mtext starting with a backslash.
func isMathError(n *html.Node) bool {
	return hasClass(n, "noError") || (hasClass(n, "MathJax_SVG") && strings.Contains(attr(n, "data-mathml"), `<mtext mathcolor="red">\`))
}

// texOf returns a formula's TeX source: MathJax keeps it in the <script type="math/tex">
// right after the formula's frame.
func texOf(frame *html.Node) string {
	for n := frame; n != nil; n = n.NextSibling {
		if n.DataAtom == atom.Script {
			return textOfScript(n)
		}
	}
	return textOf(frame)
}

func textOfScript(n *html.Node) string {
	if n.FirstChild != nil {
		return n.FirstChild.Data
	}
	return ""
}

// cleanTypeset removes what only served typesetting: every script (MathJax's, the
// type="math/tex" TeX sources, RequireJS), MathJax's hidden helper elements and empty
// previews, and the done marker.
func cleanTypeset(doc, body *html.Node) {
	for _, n := range findAll(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return false
		}
		id := attr(n, "id")
		return n.DataAtom == atom.Script || id == "MathJax_Message" || hasClass(n, "MathJax_Preview") ||
			(n.DataAtom == atom.Div && find(n, func(c *html.Node) bool { return attr(c, "id") == "MathJax_SVG_Hidden" }) != nil && n.Parent == body)
	}) {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	removeAttr(body, mathDoneAttr)
	ensureDoctype(doc)
}

// addStyle appends a <style> element with css to the document's <head>.
func addStyle(doc *html.Node, css string) error {
	head := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Head })
	if head == nil {
		return errors.New("no <head>")
	}
	st := &html.Node{Type: html.ElementNode, Data: "style", DataAtom: atom.Style}
	st.AppendChild(&html.Node{Type: html.TextNode, Data: css})
	head.AppendChild(st)
	return nil
}

// cssURL finds url(...) and @import references in CSS.
var cssURL = regexp.MustCompile(`url\(\s*['"]?([^'")]*)|@import\s+['"]([^'"]+)`)

// loads lists what a browser would fetch for the page besides the page itself: src, srcset,
// poster and data attributes, <link href> (style sheets, icons), SVG <use>/<image> href, and
// url()/@import in style elements and attributes. Data URIs and same-document fragments (#id)
// are part of the file and are not listed; <a href> is a link a reader may follow, not a load.
func loads(doc *html.Node) []string {
	var out []string
	add := func(what, u string) {
		u = strings.TrimSpace(u)
		if u == "" || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "#") {
			return
		}
		out = append(out, what+" "+clip(u, 120))
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				key := a.Key
				switch {
				case key == "src" || key == "poster" || (key == "data" && n.Data == "object"):
					add("<"+n.Data+" "+key+">", a.Val)
				case key == "srcset":
					for _, part := range strings.Split(a.Val, ",") {
						if f := strings.Fields(part); len(f) > 0 {
							add("<"+n.Data+" srcset>", f[0])
						}
					}
				case key == "href" && (n.Data == "link" || n.Data == "use" || n.Data == "image"):
					add("<"+n.Data+" href>", a.Val)
				case key == "style":
					for _, m := range cssURL.FindAllStringSubmatch(a.Val, -1) {
						add("style url()", m[1]+m[2])
					}
				}
			}
		}
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.DataAtom == atom.Style {
			for _, m := range cssURL.FindAllStringSubmatch(n.Data, -1) {
				add("<style> url()", m[1]+m[2])
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// writeHTML renders doc to path (files.Replace: a failure keeps the previous file whole).
func writeHTML(path string, doc *html.Node) error {
	data, err := renderHTML(doc)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return files.Describe(err, "creating the folder of", path)
	}
	return files.Replace(path, data, nil)
}

// renderHTML renders doc as a page.
func renderHTML(doc *html.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := html.Render(&buf, doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ensureDoctype adds <!DOCTYPE html> (the typeset page's outerHTML leaves it out), so that the report
// renders in standards mode, as nbconvert's export did.
func ensureDoctype(doc *html.Node) {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.DoctypeNode {
			return
		}
	}
	doc.InsertBefore(&html.Node{Type: html.DoctypeNode, Data: "html"}, doc.FirstChild)
}

// DOM helpers.

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func setAttr(n *html.Node, key, val string) {
	for i := range n.Attr {
		if n.Attr[i].Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}

func removeAttr(n *html.Node, key string) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Key != key {
			kept = append(kept, a)
		}
	}
	n.Attr = kept
}

func hasClass(n *html.Node, class string) bool {
	return n.Type == html.ElementNode && strings.Contains(" "+attr(n, "class")+" ", " "+class+" ")
}

// find returns the first node, in document order, for which match is true, or nil.
func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, match); f != nil {
			return f
		}
	}
	return nil
}

// findAll returns every node for which match is true, in document order, without descending
// into matches.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	if match(n) {
		return []*html.Node{n}
	}
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, findAll(c, match)...)
	}
	return out
}

// textOf returns the text under n, scripts and styles excluded.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
