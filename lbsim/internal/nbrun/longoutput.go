package nbrun

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// What a report shows of a cell that printed too much. A cell that prints megabytes is a
// runaway (a print in a loop): its report could not be typeset nor printed (100 MB kept
// Chromium busy past its timeout) and nobody would read it. Cutting its middle keeps what
// tells what happened: how the output started and how it ended (the last result, a panic's
// stack), with a note of the size cut; the export still fails, naming the cell and its size,
// so a cut report is never taken for a whole one.
const (
	maxCellPrint = 1_000_000 // bytes a cell may print (stdout and stderr together)
	keepHead     = 16_000    // bytes kept of the start of a cell's printed text
	keepTail     = 16_000    // and of its end: a Go panic's stack fits
)

// cutLongOutputs cuts, in the executed notebook at path whose JSON is data, the printed text
// of every cell that printed more than maxCellPrint to its first keepHead and last keepTail
// bytes (whole lines), with a note where the text was cut, and rewrites the notebook. The
// error names each such cell, as [Scan] counts cells, and its size.
func cutLongOutputs(path string, data []byte) error {
	var nb map[string]json.RawMessage
	if err := json.Unmarshal(data, &nb); err != nil {
		return fmt.Errorf("notebook %s is not JSON: %w", path, err)
	}
	var cells []map[string]json.RawMessage
	if err := json.Unmarshal(nb["cells"], &cells); err != nil {
		return fmt.Errorf("notebook %s: cells: %w", path, err)
	}
	var cuts []string
	for i, cell := range cells {
		var outs []map[string]json.RawMessage
		if _, ok := cell["outputs"]; !ok {
			continue
		}
		if err := json.Unmarshal(cell["outputs"], &outs); err != nil {
			return fmt.Errorf("notebook %s: cell %d: outputs: %w", path, i, err)
		}
		outs, cut, err := cutPrinted(outs)
		if err != nil {
			return fmt.Errorf("notebook %s: cell %d: %w", path, i, err)
		}
		if cut == "" {
			continue
		}
		cuts = append(cuts, fmt.Sprintf("cell %d %s", i, cut))
		if cell["outputs"], err = json.Marshal(outs); err != nil {
			return err
		}
	}
	if len(cuts) == 0 {
		return nil
	}
	var err error
	if nb["cells"], err = json.Marshal(cells); err != nil {
		return err
	}
	out, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return err
	}
	if err := files.Replace(path, append(out, '\n'), nil); err != nil {
		return err
	}
	return fmt.Errorf("%s, more than the %s a report shows of a cell: the report keeps the first %s and the last %s of it. Print less: a line per step, a summary, or save a long table with nb.Save",
		strings.Join(cuts, "; "), size(maxCellPrint), size(keepHead), size(keepTail))
}

// cutPrinted cuts the stream outputs of one cell (outs, in order) when together they hold
// more than maxCellPrint bytes: it returns the outputs kept and what the cell printed
// ("printed 100 MB to stdout"), or outs and "" when it printed no more.
func cutPrinted(outs []map[string]json.RawMessage) ([]map[string]json.RawMessage, string, error) {
	texts := make([]string, len(outs))
	total := 0
	streams := map[string]bool{}
	for j, o := range outs {
		var kind, name string
		_ = json.Unmarshal(o["output_type"], &kind)
		if kind != "stream" {
			continue
		}
		var text multiline
		if err := json.Unmarshal(o["text"], &text); err != nil {
			return nil, "", fmt.Errorf("output %d: text: %w", j, err)
		}
		_ = json.Unmarshal(o["name"], &name)
		texts[j], streams[name] = string(text), true
		total += len(text)
	}
	if total <= maxCellPrint {
		return outs, "", nil
	}
	// Keep the bytes [0, head) and [tail, total) of the cell's printed text, at line ends.
	head, tail := keepHead, total-keepTail
	note := fmt.Sprintf("\n[... cut here by the report: this cell printed %s; a report shows the first %s and the last %s of a cell that printed more than %s ...]\n",
		size(total), size(keepHead), size(keepTail), size(maxCellPrint))
	var kept []map[string]json.RawMessage
	noted := false
	at := 0 // offset of the current output's text in the cell's printed text
	for j, o := range outs {
		var kind string
		_ = json.Unmarshal(o["output_type"], &kind)
		if kind != "stream" {
			kept = append(kept, o)
			continue
		}
		t := texts[j]
		var b strings.Builder
		if at < head {
			b.WriteString(lineCut(t[:min(len(t), head-at)], true))
		}
		if !noted && at+len(t) > head {
			b.WriteString(note)
			noted = true
		}
		if at+len(t) > tail {
			b.WriteString(lineCut(t[max(0, tail-at):], false))
		}
		at += len(t)
		if b.Len() == 0 {
			continue
		}
		raw, err := json.Marshal(b.String())
		if err != nil {
			return nil, "", err
		}
		o["text"] = raw
		kept = append(kept, o)
	}
	names := make([]string, 0, len(streams))
	for _, n := range []string{"stdout", "stderr"} {
		if streams[n] {
			names = append(names, n)
		}
	}
	return kept, fmt.Sprintf("printed %s to %s", size(total), strings.Join(names, " and ")), nil
}

// lineCut trims a piece of text cut out of a longer one to whole lines: a head piece ends after
// its last newline, a tail piece starts after its first (a piece without one is kept).
func lineCut(s string, head bool) string {
	if head {
		if k := strings.LastIndexByte(s, '\n'); k >= 0 {
			return s[:k+1]
		}
		return s
	}
	if k := strings.IndexByte(s, '\n'); k >= 0 && k+1 < len(s) {
		return s[k+1:]
	}
	return s
}

// size writes a byte count for a reader: 16 kB, 1 MB, 100.0 MB (decimal units).
func size(n int) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}
