package frame

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Option configures HTML.
type Option func(*tableOptions)

type tableOptions struct {
	precision int
	caption   string
	maxRows   int
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

// MaxRows shows at most n rows, followed by a note saying how many were
// omitted; n <= 0 (the default) shows every row.
func MaxRows(n int) Option {
	return func(o *tableOptions) { o.maxRows = n }
}

// Inline styles, so the table reads well in a notebook and in an exported
// report without any stylesheet.
const (
	tableStyle   = `border-collapse:collapse;font-family:sans-serif;font-size:13px;margin:4px 0`
	captionStyle = `caption-side:top;text-align:left;font-weight:bold;padding:4px 0`
	headStyle    = `border-bottom:2px solid #444;padding:3px 8px;text-align:right;background:#f2f2f2`
	cellStyle    = `border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;font-variant-numeric:tabular-nums`
	textStyle    = `border-bottom:1px solid #ddd;padding:3px 8px;text-align:left`
)

// Missing is what a table shows for a missing value (NaN, or no row for a
// pivot cell): an em dash, which a reader does not mistake for a number.
const Missing = "—"

// HTML renders df as an HTML <table> with a header row, escaped cells and
// Float cells formatted to Precision significant digits (NaN and NA as
// Missing). Numbers are right aligned, text left aligned; a text column whose
// cells are all numbers, "mean ± ci" or Missing (as [Pivot] makes) counts as
// numbers. If df carries an error
// (df.Err), the result is a paragraph stating it rather than a table.
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
	names, types := df.Names(), df.Types()
	numeric := numericColumns(df)
	fmt.Fprintf(&b, "<table style=%q>\n", tableStyle)
	if o.caption != "" {
		fmt.Fprintf(&b, "<caption style=%q>%s</caption>\n", captionStyle, html.EscapeString(o.caption))
	}
	b.WriteString("<thead><tr>")
	for c, n := range names {
		style := headStyle
		if !numeric[c] {
			style += ";text-align:left"
		}
		fmt.Fprintf(&b, "<th style=%q>%s</th>", style, html.EscapeString(n))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	rows := df.Nrow()
	shown := rows
	if o.maxRows > 0 && o.maxRows < rows {
		shown = o.maxRows
	}
	floatVerb := fmt.Sprintf("%%.%dg", o.precision)
	for r := 0; r < shown; r++ {
		b.WriteString("<tr>")
		for c, t := range types {
			style := cellStyle
			if !numeric[c] {
				style = textStyle
			}
			fmt.Fprintf(&b, "<td style=%q>%s</td>", style, html.EscapeString(cellText(df.Elem(r, c), t, floatVerb)))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	if shown < rows {
		fmt.Fprintf(&b, "<p style=\"font-size:12px;color:#666\">%d of %d rows shown.</p>\n", shown, rows)
	}
	return b.String()
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
	for _, part := range strings.Split(s, " ± ") {
		if _, err := strconv.ParseFloat(part, 64); err != nil {
			return false
		}
	}
	return true
}
