package nbrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

// The quick-run banner (issue 22, item 5) on every report of a quick run, and on none of a full run.
func init() { reportChecks = append(reportChecks, checkBanner) }

// bannerText is the banner the issue asks for, word for word.
const bannerText = "Quick run (LBSIM_QUICK=1): shortened runs, rough numbers"

// testQuick tells whether TestNotebooks runs the notebooks quick: it sets LBSIM_QUICK=1 unless
// the caller set LBSIM_QUICK.
func testQuick() bool {
	v, set := os.LookupEnv("LBSIM_QUICK")
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return !set
}

// noQuickVersion lists the notebooks that read no quick setting (nb.Quick, nb.Int, ...): the
// explorer runs the same small simulations either way, so its report is not shortened and says
// nothing of a quick run.
var noQuickVersion = map[string]bool{"08-explorer": true}

// checkBanner checks that in a quick run both HTML pages open with the banner (the first text
// of the page, before the title) and that the PDF's first page shows it; in a full run, or for
// a notebook without a quick version, no page shows it.
func checkBanner(t *testing.T, _ string, r *Report, pdf PDF) {
	checkBannerIs(t, r, pdf, testQuick() && !noQuickVersion[r.Name])
}

func checkBannerIs(t *testing.T, r *Report, pdf PDF, quick bool) {
	t.Helper()
	for _, page := range []string{r.View, r.Full} {
		text, _ := pageText(t, page)
		text = strings.Join(strings.Fields(text), " ")
		switch {
		case quick && !strings.HasPrefix(text, bannerText):
			t.Errorf("%s (quick run) does not open with the banner %q; it opens with %q", page, bannerText, clip(text, 120))
		case !quick && strings.Contains(text, bannerText):
			t.Errorf("%s (full run) shows the quick-run banner", page)
		}
	}
	first := strings.Join(strings.Fields(pdf.Text[0]), " ")
	all := strings.Join(strings.Fields(strings.Join(pdf.Text, " ")), " ")
	switch {
	case quick && !strings.Contains(first, bannerText):
		t.Errorf("%s (quick run): page 1 does not show the banner %q:\n%s", r.PDF, bannerText, clip(first, 300))
	case !quick && strings.Contains(all, bannerText):
		t.Errorf("%s (full run) shows the quick-run banner", r.PDF)
	}
}

// TestQuickBanner publishes one notebook as a quick run and as a full run (the run [Execute]
// records in the notebook's metadata): the quick pages and PDF open with the banner, the full
// ones show none.
func TestQuickBanner(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	for _, quick := range []bool{true, false} {
		dir := t.TempDir()
		nb := smallNotebook(t, dir, "**Answer.** Yes.")
		if err := writeRun(nb, runlog.Summary{Quick: quick, Results: 2, FromCache: 1}, ""); err != nil {
			t.Fatal(err)
		}
		r, err := Publish(nb, filepath.Join(dir, "r"), "small")
		if err != nil {
			t.Fatal(err)
		}
		if r.Run.Quick != quick || r.Run.Results != 2 || r.Run.FromCache != 1 {
			t.Errorf("quick %v: Report.Run = %+v, want the recorded run", quick, r.Run)
		}
		pdf, err := ReadPDF(r.PDF)
		if err != nil {
			t.Fatal(err)
		}
		checkBannerIs(t, r, pdf, quick)
		if err := r.Check(filepath.Join(dir, "small.png")); err != nil {
			t.Error(err)
		}
	}
}
