package nb

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/frame"
	"github.com/perfeval/lbsim/lbsim/plots"
)

// The sinks below display (and save) what a cell produced and handle their
// own errors: a failure is a red box and stops the cell (see Fail), so a
// cell needs no error handling around them.

// Table displays rows under caption: a slice of structs (such as
// []lbsim.Row or a table of the cell's own type) or a gota DataFrame. A
// "warnings" column is displayed only when some row has a warning (a saved
// CSV always has it), as footnote markers with each warning once under the
// table. Options: SaveAs (also save the table as CSV), Digits.
//
//	nb.Table(rows, "Mean waiting time", nb.SaveAs("01-waits"))
func Table(rows any, caption string, opts ...TableOption) {
	warnUnknownOverrides()
	t := tableConfig{frame: []frame.Option{frame.Caption(caption)}}
	for _, o := range opts {
		o(&t)
	}
	df := M1(toFrame(rows))
	if t.save != "" {
		Must(saveFrame(t.save, df))
	}
	shown, warnings := shownWarnings(df)
	showHTML(frame.HTML(shown, append(t.frame, frame.Footnotes(warnings, lbsim.Rules()...))...))
}

// TableOption changes what Table does.
type TableOption func(*tableConfig)

type tableConfig struct {
	save  string // the CSV's name, "" for none
	frame []frame.Option
}

// SaveAs also saves the table as name.csv, every column at full precision
// (see Save).
func SaveAs(name string) TableOption { return func(t *tableConfig) { t.save = name } }

// Digits shows numbers to n significant digits (default 4).
func Digits(n int) TableOption {
	return func(t *tableConfig) { t.frame = append(t.frame, frame.Precision(n)) }
}

// toFrame accepts a DataFrame as it is and converts a slice of structs.
func toFrame(rows any) (dataframe.DataFrame, error) {
	switch v := rows.(type) {
	case dataframe.DataFrame:
		return v, v.Err
	case *dataframe.DataFrame:
		return *v, v.Err
	}
	return frame.FromStructs(rows)
}

// shownWarnings is df as a notebook shows it, and the name of its warnings
// column ("" if none): a string column named "warnings" is dropped when no row
// has text, else its advice names Config fields (FieldAdvice); Table
// shows it as footnote markers, each warning once under the table.
func shownWarnings(df dataframe.DataFrame) (dataframe.DataFrame, string) {
	for _, name := range df.Names() {
		col := df.Col(name)
		if !strings.EqualFold(name, "warnings") || col.Type() != series.String {
			continue
		}
		cells, empty := col.Records(), true
		for i, s := range cells {
			cells[i], empty = FieldAdvice(s), empty && s == ""
		}
		if empty {
			return df.Drop(name), ""
		}
		return df.Mutate(series.New(cells, series.String, name)), name
	}
	return df, ""
}

// Figure renders fig at its size (WidthCm x HeightCm, default 16 x 10 cm)
// and displays it.
func Figure(fig plots.Figure) {
	warnUnknownOverrides()
	Must(showFigure(fig))
}

// Grid displays figs side by side, cols panels per row, each panel the size
// of the largest figure (default 11 x 8 cm).
func Grid(figs []plots.Figure, cols int) {
	warnUnknownOverrides()
	Must(showGrid(figs, cols))
}

// Note displays a short remark under the cell, in grey; a reader sees it in
// the report, the scan of headless runs does not take it for an error.
func Note(format string, args ...any) {
	warnUnknownOverrides()
	showNote(fmt.Sprintf(format, args...))
}

// showNote displays msg as Note does.
func showNote(msg string) {
	if frontEnd.isNotebook {
		showHTML(`<div style="font-family:sans-serif;font-size:13px;color:#555;white-space:pre-wrap">` + html.EscapeString(msg) + `</div>`)
		return
	}
	fmt.Println(msg)
}

// SweepValid is Sweep over the grid's valid configurations only
// (lbsim.Grid.Valid): the invalid ones are skipped, listed in a note under
// the cell, and returned, so one impossible combination (SITA-1 at a high
// load, say) does not abort the whole sweep. The note is shown once per
// sweep: not again in the same program, nor in a later cell of the same
// GoNB session (see noteOnce), which reads the same rows from the cache.
func SweepValid(label string, g lbsim.Grid) (rows []lbsim.Row, skipped []error, err error) {
	valid, skipped := g.Valid()
	return runValid(label, valid, skipped, false)
}

// RunAllValid is SweepValid for an explicit list of configurations (as
// RunAll is Sweep's): those lbsim refuses (Config.Validate: an unstable
// load, SITA-E on a law with atoms, ...) are skipped, noted once under the
// cell with their reasons, and returned; the rows are the others', in order.
//
//	rows, skipped := nb.M2(nb.RunAllValid("candidates", cfgs))
func RunAllValid(label string, cfgs []lbsim.Config) (rows []lbsim.Row, skipped []error, err error) {
	valid, skipped := lbsim.ValidConfigs(cfgs)
	return runValid(label, valid, skipped, false)
}

// runValid runs the valid configurations of SweepValid and RunAllValid,
// noting the skipped ones (once: noteOnce) with their reasons.
func runValid(label string, valid []lbsim.Config, skipped []error, fresh bool) (rows []lbsim.Row, _ []error, err error) {
	if len(skipped) > 0 {
		lines := make([]string, len(skipped))
		for i, e := range skipped {
			lines[i] = "  " + FieldAdvice(e.Error())
		}
		noteOnce(fmt.Sprintf("%s: skipped %d invalid configuration(s) of %d:\n%s", label, len(skipped), len(skipped)+len(valid), strings.Join(lines, "\n")))
	}
	if len(valid) == 0 {
		return nil, skipped, fmt.Errorf("%s: every one of the %d configurations is invalid; the first: %v", label, len(skipped), skipped[0])
	}
	rows, err = runAll(label, valid, fresh)
	return rows, skipped, err
}

// noteOnce shows msg as a Note unless this program, or an earlier cell of
// the same GoNB session, showed the same text: GoNB runs a new program for
// every cell, so the session remembers it in a marker file in its
// temporary directory ($GONB_TMP_DIR, removed with the kernel). A new
// session, such as the run that exports a report, shows it once again.
func noteOnce(msg string) {
	if _, dup := notedNotes.LoadOrStore(msg, true); dup {
		return
	}
	if dir := os.Getenv("GONB_TMP_DIR"); dir != "" {
		sum := sha256.Sum256([]byte(msg))
		marker := filepath.Join(dir, "lbsim-note-"+hex.EncodeToString(sum[:8]))
		f, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return
		}
		if err == nil {
			f.Close()
		}
	}
	Note("%s", msg)
}

// notedNotes are the texts noteOnce showed in this program.
var notedNotes sync.Map
