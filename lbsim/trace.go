package lbsim

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Trace is a recorded sequence of jobs: arrival times (non-decreasing) and
// sizes. Replaying a trace replaces the arrival process and the size law.
type Trace struct {
	Times, Sizes []float64
}

// Len is the number of jobs in the trace.
func (tr Trace) Len() int { return len(tr.Times) }

// Mean is the mean job size of the trace.
func (tr Trace) Mean() float64 { return NewEmpirical(tr.Sizes).Mean() }

// ReadTrace reads a CSV of "arrival_time,size" rows. A first line that is not
// numeric is taken as a header; blank lines and lines starting with '#' are
// skipped. Errors name the line number and what to fix.
func ReadTrace(r io.Reader) (Trace, error) {
	var tr Trace
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line, seen := 0, false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, ",")
		if len(fields) < 2 {
			return Trace{}, fmt.Errorf("trace line %d: %q has %d field(s): need two comma-separated numbers, arrival_time,size", line, text, len(fields))
		}
		t, errT := strconv.ParseFloat(strings.TrimSpace(fields[0]), 64)
		x, errX := strconv.ParseFloat(strings.TrimSpace(fields[1]), 64)
		if (errT != nil || errX != nil) && !seen {
			seen = true
			continue // a header such as "arrival,duration"
		}
		seen = true
		switch {
		case errT != nil:
			return Trace{}, fmt.Errorf("trace line %d: arrival time %q is not a number; write it as e.g. 12.5", line, fields[0])
		case errX != nil:
			return Trace{}, fmt.Errorf("trace line %d: size %q is not a number; write it as e.g. 100", line, fields[1])
		case math.IsNaN(t) || math.IsInf(t, 0) || t < 0:
			return Trace{}, fmt.Errorf("trace line %d: arrival time %v is invalid: need a finite time >= 0", line, t)
		case math.IsNaN(x) || math.IsInf(x, 0) || x <= 0:
			return Trace{}, fmt.Errorf("trace line %d: size %v is invalid: need a finite size > 0 (durations cannot be negative or zero)", line, x)
		case tr.Len() > 0 && t < tr.Times[tr.Len()-1]:
			return Trace{}, fmt.Errorf("trace line %d: arrival time %v is before the previous one (%v): times must be non-decreasing; sort the trace by arrival time", line, t, tr.Times[tr.Len()-1])
		}
		tr.Times = append(tr.Times, t)
		tr.Sizes = append(tr.Sizes, x)
	}
	if err := sc.Err(); err != nil {
		return Trace{}, fmt.Errorf("trace: reading line %d: %w", line+1, err)
	}
	if tr.Len() == 0 {
		return Trace{}, fmt.Errorf("trace: no jobs found; need rows of arrival_time,size")
	}
	return tr, nil
}

// LoadTrace reads a trace CSV file (see ReadTrace).
func LoadTrace(path string) (Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return Trace{}, fmt.Errorf("trace: %w", err)
	}
	defer f.Close()
	tr, err := ReadTrace(f)
	if err != nil {
		return Trace{}, fmt.Errorf("%s: %w", path, err)
	}
	return tr, nil
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
