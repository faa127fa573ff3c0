package frame

import (
	"fmt"
	"html"
	"slices"
	"strings"
)

// Footnotes shows the text column named column as footnote markers rather than
// text, so that a long note neither widens its column nor heightens its row.
// Each cell holds a row's notes as "key: text" joined by "; " (as
// lbsim.Warnings prints them), key one of keys; text not led by a known key is
// a note of its own without a key. Each key gets a marker (¹, ², … in order of
// first appearance), a cell shows its row's markers, and under the table each
// distinct note is listed once: its marker, its key, the rows it belongs to and
// its text. A table without the column, or whose cells are all empty, has none.
func Footnotes(column string, keys ...string) Option {
	return func(o *tableOptions) { o.notes, o.noteKeys = column, keys }
}

// note is one footnote: a key (a warning's rule) and its text.
type note struct{ key, text string }

// splitNotes splits a cell into its notes: it starts a new note at each "key: "
// that opens the cell or follows "; ", so that a "; " inside a note's text
// does not split it.
func splitNotes(cell string, keys []string) []note {
	var out []note
	for rest := strings.TrimSpace(cell); rest != ""; {
		n := note{text: rest}
		for _, k := range keys {
			if text, ok := strings.CutPrefix(rest, k+": "); ok {
				n = note{key: k, text: text}
				break
			}
		}
		rest = ""
		if i := nextNote(n.text, keys); i >= 0 {
			n.text, rest = n.text[:i], n.text[i+2:]
		}
		out = append(out, n)
	}
	return out
}

// nextNote is the index of the "; " before the first "key: " in text, or -1.
func nextNote(text string, keys []string) int {
	first := -1
	for _, k := range keys {
		if i := strings.Index(text, "; "+k+": "); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// footnotes are a table's notes: the markers of each row and the notes under the table.
type footnotes struct {
	keys  []string // the keys in marker order (marker i+1 for keys[i])
	rows  [][]int  // the markers of each row, ascending
	notes []note   // each distinct note once, in order of first appearance
	where [][]int  // the rows of each note
}

// collectNotes reads the notes of each cell (one per row).
func collectNotes(cells []string, keys []string) footnotes {
	var f footnotes
	index := map[note]int{}
	f.rows = make([][]int, len(cells))
	for r, cell := range cells {
		for _, n := range splitNotes(cell, keys) {
			m := slices.Index(f.keys, n.key)
			if m < 0 {
				m = len(f.keys)
				f.keys = append(f.keys, n.key)
			}
			if !slices.Contains(f.rows[r], m+1) {
				f.rows[r] = append(f.rows[r], m+1)
			}
			i, seen := index[n]
			if !seen {
				i = len(f.notes)
				index[n] = i
				f.notes, f.where = append(f.notes, n), append(f.where, nil)
			}
			f.where[i] = append(f.where[i], r)
		}
		slices.Sort(f.rows[r])
	}
	return f
}

// markers is the text of a row's markers, such as "¹ ³".
func markers(ms []int) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = marker(m)
	}
	return strings.Join(parts, " ")
}

// marker is m in superscript digits: 1 is "¹", 12 is "¹²".
func marker(m int) string {
	const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	digits := []rune(sup)
	var b strings.Builder
	for _, d := range fmt.Sprint(m) {
		b.WriteRune(digits[d-'0'])
	}
	return b.String()
}

// maxNoteRows is how many rows a note names before it says "and n more".
const maxNoteRows = 3

// noteStyle keeps each note one paragraph with a hanging marker, below the table.
const noteStyle = `margin:2px 0;padding-left:1.5em;text-indent:-1.5em;font-family:sans-serif;font-size:12px;color:#444;max-width:60em`

// writeNotes writes the notes under a table: marker, key, the rows (by label) and the text.
func (f footnotes) writeNotes(b *strings.Builder, label func(row int) string) {
	for i, n := range f.notes {
		where := make([]string, 0, maxNoteRows)
		for _, r := range f.where[i][:min(len(f.where[i]), maxNoteRows)] {
			where = append(where, label(r))
		}
		rows := strings.Join(where, "; ")
		if more := len(f.where[i]) - maxNoteRows; more > 0 {
			rows += fmt.Sprintf(" and %d more", more)
		}
		key := ""
		if n.key != "" {
			key = "<b>" + html.EscapeString(n.key) + "</b> "
		}
		fmt.Fprintf(b, "<p class=\"lbsim-table-note\" style=%q>%s %s(%s): %s</p>\n", noteStyle,
			marker(slices.Index(f.keys, n.key)+1), key, html.EscapeString(rows), html.EscapeString(n.text))
	}
}
