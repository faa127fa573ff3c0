package nbrun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/perfeval/lbsim/lbsim/nb"
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

// TestProgressClass: the export drops the outputs that nb.Progress marks.
func TestProgressClass(t *testing.T) {
	if progressClass != nb.ProgressClass {
		t.Errorf("nbrun drops outputs of class %q, nb.Progress marks its bars %q", progressClass, nb.ProgressClass)
	}
}

// cacheCheckNotebook is the notebook whose report must not depend on the cache: TestNotebooks
// runs it on a fresh LBSIM_CACHE_DIR (every result computed) and hands that run to
// checkIndependentOfCache.
const cacheCheckNotebook = "01-dispatching"

// checkIndependentOfCache runs the notebook at nbPath a second time with env, the environment
// of its computed run (computed, published as r) whose LBSIM_CACHE_DIR it filled: this run
// reads every result from the cache. Both reports must read the same (text of the report view
// and of the PDF), and the index must tell the runs apart. The computed run is TestNotebooks'
// own, so the notebook computes once (it ran twice, in a test of its own, before).
func checkIndependentOfCache(t *testing.T, nbPath string, env []string, computed *Result, r *Report) {
	if testing.Short() {
		t.Skip("runs the notebook a second time")
	}
	name := strings.TrimSuffix(filepath.Base(nbPath), ".ipynb")
	art := artifactDir(t)
	var texts, pdfs []string
	var index []IndexEntry
	for i, run := range []string{"computed", "cached"} {
		res := computed
		if i == 1 {
			var err error
			res, err = Execute(context.Background(), nbPath, Options{Env: env, Output: filepath.Join(art, name+"-"+run+".ipynb")})
			if err != nil {
				t.Fatal(err)
			}
			if r, err = Publish(res.Executed, filepath.Join(art, run), name); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s run: %v, %s", run, res.Elapsed.Round(time.Second), r.Run)
		switch {
		case r.Run.Results == 0:
			t.Errorf("%s run: no result went through nb.Cached (run log %+v)", run, r.Run)
		case i == 0 && r.Run.FromCache != 0:
			t.Errorf("computed run: %d of %d results from a fresh cache, want 0", r.Run.FromCache, r.Run.Results)
		case i == 1 && r.Run.FromCache != r.Run.Results:
			t.Errorf("cached run: %d of %d results from the cache, want all", r.Run.FromCache, r.Run.Results)
		}
		text, _ := pageText(t, r.View)
		pdf, err := ReadPDF(r.PDF)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Join(strings.Fields(text), " "))
		pdfs = append(pdfs, strings.Join(strings.Fields(strings.Join(pdf.Text, " ")), " "))
		index = append(index, IndexEntry{Notebook: run + "/" + name, Report: r, Elapsed: res.Elapsed, RanAt: time.Now()})
	}
	for what, pair := range map[string][]string{"report view": texts, "PDF": pdfs} {
		if a, b := pair[0], pair[1]; a != b {
			k := 0
			for k < min(len(a), len(b)) && a[k] == b[k] {
				k++
			}
			t.Errorf("the %s of the computed run and of the cached run differ, first at %q vs %q",
				what, clip(a[max(0, k-40):], 160), clip(b[max(0, k-40):], 160))
		}
	}
	indexPath := filepath.Join(art, "cache-index.html")
	if err := WriteIndex(indexPath, index, testQuick()); err != nil {
		t.Fatal(err)
	}
	res, err := CheckOffline(indexPath, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(strings.Fields(res.Text), " ")
	for _, want := range []string{index[0].Report.Run.String(), index[1].Report.Run.String(), "from the cache"} {
		if !strings.Contains(got, want) {
			t.Errorf("index lacks %q:\n%s", want, clip(got, 1500))
		}
	}
}
