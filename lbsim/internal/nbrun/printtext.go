package nbrun

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// printedClass wraps each <pre> of printed output (fitPrinted) with its longest line's length
// in characters (printColsVar); printCSS sets the block's type small enough that this many
// characters fit the text width (down to a floor), so that the lines of a table printed with
// fmt keep their columns on paper; longer lines wrap at spaces only. The wrapper is the size
// container that the type is measured against: the output around a <pre> is a table cell,
// which cannot be one.
const (
	printedClass = "lbsim-printed"
	printColsVar = "--lbsim-cols"
)

// fitPrinted wraps every <pre> of the page's text outputs (stdout, stderr, text/plain) in a
// printedClass element that carries the block's longest line length (printColsVar).
func fitPrinted(doc *html.Node) {
	for _, out := range findAll(doc, func(n *html.Node) bool { return hasClass(n, "jp-RenderedText") }) {
		for _, pre := range findAll(out, func(n *html.Node) bool { return n.DataAtom == atom.Pre }) {
			cols := 0
			for _, line := range strings.Split(textOf(pre), "\n") {
				cols = max(cols, utf8.RuneCountInString(strings.ReplaceAll(line, "\t", "        ")))
			}
			if cols == 0 {
				continue
			}
			wrap := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div, Attr: []html.Attribute{
				{Key: "class", Val: printedClass}, {Key: "style", Val: printColsVar + ":" + strconv.Itoa(cols)}}}
			pre.Parent.InsertBefore(wrap, pre)
			pre.Parent.RemoveChild(pre)
			wrap.AppendChild(pre)
		}
	}
}
