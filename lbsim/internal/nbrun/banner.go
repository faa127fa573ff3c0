package nbrun

import (
	"errors"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// QuickBanner opens every page of a quick run's report, and so the first page of its PDF: a
// page mailed alone must not pass rough numbers for results. A run is quick when its programs
// ran in quick mode (nb.Quick with LBSIM_QUICK=1, logged in the run log): a notebook that reads
// no quick setting (the explorer) is not shortened by LBSIM_QUICK=1 and gets no banner.
const QuickBanner = "Quick run (LBSIM_QUICK=1): shortened runs, rough numbers"

// bannerStyle is inline: the page's style sheets are pruned to the rules the export uses
// (pruneStyles) before the banner is added.
const bannerStyle = "margin: 0 0 12px; padding: 8px 12px; border: 1px solid #d9a400; border-radius: 4px; " +
	"background: #fff4cc; color: #4a3800; font: bold 14px/1.4 sans-serif; break-inside: avoid;"

// addQuickBanner puts the quick-run banner first in the page's body.
func addQuickBanner(doc *html.Node) error {
	body := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Body })
	if body == nil {
		return errors.New("no <body> for the quick-run banner")
	}
	div := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div, Attr: []html.Attribute{
		{Key: "class", Val: "lbsim-quick-banner"}, {Key: "role", Val: "note"}, {Key: "style", Val: bannerStyle}}}
	div.AppendChild(&html.Node{Type: html.TextNode, Data: QuickBanner})
	body.InsertBefore(div, body.FirstChild)
	return nil
}
