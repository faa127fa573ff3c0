package nbrun

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// PrintPDF prints the HTML page htmlPath to pdfPath with headless Chromium: A4 (the page's
// @page rule, see printCSS), no header or footer, backgrounds printed (as Chromium's own
// --print-to-pdf does), figures and tables kept whole.
func PrintPDF(htmlPath, pdfPath string) error {
	src, err := filepath.Abs(htmlPath)
	if err != nil {
		return err
	}
	dst, err := filepath.Abs(pdfPath)
	if err != nil {
		return err
	}
	_ = os.Remove(dst) // a stale PDF must not pass for a new one
	err = onPage(fileURL(src), pageSize{}, func(p *rod.Page) error {
		pdf, err := p.PDF(&proto.PagePrintToPDF{PrintBackground: true, PreferCSSPageSize: true})
		if err != nil {
			return err
		}
		data, err := io.ReadAll(pdf)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("printing %s to PDF: %w", htmlPath, err)
	}
	return checkPDFEnd(dst)
}

// checkPDFEnd checks that the file at path ends as a PDF does, with %%EOF: a PDF cut short (a
// stream ended early, a write that failed unnoticed) must not pass for a report.
func checkPDFEnd(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("chromium wrote no PDF %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	tail := make([]byte, min(st.Size(), 1024))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil {
		return fmt.Errorf("reading the PDF %s: %w", path, err)
	}
	if !bytes.Contains(tail, []byte("%%EOF")) {
		return fmt.Errorf("the PDF %s that chromium wrote is cut short (%d bytes, no %%%%EOF at its end): is the disk full?", path, st.Size())
	}
	return nil
}

// PDF is what poppler's tools read from a PDF file.
type PDF struct {
	Pages  int
	Images []int    // images drawn on each page (soft masks not counted)
	Text   []string // text of each page
}

// ReadPDF reads a PDF with pdfinfo, pdfimages and pdftotext (Debian's poppler-utils).
func ReadPDF(path string) (PDF, error) {
	info, err := poppler("pdfinfo", path)
	if err != nil {
		return PDF{}, err
	}
	var p PDF
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			p.Pages, err = strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return PDF{}, fmt.Errorf("pdfinfo %s: Pages %q: %w", path, v, err)
			}
		}
	}
	if p.Pages <= 0 {
		return PDF{}, fmt.Errorf("pdfinfo %s: no pages", path)
	}
	list, err := poppler("pdfimages", "-list", path)
	if err != nil {
		return PDF{}, err
	}
	p.Images = make([]int, p.Pages)
	// Two header lines, then "page num type width height ...".
	for _, line := range strings.Split(list, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[2] != "image" {
			continue
		}
		page, err := strconv.Atoi(f[0])
		if err != nil || page < 1 || page > p.Pages {
			return PDF{}, fmt.Errorf("pdfimages -list %s: bad line %q", path, line)
		}
		p.Images[page-1]++
	}
	text, err := poppler("pdftotext", "-layout", path, "-")
	if err != nil {
		return PDF{}, err
	}
	// pdftotext ends every page with a form feed.
	p.Text = strings.Split(text, "\f")[:p.Pages]
	return p, nil
}

func poppler(tool string, args ...string) (string, error) {
	bin := "/usr/bin/" + tool
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's poppler-utils)", bin)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s", tool, strings.Join(args, " "), err, tail(errOut.String(), 10))
	}
	return out.String(), nil
}

// CheckPDF checks a report's PDF against its HTML page: it opens (pdfinfo), holds each of the
// page's figures exactly once (a figure cut by a page break is drawn on two pages and counts
// twice; a lost one counts zero), no page is blank, and the first page starts with the title.
func CheckPDF(pdfPath string, figures int, title string) (PDF, error) {
	p, err := ReadPDF(pdfPath)
	if err != nil {
		return p, err
	}
	var errs []string
	total := 0
	for i := range p.Pages {
		total += p.Images[i]
		if p.Images[i] == 0 && strings.TrimSpace(p.Text[i]) == "" {
			errs = append(errs, fmt.Sprintf("page %d of %d is blank", i+1, p.Pages))
		}
	}
	if total != figures {
		errs = append(errs, fmt.Sprintf("%d images drawn on its pages %v, want the page's %d figures once each", total, p.Images, figures))
	}
	if first := strings.Join(strings.Fields(p.Text[0]), " "); !strings.Contains(first, title) {
		errs = append(errs, fmt.Sprintf("page 1 does not show the title %q:\n%s", title, clip(first, 300)))
	}
	if len(errs) > 0 {
		return p, fmt.Errorf("PDF %s: %s", pdfPath, strings.Join(errs, "; "))
	}
	return p, nil
}
