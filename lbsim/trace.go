package lbsim

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Trace is a recorded sequence of jobs: arrival times (non-decreasing) and
// sizes. Replaying a trace replaces the arrival process and the size law.
type Trace struct {
	Times, Sizes []float64
	// Dispatchers, if not nil, is the dispatcher each job went through,
	// 0 <= d < Config.Dispatchers, as a log of several proxies records it:
	// the replay routes each job there instead of drawing its dispatcher.
	Dispatchers []int
	// Source is the file the trace was read from (LoadTrace), "" for one
	// built in Go; Config.Key knows a trace by its values, not by Source.
	Source string
}

// Len is the number of jobs in the trace.
func (tr Trace) Len() int { return len(tr.Times) }

// Mean is the mean job size of the trace.
func (tr Trace) Mean() float64 { return NewEmpirical(tr.Sizes).Mean() }

// MaxTraceJobs bounds the jobs of a trace, held in memory: an endless
// stream (a pipe never closed) stops there with an error, not out of memory.
const MaxTraceJobs = 50_000_000

// traceJobLimit is MaxTraceJobs; tests lower it.
var traceJobLimit = MaxTraceJobs

// ReadTrace reads a CSV of "arrival_time,size" rows, numbers plain decimals
// (no hex, '_', '+' or Inf), at most MaxTraceJobs. A first row of names
// (isHeader) is a header; any other must parse: a mistyped first row is an
// error, not a lost job. A UTF-8 byte order mark, blank lines and lines
// starting with '#' are skipped. Errors name the line and the fix.
func ReadTrace(r io.Reader) (Trace, error) {
	var tr Trace
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line, first := 0, true
	for sc.Scan() {
		line++
		raw := sc.Text()
		if line == 1 {
			raw = strings.TrimPrefix(raw, "\uFEFF")
		}
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, ",")
		for k := range fields {
			fields[k] = strings.TrimSpace(fields[k])
		}
		if len(fields) != 2 {
			return Trace{}, fmt.Errorf("trace line %d: %q has %d field(s): need exactly two comma-separated numbers, arrival_time,size; remove the other columns", line, clipText(text), len(fields))
		}
		if first {
			first = false
			if isHeader(fields) {
				continue
			}
		}
		t, errT := number.Float(fields[0])
		x, errX := number.Float(fields[1])
		switch {
		case errT != nil:
			return Trace{}, fmt.Errorf("trace line %d: arrival time %v", line, errT)
		case errX != nil:
			return Trace{}, fmt.Errorf("trace line %d: size %v", line, errX)
		case math.IsNaN(t) || math.IsInf(t, 0) || t < 0:
			return Trace{}, fmt.Errorf("trace line %d: arrival time %v is invalid: need a finite time >= 0", line, t)
		case math.IsNaN(x) || math.IsInf(x, 0) || x <= 0:
			return Trace{}, fmt.Errorf("trace line %d: size %v is invalid: need a finite size > 0 (durations cannot be negative or zero)", line, x)
		case tr.Len() > 0 && t < tr.Times[tr.Len()-1]:
			return Trace{}, fmt.Errorf("trace line %d: arrival time %v is before the previous one (%v): times must be non-decreasing; sort the trace by arrival time", line, t, tr.Times[tr.Len()-1])
		case tr.Len() == traceJobLimit:
			return Trace{}, fmt.Errorf("trace line %d: the trace has more than %d jobs, the most lbsim holds in memory (16 bytes a job); replay a part of it (head -n %d), or an endless stream in parts", line, traceJobLimit, traceJobLimit)
		}
		tr.Times = append(tr.Times, t)
		tr.Sizes = append(tr.Sizes, x)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return Trace{}, fmt.Errorf("trace line %d is longer than 1 MiB: a row is arrival_time,size; check that the file is a trace CSV, one job per line", line+1)
	} else if err != nil {
		return Trace{}, fmt.Errorf("trace: reading line %d: %w", line+1, err)
	}
	if tr.Len() == 0 {
		return Trace{}, fmt.Errorf("trace: no jobs found; need rows of arrival_time,size")
	}
	return tr, nil
}

// isHeader reports whether every field is a column name: an ASCII letter or
// '_' first, then only ASCII letters, digits and "_ ()[]/-" (no '.': "O.5"
// is a mistyped number; no other script: full-width digits "１２" are data
// that fails to parse). Inf and NaN are numbers to strconv, not names.
func isHeader(fields []string) bool {
	for _, f := range fields {
		if f == "" || !(isASCIILetter(f[0]) || f[0] == '_') {
			return false
		}
		if _, err := strconv.ParseFloat(f, 64); err == nil { // inf, nan
			return false
		}
		for i := 0; i < len(f); i++ {
			if !(isASCIILetter(f[i]) || '0' <= f[i] && f[i] <= '9' || strings.IndexByte("_ ()[]/-", f[i]) >= 0) {
				return false
			}
		}
	}
	return true
}

func isASCIILetter(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' }

func clipText(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// LoadTrace reads a trace CSV file (see ReadTrace). A file of 1 MiB or
// more is parsed once per machine (parse_cache.go).
func LoadTrace(path string) (Trace, error) {
	var parseErr error
	cols, _, err := parseFile(path, "trace", "the trace CSV file", 2, func(r io.Reader) ([][]float64, error) {
		tr, err := ReadTrace(r)
		parseErr = err
		return [][]float64{tr.Times, tr.Sizes}, err
	})
	switch {
	case parseErr != nil:
		return Trace{}, fmt.Errorf("%s: %w", path, parseErr)
	case errors.Is(err, files.ErrNotRegular), errors.Is(err, files.ErrNoWriter):
		return Trace{}, err // names the trace file already
	case err != nil:
		return Trace{}, fmt.Errorf("trace: %w", err)
	}
	return Trace{Times: cols[0], Sizes: cols[1], Source: path}, nil
}

// readTraceFile is the trace field's reader (no trace is the field left out).
func readTraceFile(path string) (*Trace, error) {
	tr, err := LoadTrace(path)
	if err != nil {
		return nil, err
	}
	return &tr, nil
}

// traceSource is the trace field's text: the file it came from.
func traceSource(tr *Trace) string {
	if tr == nil {
		return ""
	}
	return tr.Source
}

// traceKey is a trace's part of Config.Key: its length and values' hash.
func traceKey(c *Config) string {
	if c.Trace == nil {
		return "none"
	}
	key := fmt.Sprintf("%d#%016x#%016x", c.Trace.Len(), hashFloats(c.Trace.Times), hashFloats(c.Trace.Sizes))
	if ds := c.Trace.Dispatchers; ds != nil {
		h := fnvOffset
		for _, d := range ds {
			h = fnvUint64(h, uint64(d))
		}
		key += fmt.Sprintf("#d%016x", h)
	}
	return key
}

// traceName is a trace's column and its name in messages, by its content
// as a size file's (SizeFile.shortName): its file's base name and the start
// of its jobs' hash, "trace1.csv#3f2a91c04b1e", so that two traces at one
// path differ and one trace is one name wherever it lies; a trace built in
// Go, its length and hash.
func traceName(tr *Trace) string {
	if tr == nil {
		return ""
	}
	h := fmt.Sprintf("%016x", hashFloats(tr.Sizes)^hashFloats(tr.Times))
	if tr.Source != "" {
		return filepath.Base(tr.Source) + "#" + h[:12]
	}
	return fmt.Sprintf("%d jobs #%s", tr.Len(), h)
}

// WriteTrace writes the trace as CSV with the header "arrival,size".
func (tr Trace) WriteTrace(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "arrival,size")
	for i := range tr.Times {
		fmt.Fprintf(bw, "%s,%s\n", fmtNum(tr.Times[i]), fmtNum(tr.Sizes[i]))
	}
	return bw.Flush()
}

// Load is the trace's offered load rho = lambda E[X] / capacity, lambda =
// (n-1)/(t_n - t_1) the arrival rate over its span and E[X] its mean size;
// NaN when all arrivals share one instant.
func (tr Trace) Load(capacity float64) float64 {
	n := tr.Len()
	if n < 2 || !(tr.Times[n-1] > tr.Times[0]) {
		return math.NaN()
	}
	lambda := float64(n-1) / (tr.Times[n-1] - tr.Times[0])
	return lambda * tr.Mean() / capacity
}
