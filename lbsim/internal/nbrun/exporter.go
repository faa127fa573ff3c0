package nbrun

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// Python is the interpreter of the HTML exporter: Debian's, which has nbconvert ([Jupyter] runs
// on it too).
const Python = "/usr/bin/python3"

//go:embed export.py
var exportScript string

// A process starts one Python running nbconvert's HTMLExporter, on first use, and sends it every
// HTML export: `jupyter nbconvert --to html` costs about 1.4 CPU-s an export (Python's start,
// nbconvert's imports, its entry points, the notebook schema and the template compiled), the
// exporter kept warm 0.1-0.35 CPU-s. Its page is the command's, byte for byte
// (TestExporterIsNbconvert). Exports take turns; an exporter that ended is replaced on the next
// export, and one that overran exportTimeout is killed.
var sharedExporter struct {
	sync.Mutex
	p *pyExporter
}

// pyExporter is a running export.py.
type pyExporter struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	replies *bufio.Reader
	log     *logTail      // its standard error
	exited  chan struct{} // closed when the process has ended
}

// nbconvertExport writes nbconvert's HTML export (lab template) of the notebook src to dst.
func nbconvertExport(ctx context.Context, src, dst string) error {
	sharedExporter.Lock()
	defer sharedExporter.Unlock()
	if p := sharedExporter.p; p != nil && p.dead() {
		p.stop()
		sharedExporter.p = nil
	}
	if sharedExporter.p == nil {
		p, err := startExporter()
		if err != nil {
			return err
		}
		sharedExporter.p = p
	}
	failed, err := sharedExporter.p.export(ctx, src, dst)
	if failed { // the process, not the notebook: the next export starts another
		sharedExporter.p.stop()
		sharedExporter.p = nil
	}
	return err
}

// WarmExporter starts the HTML exporter now, if it is not running, so that the first export
// does not wait for Python's and nbconvert's start (about 1.4 CPU-s): cmd/nbreports calls it
// while the first notebook runs.
func WarmExporter() error {
	sharedExporter.Lock()
	defer sharedExporter.Unlock()
	if sharedExporter.p != nil && !sharedExporter.p.dead() {
		return nil
	}
	p, err := startExporter()
	if err == nil {
		sharedExporter.p = p
	}
	return err
}

// startExporter starts export.py; the kernel kills it when this process dies (Pdeathsig), and
// it ends by itself when its input closes.
func startExporter() (*pyExporter, error) {
	if _, err := os.Stat(Python); err != nil {
		return nil, fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's jupyter-nbconvert)", Python)
	}
	p := &pyExporter{log: &logTail{}, exited: make(chan struct{})}
	p.cmd = exec.Command(Python, "-c", exportScript)
	p.cmd.Env = append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1")
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.replies = bufio.NewReader(out)
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("nbconvert exporter: %w", err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.log.add(sc.Text())
		}
		_, _ = io.Copy(io.Discard, stderr)
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// export asks for one export and waits for the reply, or kills the exporter when ctx ends first.
// failed reports that the exporter cannot take another export.
func (p *pyExporter) export(ctx context.Context, src, dst string) (failed bool, err error) {
	req, err := json.Marshal(map[string]string{"src": src, "dst": dst})
	if err != nil {
		return false, err
	}
	stopKill := context.AfterFunc(ctx, func() { _ = p.cmd.Process.Kill() })
	defer stopKill()
	var line []byte
	if _, err = p.in.Write(append(req, '\n')); err == nil {
		line, err = p.replies.ReadBytes('\n')
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr
		}
		return true, fmt.Errorf("nbconvert exporter: %w\n%s", err, tail(p.log.String(), 40))
	}
	var reply struct{ Error string }
	if err := json.Unmarshal(line, &reply); err != nil {
		return true, fmt.Errorf("nbconvert exporter replied %q: %w", line, err)
	}
	if reply.Error != "" {
		return false, fmt.Errorf("nbconvert: %s", reply.Error)
	}
	return false, nil
}

// dead reports whether the exporter's process has ended.
func (p *pyExporter) dead() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// stop ends the exporter and waits for its process.
func (p *pyExporter) stop() {
	p.in.Close()
	_ = p.cmd.Process.Kill()
	<-p.exited
}
