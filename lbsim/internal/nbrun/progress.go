package nbrun

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

//go:embed execute.py
var executeScript string

// Progress is where a notebook's run is, as [Execute] tells opts.Progress.
type Progress struct {
	// Cell is the code cell that runs or just ended, counted from 1 among the code cells that
	// run (those with source); Cells is how many there are.
	Cell, Cells int
	// Label is the cell's first line (without "%%"); for a cell that opens with imports or a
	// comment, the first line of its %% body, or else the latest markdown heading.
	Label string
	// Done is set when the cell has ended; Failed when it ended with an error.
	Done, Failed bool
	// CellElapsed is the cell's run time so far, Elapsed the notebook's.
	CellElapsed, Elapsed time.Duration
	// Run is what the notebook's programs have logged so far: results computed and read from
	// the cache (see runlog). The log says when a result is done, not when its computing
	// starts: a cell that computes shows its results as they end.
	Run runlog.Summary
}

// runCells executes the notebook abs into out with execute.py, calling opts.Progress.
func runCells(ctx context.Context, abs, out string, opts Options, env []string, logPath string) error {
	if _, err := os.Stat(Python); err != nil {
		return fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's jupyter-nbconvert)", Python)
	}
	labels, err := codeLabels(abs)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, Python, "-c", executeScript, abs, out, opts.Kernel,
		fmt.Sprint(int(opts.CellTimeout.Seconds())))
	cmd.Dir = filepath.Dir(abs)
	// PYDEVD_DISABLE_FILE_VALIDATION silences a debugger warning of Debian's python 3.11 ipykernel.
	cmd.Env = append(append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1"), env...)
	cmd.WaitDelay = 10 * time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var log logTail
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("notebook runner: %w", err)
	}
	// Events arrive on stdout; a ticker repeats the running cell's state every second.
	type event struct {
		Start  *int   `json:"start"`
		End    *int   `json:"end"`
		Status string `json:"status"`
	}
	events := make(chan event)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events <- e
			} else {
				log.add(sc.Text())
			}
		}
	}()
	var p Progress
	p.Cells = len(labels.order)
	var cellStart time.Time
	running := false
	report := func() {
		if opts.Progress == nil {
			return
		}
		now := time.Now()
		p.Elapsed = now.Sub(start)
		p.CellElapsed = now.Sub(cellStart)
		if s, err := runlog.Read(logPath); err == nil { // a line being written fails: next time
			p.Run = s
		}
		opts.Progress(p)
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
loop:
	for {
		select {
		case e, ok := <-events:
			if !ok {
				break loop
			}
			switch {
			case e.Start != nil:
				p.Cell = labels.number[*e.Start]
				p.Label = labels.label[*e.Start]
				p.Done, p.Failed = false, false
				cellStart, running = time.Now(), true
			case e.End != nil:
				p.Done, p.Failed, running = true, e.Status != "ok", false
			}
			report()
		case <-tick.C:
			if running {
				report()
			}
		}
	}
	err = cmd.Wait()
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = errors.Join(ctxErr, err)
	}
	for _, l := range strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n") {
		log.add(l)
	}
	return fmt.Errorf("jupyter nbconvert --execute (execute.py): %w\n%s", err, tail(log.String(), 40))
}

// cellLabels are a notebook's code cells that nbclient runs (those with source), by index
// among all cells: their number counted from 1 and their label (see [Progress]).
type cellLabels struct {
	order  []int
	number map[int]int
	label  map[int]string
}

func codeLabels(path string) (cellLabels, error) {
	l := cellLabels{number: map[int]int{}, label: map[int]string{}}
	nb, err := loadNotebook(path)
	if err != nil {
		return l, err
	}
	heading := ""
	for i, c := range nb.cells {
		src := cellSource(c)
		if cellType(c) == "markdown" {
			for _, line := range strings.Split(src, "\n") {
				if strings.HasPrefix(line, "#") {
					heading = strings.TrimSpace(line)
					break
				}
			}
			continue
		}
		if cellType(c) != "code" || strings.TrimSpace(src) == "" {
			continue
		}
		l.order = append(l.order, i)
		l.number[i] = len(l.order)
		first, body := "", ""
		inBody := false
		for _, line := range strings.Split(src, "\n") {
			t := strings.TrimSpace(line)
			switch {
			case t == "%%":
				inBody = true
			case t == "":
			case first == "":
				first = t
				if inBody {
					body = t
				}
			case inBody && body == "":
				body = t
			}
		}
		if strings.HasPrefix(first, "//") || strings.HasPrefix(first, "import") {
			switch {
			case body != "":
				first = body
			case heading != "":
				first = heading
			}
		}
		if strings.Contains(src, "%goworkfix") {
			first = "set-up cell (imports lbsim)"
		}
		if r := []rune(first); len(r) > 48 {
			first = string(r[:47]) + "…"
		}
		l.label[i] = first
	}
	return l, nil
}
