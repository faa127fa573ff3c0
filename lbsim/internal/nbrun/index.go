package nbrun

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// IndexEntry is one notebook in reports/index.html.
type IndexEntry struct {
	Notebook string        // the notebook's path, as given
	Report   *Report       // nil when the notebook failed before its report was written
	Err      error         // why the notebook failed, or nil
	Elapsed  time.Duration // wall time of the notebook's run
	RanAt    time.Time     // when the run started
	Tables   []string      // CSV tables the notebook wrote (absolute paths)
}

// WriteIndex writes the index page path: for every notebook its title, question and answer, the
// run's wall time and date, where its results came from (computed, and in how long, or read
// from the nb.Cached cache: the report itself reads the same either way), whether the run was quick, and links (relative, so the folder can be
// moved) to the report view, the page with code, the PDF and the CSV tables. Like the reports,
// it loads nothing: math is inline SVG copied from the report views, styles are inline.
func WriteIndex(path string, entries []IndexEntry, quick bool) error {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return err
	}
	type link struct{ Text, Href string }
	type row struct {
		Name, Notebook, Error   string
		Title, Question, Answer template.HTML
		// Labels are shown unless the fragment opens with its own bold lead.
		QuestionLabel, AnswerLabel bool
		Elapsed, RanAt, Results    string
		Links, Tables              []link
	}
	rel := func(p string) string {
		r, err := filepath.Rel(dir, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	var rows []row
	var mathCSS string
	for _, e := range entries {
		r := row{Notebook: e.Notebook, Name: strings.TrimSuffix(filepath.Base(e.Notebook), ".ipynb"),
			Elapsed: fmt.Sprintf("%.1f s", e.Elapsed.Seconds()), RanAt: e.RanAt.UTC().Format("2006-01-02 15:04 UTC")}
		if e.Err != nil {
			r.Error = e.Err.Error()
		}
		if rep := e.Report; rep != nil {
			// The fragments come from our own nbconvert export (escaped by its markdown
			// renderer and typeset by MathJax), not from outside input.
			r.Title, r.Question, r.Answer = template.HTML(rep.TitleHTML), template.HTML(rep.QuestionHTML), template.HTML(rep.AnswerHTML)
			r.QuestionLabel = !strings.HasPrefix(rep.QuestionHTML, "<p><strong>Question")
			r.AnswerLabel = !strings.HasPrefix(rep.AnswerHTML, "<p><strong>Answer")
			r.Results = rep.Run.String()
			r.Links = []link{{"report", rel(rep.View)}, {"PDF", rel(rep.PDF)}, {"with code", rel(rep.Full)}}
			if mathCSS == "" {
				mathCSS = rep.MathCSS
			}
		}
		for _, t := range e.Tables {
			r.Tables = append(r.Tables, link{filepath.Base(t), rel(t)})
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	err = indexPage.Execute(&buf, struct {
		Rows    []row
		Quick   bool
		MathCSS template.CSS
		Made    string
	}{rows, quick, template.CSS(mathCSS), time.Now().UTC().Format("2006-01-02 15:04 UTC")})
	if err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

var indexPage = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>lbsim reports</title>
<style>
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.45; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-bottom: 0.2em; }
section { border-top: 1px solid #ccc; padding: 0.6em 0 1em; }
.meta { color: #555; font-size: 0.9em; }
.links a { margin-right: 1em; }
.label { font-weight: bold; margin: 0.6em 0 0.2em; }
.error { color: #a00; white-space: pre-wrap; font-family: monospace; }
@media print { section { break-inside: avoid; } }
{{.MathCSS}}
</style></head>
<body>
<h1>lbsim reports</h1>
<p class="meta">{{len .Rows}} notebooks, made {{.Made}}{{if .Quick}}, <strong>quick runs</strong> (LBSIM_QUICK=1: small simulations, numbers are rough){{end}}.
Each report opens offline in any browser; the PDF is the same report for print.</p>
{{range .Rows}}<section id="{{.Name}}">
<h2>{{if .Title}}{{.Title}}{{else}}{{.Notebook}}{{end}}</h2>
<p class="meta">{{.Notebook}} · ran {{.RanAt}} in {{.Elapsed}}{{if .Results}}; {{.Results}}{{end}}</p>
{{if .Error}}<p class="error">FAILED: {{.Error}}</p>{{end}}
{{if .Links}}<p class="links">{{range .Links}}<a href="{{.Href}}">{{.Text}}</a>{{end}}{{if .Tables}} · tables (CSV): {{range .Tables}}<a href="{{.Href}}">{{.Text}}</a> {{end}}{{end}}</p>{{end}}
{{if .Question}}{{if .QuestionLabel}}<div class="label">Question</div>{{end}}<div class="question">{{.Question}}</div>{{end}}
{{if .Answer}}{{if .AnswerLabel}}<div class="label">Answer</div>{{end}}<div class="answer">{{.Answer}}</div>{{else if .Links}}<p class="meta">This notebook states no answer (no markdown cell opens with ## Answer, ## Conclusions or <strong>Answer.</strong>).</p>{{end}}
</section>
{{end}}</body></html>
`))
