package nbrun

import (
	"strings"
	"testing"
)

// pruneCSS keeps exactly the rules a page with the given classes can use.
func TestPruneCSS(t *testing.T) {
	css := `/* a comment with a { brace */
@charset "utf-8";
:root { --jp-size: 13px; }
body, .jp-Dialog { margin: 0 }
.jp-Cell .jp-InputArea { color: red }
.jp-Menu > .lm-Item { color: blue }
p:not(.jp-Menu) { color: green }
a[href$=".pdf"] { color: gray }
.jp-Cell:is(.jp-Menu, .jp-Other) { top: 0 }
div::after { content: "}" }
.sm\:wide { width: 1px }
.jp-Cell-empty, .jp-Cell {}
@media print { .jp-Cell { break-inside: avoid } .lm-Widget { display: none } }
@media screen { .lm-Widget { display: none } }
@font-face { font-family: X; src: local(X) }
@keyframes spin { from { transform: rotate(0) } to { transform: rotate(1turn) } }`
	page := map[string]bool{"jp-Cell": true, "jp-InputArea": true}
	got := pruneCSS(css, func(c string) bool { return page[c] })
	for _, want := range []string{
		`@charset "utf-8";`, ":root{", "body{", ".jp-Cell .jp-InputArea{", "p:not(.jp-Menu){",
		`a[href$=".pdf"]{`, ".jp-Cell:is(.jp-Menu, .jp-Other){", `div::after{ content: "}" }`, `.sm\:wide{`, ".jp-Cell{}",
		"@media print{", ".jp-Cell{ break-inside: avoid }", "@font-face{", "@keyframes spin{ from { transform: rotate(0) }",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("pruned CSS lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"comment", "jp-Dialog", "jp-Menu >", "lm-Item", "lm-Widget", "@media screen"} {
		if strings.Contains(got, gone) {
			t.Errorf("pruned CSS keeps %q:\n%s", gone, got)
		}
	}
}
