package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/nbrun"
)

// Progress lines. On a terminal, one status line shows every running notebook's cell and is
// rewritten in place; elsewhere (a log, make's output) a line is printed for a cell that ran
// at least slowCell, and for a cell still running after slowCell*5 (then every minute), so a
// notebook whose results come from the cache prints only its result line.
const (
	slowCell     = 2 * time.Second
	runningEvery = time.Minute
)

// printer writes nbreports' lines; the notebooks running at once share it.
type printer struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	status   map[string]string    // terminal: each running notebook's state
	shown    bool                 // terminal: a status line is on screen
	lines    map[string]lineState // elsewhere: what was printed of each notebook's running cell
}

type lineState struct {
	cell int
	at   time.Duration // the cell's time at its last line
}

// println prints a line (above the status line, on a terminal).
func (p *printer) println(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, format+"\n", args...)
	p.draw()
}

func (p *printer) clear() {
	if p.terminal && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

func (p *printer) draw() {
	if !p.terminal || len(p.status) == 0 {
		return
	}
	names := make([]string, 0, len(p.status))
	for n := range p.status {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, p.status[n])
	}
	line := []rune(strings.Join(parts, " | "))
	if w := width(); len(line) > w { // a wrapped line could not be rewritten in place
		line = append(line[:w-1], '…')
	}
	fmt.Fprint(p.w, string(line))
	p.shown = true
}

// width is the terminal's width: $COLUMNS, else 100.
func width() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= 20 {
		return n - 1
	}
	return 100
}

// progress shows where the notebook stem's run is.
func (p *printer) progress(stem string, pr nbrun.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		p.clear()
		p.status[stem] = fmt.Sprintf("%s %d/%d %.0fs %s; %s; %.0fs", stem, pr.Cell, pr.Cells, pr.CellElapsed.Seconds(), pr.Label, results(pr), pr.Elapsed.Seconds())
		p.draw()
		return
	}
	last := p.lines[stem]
	switch {
	case pr.Done && (pr.CellElapsed >= slowCell || pr.Failed):
		state := "ran"
		if pr.Failed {
			state = "FAILED after"
		}
		fmt.Fprintf(p.w, "  %s cell %d/%d %s %.1fs: %s; %s; %.1fs in\n", stem, pr.Cell, pr.Cells, state, pr.CellElapsed.Seconds(), pr.Label, results(pr), pr.Elapsed.Seconds())
	case !pr.Done && pr.CellElapsed >= 5*slowCell && (last.cell != pr.Cell || pr.CellElapsed-last.at >= runningEvery):
		fmt.Fprintf(p.w, "  %s cell %d/%d running %.0fs: %s; %s; %.1fs in\n", stem, pr.Cell, pr.Cells, pr.CellElapsed.Seconds(), pr.Label, results(pr), pr.Elapsed.Seconds())
		p.lines[stem] = lineState{pr.Cell, pr.CellElapsed}
	}
}

// finished removes the notebook stem from the status line: its cells have run.
func (p *printer) finished(stem string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	delete(p.status, stem)
	delete(p.lines, stem)
	p.draw()
}

// results says what the run log holds so far: "no results yet", "3 results (2 from the cache)".
func results(pr nbrun.Progress) string {
	switch r := pr.Run; {
	case r.Results == 0:
		return "no results yet"
	case r.FromCache == 0:
		return fmt.Sprintf("%d computed", r.Results)
	case r.FromCache == r.Results:
		return fmt.Sprintf("%d from the cache", r.Results)
	default:
		return fmt.Sprintf("%d computed, %d from the cache", r.Results-r.FromCache, r.FromCache)
	}
}
