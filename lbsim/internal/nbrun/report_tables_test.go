package nbrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
)

// Tables in reports keep their columns: on a 1000 px wide page every table fits (its box, or
// the box of the scroll wrapper it sits in) and no row is more than a few lines tall; in the PDF
// no page is mostly one- or two-character lines (a squeezed column prints "RND" as R, N, D).
func init() {
	reportChecks = append(reportChecks, func(t *testing.T, _ string, r *Report, pdf PDF) {
		checkTableLayout(t, r.View)
		checkPDFLines(t, r.PDF, pdf)
	})
}

const (
	// pageWidth is the page width, in CSS px, that every table must fit.
	pageWidth = 1000
	// maxRowLines is the most lines a table row may take: a long text cell may wrap once or twice.
	maxRowLines = 4
	// maxShortLines is the largest share of a PDF page's text lines that may be one or two
	// characters long (a healthy page has a few: a lone digit, a bullet).
	maxShortLines = 0.25
)

// TestReportTables runs the table checks on the reports already in the folder
// $LBSIM_REPORTS (the output of `make reports` or `nbreports -out DIR`), without executing any
// notebook: a quick way to measure the tables of a given build.
func TestReportTables(t *testing.T) {
	dir := os.Getenv("LBSIM_REPORTS")
	if dir == "" {
		t.Skip("set LBSIM_REPORTS to a folder of reports (nbreports -out DIR) to check their tables")
	}
	pdfs, err := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if err != nil || len(pdfs) == 0 {
		t.Fatalf("no reports (*.pdf) in LBSIM_REPORTS=%s: %v", dir, err)
	}
	for _, path := range pdfs {
		stem := strings.TrimSuffix(filepath.Base(path), ".pdf")
		t.Run(stem, func(t *testing.T) {
			pdf, err := ReadPDF(path)
			if err != nil {
				t.Fatal(err)
			}
			checkTableLayout(t, filepath.Join(dir, stem+".html"))
			checkPDFLines(t, path, pdf)
		})
	}
}

// tableBox is what the page's layout gives one table: the right edge of the box that must fit
// the page (the table's, or its scroll wrapper's), and its tallest row in lines of its font.
type tableBox struct {
	Caption  string
	Right    float64
	RowLines float64
	Row      string
}

// measureTables lays every table of the page out and returns its box; the wrapper is the nearest
// ancestor that scrolls horizontally (overflow-x auto or scroll), if any.
const measureTables = `() => [...document.querySelectorAll('table')].map(tb => {
  let box = tb;
  for (let a = tb.parentElement; a && a !== document.body; a = a.parentElement) {
    const o = getComputedStyle(a).overflowX;
    if (o === 'auto' || o === 'scroll') { box = a; break; }
  }
  let lines = 0, row = '';
  for (const tr of tb.rows) {
    const cell = tr.cells[0];
    if (!cell) continue;
    const cs = getComputedStyle(cell);
    const line = cs.lineHeight === 'normal' ? 1.2 * parseFloat(cs.fontSize) : parseFloat(cs.lineHeight);
    const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
    const n = (tr.getBoundingClientRect().height - pad) / line;
    if (n > lines) { lines = n; row = tr.innerText.slice(0, 120); }
  }
  const cap = tb.caption ? tb.caption.innerText : (tb.rows[0] ? tb.rows[0].innerText : '');
  return {Caption: cap.slice(0, 80), Right: box.getBoundingClientRect().right + window.scrollX, RowLines: lines, Row: row};
})`

// printWidth is the text width of the PDF's A4 page in CSS px (210 mm less printCSS's 2 x 12 mm
// margins, at 96 px an inch), where a table cannot scroll.
const printWidth = 186 / 25.4 * 96

// checkTableLayout opens the report page htmlPath in headless Chromium with a pageWidth wide
// viewport and fails for each table whose box runs past the page or whose tallest row takes
// more than maxRowLines lines; then lays it out for print on the A4 text width and fails for
// each table that runs past it (paper does not scroll: its last columns would be cut).
func checkTableLayout(t *testing.T, htmlPath string) {
	t.Helper()
	abs, err := filepath.Abs(htmlPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	page := openBrowser(t, ctx)
	for _, media := range []string{"screen", "print"} {
		width := map[string]float64{"screen": pageWidth, "print": printWidth}[media]
		if err := (proto.EmulationSetDeviceMetricsOverride{Width: int(width), Height: 800, DeviceScaleFactor: 1}).Call(page); err != nil {
			t.Fatal(err)
		}
		if err := (proto.EmulationSetEmulatedMedia{Media: media}).Call(page); err != nil {
			t.Fatal(err)
		}
		if err := page.Navigate(fileURL(abs)); err != nil {
			t.Fatal(err)
		}
		if err := page.WaitLoad(); err != nil {
			t.Fatal(err)
		}
		res, err := page.Eval(measureTables)
		if err != nil {
			t.Fatalf("measuring the tables of %s: %v", htmlPath, err)
		}
		var boxes []tableBox
		if err := res.Value.Unmarshal(&boxes); err != nil {
			t.Fatal(err)
		}
		for _, b := range boxes {
			if b.Right > float64(int(width))+0.5 {
				t.Errorf("%s (%s): table %q runs to %.0f px, past the %.0f px page: let it scroll on screen (overflow-x:auto wrapper), set it smaller in print, or narrow it",
					filepath.Base(htmlPath), media, b.Caption, b.Right, width)
			}
			if media == "screen" && b.RowLines > maxRowLines+0.5 {
				t.Errorf("%s: table %q has a row %.1f lines tall (at most %d on a %d px page): %q",
					filepath.Base(htmlPath), b.Caption, b.RowLines, maxRowLines, pageWidth, b.Row)
			}
		}
		t.Logf("%s: %d tables measured on a %.0f px %s page", filepath.Base(htmlPath), len(boxes), width, media)
	}
}

// checkPDFLines fails for each page of the PDF (text by pdftotext -layout, as ReadPDF reads it)
// whose non-blank lines are more than maxShortLines one or two characters long.
func checkPDFLines(t *testing.T, path string, pdf PDF) {
	t.Helper()
	for i, text := range pdf.Text {
		lines, short := shortLines(text)
		if lines > 0 && float64(short) > maxShortLines*float64(lines) {
			t.Errorf("%s page %d of %d: %d of %d text lines (%.0f%%, at most %.0f%%) are one or two characters: a squeezed table column? (pdftoppm -png -f %d -l %d %s)",
				filepath.Base(path), i+1, pdf.Pages, short, lines, 100*float64(short)/float64(lines), 100*maxShortLines, i+1, i+1, path)
		}
	}
}

// shortLines counts the non-blank lines of text and those with one or two non-space characters.
func shortLines(text string) (lines, short int) {
	for _, line := range strings.Split(text, "\n") {
		chars := utf8.RuneCountInString(strings.Join(strings.Fields(line), ""))
		if chars == 0 {
			continue
		}
		lines++
		if chars <= 2 {
			short++
		}
	}
	return lines, short
}

// TestShortLines checks the count on a squeezed column and on a healthy table.
func TestShortLines(t *testing.T) {
	for _, c := range []struct {
		text         string
		lines, short int
	}{
		{"R\nN\nD\n\n  24.  \n94\npolicy  load  mean\n", 6, 4},
		{"policy  load  mean_wait\nRND  0.5  1.25\n  LL-2 0.9 12.5\n", 3, 0},
		{"", 0, 0},
	} {
		if l, s := shortLines(c.text); l != c.lines || s != c.short {
			t.Errorf("shortLines(%q) = %d, %d; want %d, %d", c.text, l, s, c.lines, c.short)
		}
	}
}
