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

// ProgressClass marks the HTML of a progress bar, so that a report drops
// it (lbsim/internal/nbrun) even when its cell stopped before Done.
const ProgressClass = "lbsim-progress"

// Minimum time between two renderings of a Progress: a sweep adding
// thousands of points must not flood the notebook (or the terminal).
const (
	notebookInterval = 200 * time.Millisecond // at most 5 updates a second
	terminalInterval = time.Second
)

// Progress reports how far a long computation has got: in a notebook, an
// HTML progress bar with the count, elapsed time and estimated time left,
// updated in place and cleared when done; outside one, a line on stderr when it is a terminal,
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

// Done ends the report. In a notebook the bar clears itself, in place: a
// saved notebook and its reports must read the same whether the result was
// computed or came from the cache, which shows no bar (issue 22), so no
// "30/30 steps in 1.1s" stays under the cell; the time spent computing goes
// to the run log that the reports' index reads (runlog.go). In a terminal
// the summary line stays. Only the first call has effect.
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	switch {
	case p.id != "":
		frontEnd.updateHTML(p.id, `<div class="`+ProgressClass+`"></div>`)
		frontEnd.sync()
	case p.term != nil:
		elapsed := p.now().Sub(p.start)
		fmt.Fprintf(p.term, "\r%s: %s steps in %s\n", p.label, p.countText(), roundDuration(elapsed))
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
	return fmt.Sprintf(`<div class="%s" style="font-family:sans-serif;font-size:13px">%s %s%s%s</div>`,
		ProgressClass, html.EscapeString(p.label), bar, html.EscapeString(p.countText()), html.EscapeString(p.timeText()))
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
