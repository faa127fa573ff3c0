package nbrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// IndexEntry is one notebook in reports/index.html.
type IndexEntry struct {
	Notebook string        // the notebook's path, as given
	Report   *Report       // nil when the notebook failed before its report was written
	Err      error         // why the notebook failed, or nil
	Elapsed  time.Duration // wall time of the notebook's run
	RanAt    time.Time     // when the run started
	Tables   []string      // CSV tables the notebook wrote (absolute paths)
	Quick    bool          // a quick run (LBSIM_QUICK=1); WriteIndex sets it from its argument
	// FailedAt is when the latest run started if it failed before writing
	// a report while an earlier one's stays whole: WriteIndex keeps that
	// report (and its RanAt, Elapsed, Quick) beside Err. Zero otherwise.
	FailedAt time.Time
}

// WriteIndex adds entries to the index page path and writes it: for every notebook its title,
// question and answer, the run's wall time and date, where its results came from (computed,
// and in how long, or read from the nb.Cached cache: the report itself reads the same either
// way), whether the run was quick, and links (relative, so the folder can be moved) to the
// report view, the page with code, the PDF and the CSV tables. Like the reports, it loads
// nothing: math is inline SVG copied from the report views, styles are inline.
//
// The index lists every notebook exported into the folder, not only these entries: the entries
// are kept in a manifest beside the page (NAME.json for NAME.html, see [indexRecord]), which
// WriteIndex reads back and merges, an entry replacing the one for the same report, under the
// folder's lock, so that exports run one after another or at once all end up listed. An entry
// of a notebook that failed before its report (Report nil) keeps the links to the previous
// report, whose files a failed export leaves whole, and says that the latest run failed
// (FailedAt). An entry whose report files are gone is dropped. The page and the manifest are
// replaced together (files.Batch). quick says whether these entries were quick runs.
func WriteIndex(path string, entries []IndexEntry, quick bool) error {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return err
	}
	unlock, err := lockFolder(dir)
	if err != nil {
		return err
	}
	defer unlock()
	manifest := strings.TrimSuffix(path, filepath.Ext(path)) + ".json"
	all, err := readManifest(manifest, dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		e.Quick = quick
		k := slices.IndexFunc(all, func(old IndexEntry) bool { return entryKey(old, dir) == entryKey(e, dir) })
		switch {
		case k >= 0 && e.Report == nil && e.Err != nil && all[k].Report != nil && exists(all[k].Report.View):
			kept := all[k]
			kept.Err, kept.FailedAt = e.Err, e.RanAt
			if e.Tables != nil { // the files there now: the previous report's
				kept.Tables = e.Tables
			}
			all[k] = kept
		case k >= 0:
			all[k] = e
		default:
			all = append(all, e)
		}
	}
	all = slices.DeleteFunc(all, func(e IndexEntry) bool { return e.Report != nil && !exists(e.Report.View) })
	sort.SliceStable(all, func(i, j int) bool { return entryKey(all[i], dir) < entryKey(all[j], dir) })
	page, err := indexHTML(dir, all)
	if err != nil {
		return err
	}
	records, err := writeManifest(all, dir)
	if err != nil {
		return err
	}
	var set files.Batch
	defer set.Discard()
	if _, err := set.Write(manifest, records); err != nil {
		return err
	}
	if _, err := set.Write(path, page); err != nil {
		return err
	}
	return set.Commit()
}

// lockFolder takes the lock of a report folder, held while a report's files or the index are
// replaced, so that two exports into one folder take turns (files.Lock; waits).
func lockFolder(dir string) (unlock func(), err error) {
	return files.Lock(filepath.Join(dir, ".nbrun.lock"), true)
}

// entryKey identifies an entry in an index: the report view it links to, relative to the
// index's folder, or for a notebook that failed before its report, where that report would
// be (the notebook's name beside the index).
func entryKey(e IndexEntry, dir string) string {
	if e.Report != nil {
		if r, err := filepath.Rel(dir, e.Report.View); err == nil {
			return filepath.ToSlash(r)
		}
		return e.Report.View
	}
	return strings.TrimSuffix(filepath.Base(e.Notebook), ".ipynb") + ".html"
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// indexHTML renders the index page of the folder dir for entries.
func indexHTML(dir string, entries []IndexEntry) ([]byte, error) {
	type link struct{ Text, Href string }
	type row struct {
		Name, Notebook, Error   string
		Title, Question, Answer template.HTML
		// Labels are shown unless the fragment opens with its own bold lead.
		QuestionLabel, AnswerLabel bool
		Elapsed, RanAt, Results    string
		FailedAt                   string // the latest run's, which failed; the links are the previous report's
		Quick                      bool
		Links, Tables, Students    []link
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
	allQuick := len(entries) > 0
	for _, e := range entries {
		allQuick = allQuick && e.Quick
		r := row{Notebook: e.Notebook, Name: strings.TrimSuffix(filepath.Base(e.Notebook), ".ipynb"), Quick: e.Quick,
			Elapsed: fmt.Sprintf("%.1f s", e.Elapsed.Seconds()), RanAt: e.RanAt.UTC().Format("2006-01-02 15:04 UTC")}
		if e.Err != nil {
			r.Error = e.Err.Error()
		}
		if !e.FailedAt.IsZero() {
			r.FailedAt = e.FailedAt.UTC().Format("2006-01-02 15:04 UTC")
		}
		if rep := e.Report; rep != nil {
			// The fragments come from our own nbconvert export (escaped by its markdown
			// renderer and typeset by MathJax), directly or through the manifest we wrote,
			// not from outside input.
			r.Title, r.Question, r.Answer = template.HTML(rep.TitleHTML), template.HTML(rep.QuestionHTML), template.HTML(rep.AnswerHTML)
			r.QuestionLabel = !strings.HasPrefix(rep.QuestionHTML, "<p><strong>Question")
			r.AnswerLabel = !strings.HasPrefix(rep.AnswerHTML, "<p><strong>Answer")
			r.Results = rep.Run.String()
			r.Links = []link{{"report", rel(rep.View)}, {"PDF", rel(rep.PDF)}, {"with code", rel(rep.Full)}}
			if s := rep.Students; s != nil {
				r.Students = []link{{"notebook to run", rel(s.Notebook)}, {"report", rel(s.View)}, {"PDF", rel(s.PDF)}, {"with code", rel(s.Full)}}
			}
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
	err := indexPage.Execute(&buf, struct {
		Rows      []row
		Notebooks string // "1 notebook", "12 notebooks"
		Quick     bool
		MathCSS   template.CSS
		Made      string
	}{rows, number.Count(len(rows), "notebook"), allQuick, template.CSS(mathCSS), time.Now().UTC().Format("2006-01-02 15:04 UTC")})
	return buf.Bytes(), err
}

// indexRecord is an [IndexEntry] in an index's manifest (JSON), with paths relative to the
// index's folder, so that the folder can be moved.
type indexRecord struct {
	Notebook string        `json:"notebook"`
	Error    string        `json:"error,omitempty"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	RanAt    time.Time     `json:"ran_at"`
	Quick    bool          `json:"quick"`
	Tables   []string      `json:"tables,omitempty"`
	Report   *Report       `json:"report,omitempty"`
	FailedAt time.Time     `json:"failed_at,omitzero"`
}

// manifestVersion is the manifest's format; a manifest of another format is an error, not
// silently dropped entries.
const manifestVersion = 1

// maxManifest bounds the manifest read back: an entry is a few hundred kB (its formulas).
const maxManifest = 256 << 20

type manifestFile struct {
	Version int           `json:"lbsim_index"`
	Entries []indexRecord `json:"entries"`
}

// readManifest reads the entries of the manifest at path, whose paths are relative to dir; no
// file is no entries.
func readManifest(path, dir string) ([]IndexEntry, error) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	data, err := files.ReadRegular(path, maxManifest, "index manifest")
	if err != nil {
		return nil, err
	}
	var m manifestFile
	if err := json.Unmarshal(data, &m); err != nil || m.Version != manifestVersion {
		why := fmt.Sprintf("format %d, want %d", m.Version, manifestVersion)
		if err != nil {
			why = err.Error()
		}
		return nil, fmt.Errorf("the index manifest %s cannot be read (%s): remove it (the index then lists only the notebooks exported from now on) or export into another folder", path, why)
	}
	abs := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	var entries []IndexEntry
	for _, r := range m.Entries {
		e := IndexEntry{Notebook: r.Notebook, Elapsed: r.Elapsed, RanAt: r.RanAt, Quick: r.Quick, Report: r.Report, FailedAt: r.FailedAt}
		if r.Error != "" {
			e.Err = errors.New(r.Error)
		}
		for _, t := range r.Tables {
			e.Tables = append(e.Tables, abs(t))
		}
		if rep := e.Report; rep != nil {
			rep.View, rep.Full, rep.PDF = abs(rep.View), abs(rep.Full), abs(rep.PDF)
			if s := rep.Students; s != nil {
				s.Notebook, s.View, s.Full, s.PDF = abs(s.Notebook), abs(s.View), abs(s.Full), abs(s.PDF)
			}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// writeManifest is the manifest of entries, paths relative to dir.
func writeManifest(entries []IndexEntry, dir string) ([]byte, error) {
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	m := manifestFile{Version: manifestVersion, Entries: []indexRecord{}}
	for _, e := range entries {
		r := indexRecord{Notebook: e.Notebook, Elapsed: e.Elapsed, RanAt: e.RanAt, Quick: e.Quick, FailedAt: e.FailedAt}
		if e.Err != nil {
			r.Error = e.Err.Error()
		}
		for _, t := range e.Tables {
			r.Tables = append(r.Tables, rel(t))
		}
		if e.Report != nil {
			rep := *e.Report
			rep.View, rep.Full, rep.PDF = rel(rep.View), rel(rep.Full), rel(rep.PDF)
			if s := rep.Students; s != nil {
				rs := *s
				rs.Notebook, rs.View, rs.Full, rs.PDF = rel(s.Notebook), rel(s.View), rel(s.Full), rel(s.PDF)
				rep.Students = &rs
			}
			r.Report = &rep
		}
		m.Entries = append(m.Entries, r)
	}
	out, err := json.MarshalIndent(m, "", " ")
	return append(out, '\n'), err
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
<p class="meta">{{.Notebooks}}, made {{.Made}}{{if .Quick}}, <strong>quick runs</strong> (LBSIM_QUICK=1: small simulations, numbers are rough){{end}}.
Each report opens offline in any browser; the PDF is the same report for print.</p>
{{range .Rows}}<section id="{{.Name}}">
<h2>{{if .Title}}{{.Title}}{{else}}{{.Notebook}}{{end}}</h2>
<p class="meta">{{.Notebook}} · ran {{.RanAt}} in {{.Elapsed}}{{if and .Quick (not $.Quick)}}, <strong>quick run</strong>{{end}}{{if .Results}}; {{.Results}}{{end}}</p>
{{if .Error}}<p class="error">FAILED{{if .FailedAt}} (the run of {{.FailedAt}}){{end}}: {{.Error}}</p>{{end}}
{{if .FailedAt}}<p class="meta">The links below are to the previous report, of the run of {{.RanAt}}, which is whole.</p>{{end}}
{{if .Links}}<p class="links">{{range .Links}}<a href="{{.Href}}">{{.Text}}</a>{{end}}{{if .Tables}} · tables (CSV): {{range .Tables}}<a href="{{.Href}}">{{.Text}}</a> {{end}}{{end}}</p>{{end}}
{{if .Students}}<p class="links">For students (without the solution cells): {{range .Students}}<a href="{{.Href}}">{{.Text}}</a>{{end}}</p>{{end}}
{{if .Question}}{{if .QuestionLabel}}<div class="label">Question</div>{{end}}<div class="question">{{.Question}}</div>{{end}}
{{if .Answer}}{{if .AnswerLabel}}<div class="label">Answer</div>{{end}}<div class="answer">{{.Answer}}</div>{{else if .Links}}<p class="meta">This notebook states no answer (no markdown cell opens with ## Answer, ## Conclusions or <strong>Answer.</strong>).</p>{{end}}
</section>
{{end}}</body></html>
`))
