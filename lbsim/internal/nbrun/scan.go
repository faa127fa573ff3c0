package nbrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"
)

// failureMarks is text that means a cell failed even when Jupyter says it succeeded: GoNB prints
// a Go panic and the exit status of a program that stopped early (panic, os.Exit) to stderr.
var failureMarks = []string{"panic:", "exit status "}

// notebook is the part of the nbformat 4 JSON that the scan reads.
type notebook struct {
	Cells []struct {
		CellType string   `json:"cell_type"`
		Outputs  []output `json:"outputs"`
	} `json:"cells"`
}

type output struct {
	OutputType string                     `json:"output_type"`
	Name       string                     `json:"name"` // stream: stdout or stderr
	Text       multiline                  `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	EName      string                     `json:"ename"`
	EValue     string                     `json:"evalue"`
}

// multiline is nbformat's text: a string or a list of strings to concatenate.
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	*m = multiline(strings.Join(parts, ""))
	return nil
}

// Scan checks an executed notebook (nbformat 4 JSON) named name and returns its number of code
// cells. It fails on every cell with an error output, or with an output (stream, text/plain or
// text/html) that contains "panic:" or "exit status ". Each failure names the notebook, the cell
// (0-based index in the file, as nbformat counts) and the offending text.
func Scan(name string, data []byte) (int, error) {
	var nb notebook
	if err := json.Unmarshal(data, &nb); err != nil {
		return 0, fmt.Errorf("notebook %s: not a valid notebook JSON: %w", name, err)
	}
	var errs []error
	code := 0
	for i, cell := range nb.Cells {
		if cell.CellType != "code" {
			continue
		}
		code++
		texts := make([]string, len(cell.Outputs)) // visible text of each output
		for j, o := range cell.Outputs {
			texts[j] = o.text()
		}
		for j, o := range cell.Outputs {
			if o.OutputType == "error" {
				msg := fmt.Sprintf("%s: %s", o.EName, o.EValue)
				if ctx := strings.TrimSpace(strings.Join(append(texts[:j:j], texts[j+1:]...), "\n")); ctx != "" {
					msg += "\n" + clip(ctx, 2000)
				}
				errs = append(errs, fmt.Errorf("notebook %s: cell %d: error output: %s", name, i, msg))
				continue
			}
			for _, mark := range failureMarks {
				if k := strings.Index(texts[j], mark); k >= 0 {
					errs = append(errs, fmt.Errorf("notebook %s: cell %d: %s output contains %q:\n%s",
						name, i, o.kind(), mark, clip(strings.TrimSpace(texts[j][lineStart(texts[j], k):]), 2000)))
					break
				}
			}
		}
	}
	return code, errors.Join(errs...)
}

// kind names an output for messages: "stderr", "stdout", "display_data", ...
func (o output) kind() string {
	if o.OutputType == "stream" {
		return o.Name
	}
	return o.OutputType
}

var (
	styleOrScript = regexp.MustCompile(`(?is)<(style|script)\b.*?</(style|script)>`)
	htmlTag       = regexp.MustCompile(`(?s)<[^>]*>`)
	ansiEscape    = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")
)

// text returns what a reader sees of an output: stream text, text/plain, or text/html without
// tags, styles and scripts (GoNB shows compile errors as HTML).
func (o output) text() string {
	var parts []string
	if o.OutputType == "stream" {
		parts = append(parts, string(o.Text))
	}
	for _, mime := range []string{"text/plain", "text/html"} {
		raw, ok := o.Data[mime]
		if !ok {
			continue
		}
		var m multiline
		if err := json.Unmarshal(raw, &m); err != nil {
			continue
		}
		s := string(m)
		if mime == "text/html" {
			s = html.UnescapeString(htmlTag.ReplaceAllString(styleOrScript.ReplaceAllString(s, ""), ""))
		}
		parts = append(parts, s)
	}
	return ansiEscape.ReplaceAllString(strings.Join(parts, "\n"), "")
}

// lineStart is the index of the start of the line holding s[k].
func lineStart(s string, k int) int {
	return strings.LastIndexByte(s[:k], '\n') + 1
}

// clip shortens s to at most n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + " [...]"
}
