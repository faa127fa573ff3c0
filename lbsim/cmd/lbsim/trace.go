package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// traceInput is a -trace read once: its jobs, and the SHA-256 of exactly the
// bytes they were parsed from, which identifies the trace in sweep ids. A
// pipe (-trace /dev/stdin, a process substitution) cannot be read twice, so
// the id must not come from a second read.
type traceInput struct {
	path   string
	trace  lbsim.Trace
	sha256 string
}

// traceInput reads c.trace, once per path.
func (c *configFlags) traceInput() (*traceInput, error) {
	if c.input != nil && c.input.path == c.trace {
		return c.input, nil
	}
	f, err := os.Open(c.trace)
	if err != nil {
		return nil, files.Describe(err, "-trace: reading", c.trace)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("-trace %s is a folder; give the trace's CSV file", c.trace)
	}
	h := sha256.New()
	tr, err := lbsim.ReadTrace(io.TeeReader(f, h))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.trace, err)
	}
	c.input = &traceInput{path: c.trace, trace: tr, sha256: hex.EncodeToString(h.Sum(nil))}
	return c.input, nil
}
