package nbrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"
)

// failureMarks is text that means a cell failed even when Jupyter says it succeeded: GoNB as
// published (without .ci/gonb-v0.11.1.patch) prints a Go panic and the exit status of a program
// that stopped early (panic, os.Exit) to stderr and replies that the cell succeeded.
var failureMarks = []string{"panic:", "exit status "}

// errorLine is the notebooks' own convention for a failed step: a cell that cannot go on prints
// a line starting "error: " and returns (a panic would lose the cells' partial output).
var errorLine = regexp.MustCompile(`(?m)^error: `)

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
	var fails []string // "cell N: why", in cell order
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
		if err := cellFailure(cell.Outputs, texts); err != nil {
			fails = append(fails, fmt.Sprintf("cell %d: %v", i, err))
		}
	}
	if len(fails) == 0 {
		return code, nil
	}
	// The first failure in full; later cells usually fail for the same reason (a compile error
	// in a package repeats in every cell), so they get one line each.
	msg := fmt.Sprintf("notebook %s: %s", name, fails[0])
	for _, f := range fails[1:] {
		first, _, _ := strings.Cut(f, "\n")
		msg += fmt.Sprintf("\nnotebook %s: also %s", name, clip(first, 300))
	}
	return code, errors.New(msg)
}

// cellFailure returns why a cell failed, or nil: its error output, shown with the text of its
// other outputs (GoNB puts the compiler's message there), else its first output that contains
// a failure mark. One failure per cell: GoNB's error display repeats the error's text.
func cellFailure(outputs []output, texts []string) error {
	for j, o := range outputs {
		if o.OutputType != "error" {
			continue
		}
		msg := fmt.Sprintf("%s: %s", o.EName, o.EValue)
		if ctx := strings.TrimSpace(strings.Join(append(texts[:j:j], texts[j+1:]...), "\n")); ctx != "" {
			msg += "\n" + clip(ctx, 2000)
		}
		return fmt.Errorf("error output: %s", msg)
	}
	for j, o := range outputs {
		for _, mark := range failureMarks {
			if k := strings.Index(texts[j], mark); k >= 0 {
				return fmt.Errorf("%s output contains %q:\n%s",
					o.kind(), mark, clip(strings.TrimSpace(texts[j][lineStart(texts[j], k):]), 2000))
			}
		}
		if loc := errorLine.FindStringIndex(texts[j]); loc != nil {
			return fmt.Errorf("%s output has an error line:\n%s", o.kind(), clip(strings.TrimSpace(texts[j][loc[0]:]), 2000))
		}
	}
	return nil
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
	blankLines    = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+\n`) // left where HTML tags were
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
	return blankLines.ReplaceAllString(ansiEscape.ReplaceAllString(strings.Join(parts, "\n"), ""), "\n")
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
