package nbrun

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// printColsVar is the CSS variable that fitPrinted sets on each <pre> of printed output to its
// longest line's length in characters; printCSS sets such a block's type small enough that
// this many characters fit the text width (down to a floor), so the lines of a table printed
// with fmt keep their columns on paper. Longer lines wrap at spaces only.
const printColsVar = "--lbsim-cols"

// fitPrinted marks every <pre> of the page's text outputs (stdout, stderr, text/plain) with its
// longest line's length (printColsVar).
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
			style := strings.TrimSpace(attr(pre, "style"))
			if style != "" && !strings.HasSuffix(style, ";") {
				style += ";"
			}
			setAttr(pre, "style", style+printColsVar+":"+strconv.Itoa(cols))
		}
	}
}
