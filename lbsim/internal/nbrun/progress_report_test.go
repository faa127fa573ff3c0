package nbrun

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Reports do not depend on the cache (issue 22, item 4): no progress line in any saved output.
func init() { reportChecks = append(reportChecks, checkNoProgress) }

// progressLine is what nb.Progress draws: "label: 30/30 (100%) steps in 1.1s" when done,
// "label 12/30 (40%), elapsed 0.4s, about 0.6s left" while running.
var progressLine = regexp.MustCompile(`\d+/\d+ \(\d+%\)|steps in \d|, elapsed \d`)

// checkNoProgress fails when a report page or its PDF shows a progress line or keeps a
// progress bar's element (class lbsim-progress): it is there when a result was computed and
// not when it came from the cache.
func checkNoProgress(t *testing.T, _ string, r *Report, pdf PDF) {
	for _, page := range []string{r.View, r.Full} {
		text, raw := pageText(t, page)
		if m := progressLine.FindStringIndex(text); m != nil {
			t.Errorf("%s shows a progress line: %q", page, lineAt(text, m[0]))
		}
		if bytes.Contains(raw, []byte("lbsim-progress")) {
			t.Errorf("%s keeps a progress bar's element (class lbsim-progress)", page)
		}
	}
	all := strings.Join(pdf.Text, "\n")
	if m := progressLine.FindStringIndex(all); m != nil {
		t.Errorf("%s shows a progress line: %q", r.PDF, lineAt(all, m[0]))
	}
}

// pageText returns the visible text of an HTML page's body (no script or style) and its bytes.
func pageText(t *testing.T, path string) (string, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	body := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Body })
	if body == nil {
		t.Fatalf("%s has no <body>", path)
	}
	return textOf(body), raw
}

// lineAt is the line of s that holds byte k, trimmed.
func lineAt(s string, k int) string {
	end := strings.IndexByte(s[k:], '\n')
	if end < 0 {
		end = len(s) - k
	}
	return strings.TrimSpace(s[lineStart(s, k) : k+end])
}
