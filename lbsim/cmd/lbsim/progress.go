package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress reports a long sweep on stderr: a bar with an ETA redrawn in place
// when stderr is a terminal, otherwise a plain line at most every interval
// (batch logs, pipes). ETA = elapsed * (total - done) / done, which assumes
// the remaining configurations cost what the finished ones did on average.
type progress struct {
	w        io.Writer
	tty      bool
	label    string
	interval time.Duration // between plain lines
	now      func() time.Time
	start    time.Time
	last     time.Time // of the last plain line
}

func newProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && isTerminal(f), label: label, interval: 10 * time.Second, now: time.Now, start: time.Now()}
}

// isTerminal reports whether f is a character device (a terminal), without
// golang.org/x/term.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update is called after each configuration with the number done of total.
func (p *progress) update(done, total int) {
	now := p.now()
	elapsed := now.Sub(p.start)
	eta := "?"
	if done > 0 {
		eta = roundDuration(time.Duration(float64(elapsed) * float64(total-done) / float64(done))).String()
	}
	pct := 100.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	if p.tty {
		const width = 30
		fill := width
		if total > 0 {
			fill = width * done / total
		}
		fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d %3.0f%% elapsed %v ETA %s\x1b[K",
			p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total, pct, roundDuration(elapsed), eta)
		if done == total {
			fmt.Fprintln(p.w)
		}
		return
	}
	if done == total || done == 1 || now.Sub(p.last) >= p.interval {
		fmt.Fprintf(p.w, "%s: %d/%d configurations (%.0f%%), elapsed %v, ETA %s\n", p.label, done, total, pct, roundDuration(elapsed), eta)
		p.last = now
	}
}

func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
