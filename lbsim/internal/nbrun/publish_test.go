package nbrun

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// plotPNG returns a w x h PNG with a diagonal line, like a small figure.
func plotPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.White)
		}
	}
	for i := range min(w, h) {
		img.Set(i, h-1-i*h/min(w, h), color.RGBA{200, 0, 0, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// smallNotebook writes an executed-looking notebook (outputs filled in, so nbconvert needs no
// kernel): a title and question with inline and display math, one code cell with a figure and
// an HTML table, and an answer cell.
func smallNotebook(t *testing.T, dir string, answer string) string {
	t.Helper()
	md := func(src string) map[string]any {
		return map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": src}
	}
	code := map[string]any{"cell_type": "code", "metadata": map[string]any{}, "execution_count": 1,
		"source": "fmt.Println(\"the code a reader should not see\")",
		"outputs": []any{
			map[string]any{"output_type": "display_data", "metadata": map[string]any{},
				"data": map[string]any{"image/png": base64.StdEncoding.EncodeToString(plotPNG(t, 600, 400))}},
			map[string]any{"output_type": "display_data", "metadata": map[string]any{},
				"data": map[string]any{"text/html": "<table><tr><th>load</th><th>RND</th></tr><tr><td>0.5</td><td>4.02 ± 0.21</td></tr></table>"}},
		}}
	nb := map[string]any{
		"cells": []any{
			md("# Small $\\alpha$ report\n\n**Question.** Is $\\mathbb E[W] = \\frac{\\rho}{1-\\rho}$ for M/M/1?\n\n$$\\mathbb E[W] = \\frac{\\rho\\, m}{1-\\rho}$$"),
			code,
			md("## Discussion\n\n" + strings.Repeat("A paragraph that a reader sees, long enough to fill a line of the page with words. ", 40)),
			md(answer),
		},
		"metadata":       map[string]any{"kernelspec": map[string]any{"name": "gonb", "display_name": "Go (gonb)", "language": "go"}},
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	data, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "small.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPublish makes the three report files of a small notebook and the index, and runs every
// check on them: the pipeline of `make reports` and TestNotebooks without a kernel.
func TestPublish(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	nb := smallNotebook(t, dir, "## Answer\n\nYes: $W = \\rho/(1-\\rho)$ when $m = 1$.")
	out := filepath.Join(dir, "reports")
	r, err := Publish(nb, out, "small")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(filepath.Join(dir, "small.png")); err != nil {
		t.Fatal(err)
	}
	if r.Title != "Small α report" && !strings.HasPrefix(r.Title, "Small") {
		t.Errorf("Title = %q", r.Title)
	}
	if r.TitleLead != "Small" {
		t.Errorf("TitleLead = %q, want the words before the formula, %q", r.TitleLead, "Small")
	}
	if r.Figures != 1 {
		t.Errorf("Figures = %d, want 1", r.Figures)
	}
	for name, frag := range map[string]string{"question": r.QuestionHTML, "answer": r.AnswerHTML} {
		if !strings.Contains(frag, "<svg") || strings.Contains(frag, "$") || strings.Contains(frag, "<script") {
			t.Errorf("%s: want typeset SVG math, no TeX, no script:\n%s", name, clip(frag, 500))
		}
	}
	if !strings.Contains(r.QuestionHTML, "<strong>Question.</strong>") || strings.Contains(r.QuestionHTML, "<h1") {
		t.Errorf("question fragment should hold the question without the title:\n%s", clip(r.QuestionHTML, 500))
	}
	if strings.Contains(r.AnswerHTML, ">Answer") || !strings.Contains(r.AnswerHTML, "Yes:") {
		t.Errorf("answer fragment should hold the answer without its heading:\n%s", clip(r.AnswerHTML, 500))
	}
	view, err := os.ReadFile(r.View)
	if err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(r.Full)
	if err != nil {
		t.Fatal(err)
	}
	const code = "the code a reader should not see"
	if bytes.Contains(view, []byte(code)) || !bytes.Contains(full, []byte(code)) {
		t.Errorf("the code is in the report view: %v, in the page with code: %v; want false, true",
			bytes.Contains(view, []byte(code)), bytes.Contains(full, []byte(code)))
	}
	pdf, err := ReadPDF(r.PDF)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("view %d bytes, with code %d bytes, PDF %d pages", len(view), len(full), pdf.Pages)

	csv := filepath.Join(out, "small", "t.csv")
	if err := os.MkdirAll(filepath.Dir(csv), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(csv, "x\n1\n"); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(out, "index.html")
	entries := []IndexEntry{{Notebook: "small.ipynb", Report: r, Elapsed: 1500 * time.Millisecond,
		RanAt: time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC), Tables: []string{csv}}}
	if err := WriteIndex(index, entries, true); err != nil {
		t.Fatal(err)
	}
	res, err := CheckOffline(index, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Small", "Question.", "Yes:", "ran 2026-11-30 18:00 UTC in 1.5 s", "quick runs", "t.csv"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("index text lacks %q:\n%s", want, clip(res.Text, 1000))
		}
	}
	// A link to a file that is not there fails the index check.
	if err := os.Remove(csv); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckOffline(index, 0, true); err == nil || !strings.Contains(err.Error(), `link "small/t.csv"`) {
		t.Errorf("index with a dangling link: err = %v, want one naming the link", err)
	}
}

// TestPublishErrors: a notebook whose answer is not marked is published with an empty answer,
// and a TeX error in the markdown fails the export with the formula.
func TestPublishErrors(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	nb := smallNotebook(t, dir, "## Discussion\n\nNo marked answer here.")
	if r, err := Publish(nb, filepath.Join(dir, "r"), "small"); err != nil || r.AnswerHTML != "" {
		t.Errorf("unmarked answer: err = %v, answer %q; want no error and no answer", err, r.AnswerHTML)
	}
	nb = smallNotebook(t, dir, "**Answer.** Broken $\\frac{1$ math.")
	if _, err := Publish(nb, filepath.Join(dir, "r"), "small"); err == nil || !strings.Contains(err.Error(), `TeX errors`) || !strings.Contains(err.Error(), `\\frac{1`) {
		t.Errorf("err = %v, want the TeX error named", err)
	}
}

// TestCheckOfflineFails feeds CheckOffline pages that break each rule: every check can fail.
func TestCheckOfflineFails(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	fig := pngURI(t, 30, 20)
	tests := []struct {
		name, body string
		minImages  int
		want       string // "" for a pass
	}{
		{"clean", `<p>Typeset.</p><pre>$x$ \frac in code is fine</pre><img src="` + fig + `">`, 1, ""},
		{"raw inline TeX", `<p>Mean $\rho/(1-\rho)$.</p>`, 0, `raw TeX in the rendered text, the first "$\\rho/(1-\\rho)$"`},
		{"raw command", `<p>Mean \mathbb{E}[W].</p>`, 0, `the first "\\mathbb"`},
		{"hidden TeX is not shown", `<p style="display:none">$x$</p><p>ok</p>`, 0, ""},
		{"file outside the folder", `<img src="file:///usr/share/pixmaps/debian-logo.png">`, 0, `would load 1 resources, the first: <img src> file:///usr/share/pixmaps/debian-logo.png`},
		{"network style sheet", `<link rel="stylesheet" href="https://example.org/a.css"><p>x</p>`, 0, `<link href> https://example.org/a.css`},
		{"css url", `<p style="background:url(/etc/bg.png)">x</p>`, 0, `style url() /etc/bg.png`},
		{"script", `<script>document.title = "x"</script><p>x</p>`, 0, `1 <script> elements`},
		{"image that does not decode", `<img src="data:image/png;base64,iVBORw0KGgo=">`, 0, `image 1 (data:image/png;base64,iVBORw0KGgo=...) does not decode`},
		{"too few images", `<p>x</p>`, 1, `0 images decoded, want at least 1`},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		page := filepath.Join(dir, "page.html")
		if err := writeFile(page, "<!DOCTYPE html><html><head></head><body>"+tt.body+"</body></html>"); err != nil {
			t.Fatal(err)
		}
		_, err := CheckOffline(page, tt.minImages, false)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: unexpected error: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestCheckOfflineNetworkClosed opens a page whose figure comes from a web server on this
// machine, named by host name and by address: the browser must not reach the server (the
// network is closed), so the figure does not decode and the check fails, as it does for a report
// that would load from the web.
func TestCheckOfflineNetworkClosed(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	var hits atomic.Int32
	fig := plotPNG(t, 30, 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(fig)
	}))
	defer srv.Close()
	dir := t.TempDir()
	for _, host := range []string{"localhost", "127.0.0.1"} {
		u := strings.Replace(srv.URL, "127.0.0.1", host, 1) + "/fig.png"
		page := filepath.Join(dir, "page.html")
		if err := writeFile(page, `<!DOCTYPE html><html><head></head><body><p>x</p><img src="`+u+`"></body></html>`); err != nil {
			t.Fatal(err)
		}
		_, err := CheckOffline(page, 1, false)
		if want := "image 1 (" + u[:min(len(u), 40)] + "...) does not decode"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want one containing %q", host, err, want)
		}
		if n := hits.Swap(0); n != 0 {
			t.Errorf("%s: the browser fetched from the web server %d times: the network is open", host, n)
		}
	}
}

// TestCheckPDFFigures prints figures with the reports' print style sheet: a figure that would
// straddle a page break moves whole to the next page and passes; a figure taller than a page is
// cut (drawn on two pages) and CheckPDF reports it; a wrong figure count or title fails.
func TestCheckPDFFigures(t *testing.T) {
	requireNotebooks(t)
	t.Parallel()
	dir := t.TempDir()
	figure := func(h int) string {
		return `<img style="width:600px;height:` + strconv.Itoa(h) + `px" src="data:image/png;base64,` +
			base64.StdEncoding.EncodeToString(plotPNG(t, 600, h)) + `">`
	}
	// An A4 page with the reports' margins holds about 1015 CSS px: a 500 px figure after 800 px
	// of text crosses the first page break, a 1400 px one is taller than a page.
	for _, tt := range []struct {
		name, body string
		want       string // "" for a pass
	}{
		{"figure across a break", `<div style="height:800px">text</div>` + figure(500) + `<p>after</p>`, ""},
		{"figure taller than a page", figure(1400), "2 images drawn on its pages"},
	} {
		page := filepath.Join(dir, "p.html")
		if err := writeFile(page, "<!DOCTYPE html><html><head><style>"+printCSS+"</style></head><body><h1>Cut test</h1>"+tt.body+"</body></html>"); err != nil {
			t.Fatal(err)
		}
		pdf := filepath.Join(dir, "p.pdf")
		if err := PrintPDF(page, pdf); err != nil {
			t.Fatal(err)
		}
		p, err := CheckPDF(pdf, 1, "Cut test")
		t.Logf("%s: %d pages, images per page %v", tt.name, p.Pages, p.Images)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: unexpected error: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
		if tt.want == "" {
			if _, err := CheckPDF(pdf, 2, "Cut test"); err == nil || !strings.Contains(err.Error(), "want the page's 2 figures") {
				t.Errorf("wrong figure count: err = %v", err)
			}
			if _, err := CheckPDF(pdf, 1, "Another title"); err == nil || !strings.Contains(err.Error(), `page 1 does not show the title "Another title"`) {
				t.Errorf("wrong title: err = %v", err)
			}
		}
	}
}

// TestSummarize checks the rules that find a notebook's title, question and answer, on the HTML
// that nbconvert's lab template makes of markdown cells.
func TestSummarize(t *testing.T) {
	cell := func(inner string) string {
		return `<div class="jp-Cell jp-MarkdownCell jp-Notebook-cell"><div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput">` + inner + `</div></div>`
	}
	page := func(cells ...string) []byte {
		return []byte("<html><head></head><body>" + strings.Join(cells, "\n") + "</body></html>")
	}
	title := cell(`<h1 id="t">01 · Title<a class="anchor-link" href="#t">¶</a></h1><p><strong>Question</strong> (the handout's). Why?</p>`)
	tests := []struct {
		name                  string
		page                  []byte
		question, answer, err string
	}{
		{"heading answer, last one wins", page(title, cell(`<h2>Answer</h2><p>Early.</p>`), cell(`<p>x</p>`), cell(`<h2>Conclusions<a class="anchor-link" href="#c">¶</a></h2><ol><li>Late.</li></ol>`)),
			`<p><strong>Question</strong> (the handout&#39;s). Why?</p>`, `<ol><li>Late.</li></ol>`, ""},
		{"bold answer", page(title, cell(`<p><strong>Answer.</strong> Yes.</p>`)),
			"", `<p><strong>Answer.</strong> Yes.</p>`, ""},
		{"answer in the middle of a cell does not count", page(title, cell(`<p>Text.</p><h2>Answer</h2>`)),
			"", "", ""},
		{"bold word later in a paragraph does not count", page(cell(`<h1>T</h1><p>The <strong>Question</strong> is open.</p>`), cell(`<h2>Answer</h2><p>a</p>`)),
			"", "", "no question"},
		{"no title", page(cell(`<p><strong>Question.</strong> q</p>`), cell(`<h2>Answer</h2><p>a</p>`)),
			"", "<p>a</p>", "no title"},
	}
	for _, tt := range tests {
		s, err := summarize(tt.page)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if s.Title != "01 · Title" || s.TitleLead != "01 · Title" {
			t.Errorf("%s: title %q, lead %q; want %q without the anchor", tt.name, s.Title, s.TitleLead, "01 · Title")
		}
		if tt.question != "" && s.QuestionHTML != tt.question {
			t.Errorf("%s: question %q, want %q", tt.name, s.QuestionHTML, tt.question)
		}
		if s.AnswerHTML != tt.answer {
			t.Errorf("%s: answer %q, want %q", tt.name, s.AnswerHTML, tt.answer)
		}
	}
}
