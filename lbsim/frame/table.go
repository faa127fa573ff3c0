package frame

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Option configures HTML.
type Option func(*tableOptions)

type tableOptions struct {
	precision int
	caption   string
	notes     string   // the column shown as footnote markers (Footnotes), "" for none
	noteKeys  []string // the keys its notes start with
}

// Precision sets the significant digits of Float cells (the %.Ng verb);
// the default is 4. Values below 1 are treated as 1.
func Precision(digits int) Option {
	return func(o *tableOptions) { o.precision = max(digits, 1) }
}

// Caption sets the table caption, shown above the table.
func Caption(text string) Option {
	return func(o *tableOptions) { o.caption = text }
}

// Inline styles, so the table reads well in a notebook and in an exported
// report without any stylesheet. Cells do not wrap (white-space:nowrap), and
// nothing breaks inside a word (overflow-wrap:normal, which also overrides a
// page's own "anywhere"), so a number or a label is never cut across lines;
// only a long text cell wraps, at spaces, and a header after an underscore.
// A wide table scrolls in its wrapper instead of running off the page.
const (
	wrapStyle    = `overflow-x:auto;max-width:100%`
	tableStyle   = `border-collapse:collapse;font-family:sans-serif;font-size:13px;margin:4px 0`
	captionStyle = `caption-side:top;text-align:left;font-weight:bold;padding:4px 0;white-space:normal`
	headStyle    = `border-bottom:2px solid #444;padding:3px 8px;text-align:right;background:#f2f2f2;vertical-align:bottom;overflow-wrap:normal`
	cellStyle    = `border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal`
	textStyle    = `border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;white-space:nowrap;overflow-wrap:normal`
	longStyle    = `border-bottom:1px solid #ddd;padding:3px 8px;text-align:left;min-width:12em;overflow-wrap:normal`
)

// printCSS is the table's print rule, emitted with each table (class
// lbsim-table): paper does not scroll, so the wrapper shows the whole table,
// in type small enough that it fits the text width. The wrapper is a size
// container and carries the table's width at a 1px font (--lbsim-table-px,
// see printWidth) and its columns (--lbsim-table-cols): the type is 9px, or
// smaller for a wide table (down to 5px), so that every column is inside
// the page (a 17-column comparison was cut at its 15th).
const printCSS = `<style>@media print{.lbsim-table-wrap{overflow:visible!important;container-type:inline-size}` +
	`.lbsim-table-wrap>table.lbsim-table{font-size:max(5px,min(9px,calc((100cqi - var(--lbsim-table-cols,0)*9px)/var(--lbsim-table-px,1))))!important}` +
	`table.lbsim-table td,table.lbsim-table th{padding:2px 4px!important}}</style>`

// Average advances of sans-serif type (Liberation Sans, DejaVu Sans), in em,
// with a margin: a digit is 0.556 em, a lower-case letter about 0.5, a
// capital 0.67; bold headers are wider.
const (
	cellEm     = 0.6
	headEm     = 0.66
	longCellEm = 12 // longStyle's min-width: a long text cell wraps at spaces down to it
)

// printWidth is a table's width in em, each column as wide as its longest
// cell or header part (headers break after an underscore), a long text
// column its minimum width.
func printWidth(cols []shownColumn, rows int, text func(int, shownColumn) string) float64 {
	w := 0.0
	for _, c := range cols {
		cw := 0.0
		for _, part := range strings.Split(c.name, "_") {
			cw = max(cw, headEm*float64(utf8.RuneCountInString(part)+1))
		}
		if c.long {
			w += max(cw, longCellEm)
			continue
		}
		for r := range rows {
			cw = max(cw, cellEm*float64(utf8.RuneCountInString(text(r, c))))
		}
		w += cw
	}
	return w
}

// longText is the length (in characters) above which a text column may wrap
// at spaces: shorter labels stay on one line.
const longText = 32

// Missing is what a table shows for a missing value (NaN, or no row for a
// pivot cell): an em dash, which a reader does not mistake for a number.
const Missing = "—"

// HTML renders df as an HTML <table> with a header row, escaped cells and
// Float cells formatted to Precision significant digits (NaN and NA as
// Missing), in a wrapper that scrolls a wide table horizontally. Numbers are
// right aligned, text left aligned; a text column whose cells are all numbers,
// "mean ± ci", "mean (no CI)" or Missing counts as numbers. A number column K followed by
// its half-widths K+[CISuffix] (as [Pivot] makes) is shown as one column K of
// [MeanCI] texts. Numbers and labels stay on one line; see [Footnotes] for a
// column of warnings. If df carries an error (df.Err), the result is a
// paragraph stating it rather than a table.
func HTML(df dataframe.DataFrame, opts ...Option) string {
	o := tableOptions{precision: 4}
	for _, opt := range opts {
		opt(&o)
	}
	var b strings.Builder
	if df.Err != nil {
		fmt.Fprintf(&b, "<p style=\"color:#a00\">frame.HTML: the DataFrame has an error: %s</p>", html.EscapeString(df.Err.Error()))
		return b.String()
	}
	rows := df.Nrow()
	cols := shownColumns(df, o.notes)
	var notes footnotes
	if n := slices.IndexFunc(cols, func(c shownColumn) bool { return c.notes }); n >= 0 {
		notes = collectNotes(df.Col(cols[n].name).Records(), o.noteKeys)
	}
	floatVerb := fmt.Sprintf("%%.%dg", o.precision)
	text := func(r int, c shownColumn) string {
		switch {
		case c.notes:
			return markers(notes.rows[r])
		case c.ci >= 0:
			return MeanCI(df.Elem(r, c.index).Float(), df.Elem(r, c.ci).Float())
		}
		return cellText(df.Elem(r, c.index), c.typ, floatVerb)
	}
	b.WriteString(printCSS)
	wrap := fmt.Sprintf("%s;--lbsim-table-px:%.1f;--lbsim-table-cols:%d", wrapStyle, printWidth(cols, rows, text), len(cols))
	fmt.Fprintf(&b, "<div class=\"lbsim-table-wrap\" style=%q>\n<table class=\"lbsim-table\" style=%q>\n", wrap, tableStyle)
	if o.caption != "" {
		fmt.Fprintf(&b, "<caption style=%q>%s</caption>\n", captionStyle, html.EscapeString(o.caption))
	}
	b.WriteString("<thead><tr>")
	for _, c := range cols {
		style := headStyle
		if !c.numeric {
			style += ";text-align:left"
		}
		fmt.Fprintf(&b, "<th style=%q>%s</th>", style, headerHTML(c.name))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for r := range rows {
		b.WriteString("<tr>")
		for _, c := range cols {
			fmt.Fprintf(&b, "<td style=%q>%s</td>", c.style(), html.EscapeString(text(r, c)))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n</div>\n")
	notes.writeNotes(&b, func(r int) string { return rowLabel(cols, rows, r, text) })
	return b.String()
}

// column is one column of a table as HTML shows it.
type shownColumn struct {
	name    string
	index   int // in the DataFrame
	typ     series.Type
	ci      int  // the column of its half-widths, shown with it as "mean ± ci", or -1
	numeric bool // right aligned
	long    bool // text long enough to wrap at spaces
	notes   bool // shown as footnote markers
}

func (c shownColumn) style() string {
	switch {
	case c.numeric:
		return cellStyle
	case c.long:
		return longStyle
	}
	return textStyle
}

// columns lists the columns of df as HTML shows them: the half-width
// column of a number column (K+CISuffix after K) merged into it, the column
// named notes (if it is a text column with some text) as markers.
func shownColumns(df dataframe.DataFrame, notes string) []shownColumn {
	names, types := df.Names(), df.Types()
	numeric := numericColumns(df)
	var cols []shownColumn
	for i, n := range names {
		if k := len(cols) - 1; k >= 0 && n == cols[k].name+CISuffix && cols[k].typ == series.Float && types[i] == series.Float {
			cols[k].ci = i
			continue
		}
		c := shownColumn{name: n, index: i, typ: types[i], ci: -1, numeric: numeric[i]}
		if !c.numeric {
			cells := df.Col(n).Records()
			c.notes = n == notes && slices.ContainsFunc(cells, func(s string) bool { return strings.TrimSpace(s) != "" })
			c.long = !c.notes && slices.ContainsFunc(cells, func(s string) bool { return utf8.RuneCountInString(s) > longText })
		}
		cols = append(cols, c)
	}
	return cols
}

// headerHTML is a column name that may wrap after an underscore (and at
// spaces), never inside a word.
func headerHTML(name string) string {
	return strings.ReplaceAll(html.EscapeString(name), "_", "_<wbr>")
}

// rowLabel names row r by its leading columns, as few as make the label
// unique among the rows (at most three), such as "policy RND, load 0.9".
func rowLabel(cols []shownColumn, rows, r int, text func(int, shownColumn) string) string {
	var keys []shownColumn
	for _, c := range cols {
		if !c.notes && len(keys) < 3 {
			keys = append(keys, c)
		}
	}
	label := func(row, k int) string {
		parts := make([]string, k)
		for i, c := range keys[:k] {
			parts[i] = c.name + " " + text(row, c)
		}
		return strings.Join(parts, ", ")
	}
	k := 1
	for ; k < len(keys); k++ {
		mine, unique := label(r, k), true
		for other := 0; other < rows && unique; other++ {
			unique = other == r || label(other, k) != mine
		}
		if unique {
			break
		}
	}
	if len(keys) == 0 {
		return fmt.Sprintf("row %d", r+1)
	}
	return label(r, min(k, len(keys)))
}

func cellText(e series.Element, t series.Type, floatVerb string) string {
	if e.IsNA() {
		return Missing
	}
	if t == series.Float {
		f := e.Float()
		if math.IsNaN(f) {
			return Missing
		}
		if math.IsInf(f, 0) {
			return fmt.Sprint(f)
		}
		return fmt.Sprintf(floatVerb, f)
	}
	return e.String()
}

// numericColumns tells, per column, whether its cells are numbers: Float,
// Int and Bool columns, and String columns whose every cell reads as a
// number, "mean ± ci" or Missing (right aligned like numbers).
func numericColumns(df dataframe.DataFrame) []bool {
	types := df.Types()
	out := make([]bool, len(types))
	for c, t := range types {
		if t != series.String {
			out[c] = true
			continue
		}
		out[c] = df.Nrow() > 0
		for _, s := range df.Col(df.Names()[c]).Records() {
			if !numberText(s) {
				out[c] = false
				break
			}
		}
	}
	return out
}

func numberText(s string) bool {
	if s == Missing || s == "" {
		return true
	}
	for _, part := range strings.Split(strings.TrimSuffix(s, noCI), " ± ") {
		if _, err := strconv.ParseFloat(part, 64); err != nil {
			return false
		}
	}
	return true
}
