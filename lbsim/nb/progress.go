package nb

import (
	"fmt"
	"html"
	"io"
	"os"
	"sync"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
)

// Minimum time between two renderings of a Progress: a sweep adding
// thousands of points must not flood the notebook (or the terminal).
const (
	notebookInterval = 200 * time.Millisecond // at most 5 updates a second
	terminalInterval = time.Second
)

// Progress reports how far a long computation has got: in a notebook, an
// HTML progress bar with the count, elapsed time and estimated time left,
// updated in place; outside one, a line on stderr when it is a terminal,
// otherwise nothing. It is safe for concurrent use.
//
//	p := nb.NewProgress("staleness sweep", len(points))
//	for ... { ...; p.Add(1) }
//	p.Done()
type Progress struct {
	label string
	total int

	mu       sync.Mutex
	count    int
	start    time.Time
	shown    time.Time // last rendering
	finished bool
	id       string    // GoNB display id of the transient bar
	term     io.Writer // nil unless printing to a terminal
	now      func() time.Time
}

// NewProgress starts reporting a computation of total steps; total <= 0
// means unknown, shown without a bar or time left.
func NewProgress(label string, total int) *Progress {
	p := &Progress{label: label, total: total, now: time.Now}
	p.start = p.now()
	if frontEnd.isNotebook {
		p.id = "lbsim-progress-" + gonbui.UniqueId()
	} else if isTerminal(os.Stderr) {
		p.term = os.Stderr
	}
	p.render()
	return p
}

// Add records n more finished steps and redraws the bar if the last drawing
// is older than the throttle interval. Calls after Done are ignored.
func (p *Progress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.count += n
	interval := notebookInterval
	if p.term != nil {
		interval = terminalInterval
	}
	if p.now().Sub(p.shown) >= interval {
		p.renderLocked()
	}
}

// Count returns the number of steps recorded so far.
func (p *Progress) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}

// Done ends the report: in a notebook the bar is replaced, in place, by a
// one-line summary (count and total time), which is what a saved notebook
// or an exported report keeps. Only the first call has effect.
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	elapsed := p.now().Sub(p.start)
	summary := fmt.Sprintf("%s: %s steps in %s", p.label, p.countText(), roundDuration(elapsed))
	switch {
	case p.id != "":
		frontEnd.updateHTML(p.id, fmt.Sprintf(`<div style="font-family:sans-serif;font-size:13px;color:#444">%s</div>`, html.EscapeString(summary)))
		frontEnd.sync()
	case p.term != nil:
		fmt.Fprintf(p.term, "\r%s\n", summary)
	}
}

func (p *Progress) render() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.renderLocked()
}

func (p *Progress) renderLocked() {
	p.shown = p.now()
	switch {
	case p.id != "":
		frontEnd.updateHTML(p.id, p.html())
	case p.term != nil:
		fmt.Fprintf(p.term, "\r%s: %s%s", p.label, p.countText(), p.timeText())
	}
}

func (p *Progress) html() string {
	bar := ""
	if p.total > 0 {
		bar = fmt.Sprintf(`<progress value="%d" max="%d" style="width:240px;vertical-align:middle"></progress> `, min(p.count, p.total), p.total)
	}
	return fmt.Sprintf(`<div style="font-family:sans-serif;font-size:13px">%s %s%s%s</div>`,
		html.EscapeString(p.label), bar, html.EscapeString(p.countText()), html.EscapeString(p.timeText()))
}

// countText is "12/30 (40%)", or "12" when the total is unknown.
func (p *Progress) countText() string {
	if p.total <= 0 {
		return fmt.Sprint(p.count)
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", p.count, p.total, 100*float64(p.count)/float64(p.total))
}

// timeText gives the elapsed time and, once a step is done, the time left
// estimated at the average rate so far: elapsed * (total - count) / count.
func (p *Progress) timeText() string {
	elapsed := p.now().Sub(p.start)
	s := ", elapsed " + roundDuration(elapsed)
	if p.total > 0 && p.count > 0 && p.count < p.total {
		left := time.Duration(float64(elapsed) * float64(p.total-p.count) / float64(p.count))
		s += ", about " + roundDuration(left) + " left"
	}
	return s
}

// roundDuration keeps durations readable: 0.1 s below a minute, else 1 s.
func roundDuration(d time.Duration) string {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
