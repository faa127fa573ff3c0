package nbrun

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Server is a Jupyter Notebook server on a free loopback port, with a random token, serving
// one folder: what a browser needs to run a notebook with a live front-end (GoNB widgets talk
// to the kernel over the server's websocket, which nbconvert does not have).
type Server struct {
	URL   string // base URL, "http://127.0.0.1:PORT/"
	Token string
	cmd   *exec.Cmd
	out   *syncBuffer
	done  chan struct{}
	err   error // cmd.Wait's result, once done is closed
}

// StartServer starts `jupyter notebook` on dir and waits until it answers (up to a minute).
// Close stops it and the kernels it started.
func StartServer(ctx context.Context, dir string) (*Server, error) {
	if _, err := os.Stat(Jupyter); err != nil {
		return nil, fmt.Errorf("%s not found: run .ci/setup.sh (installs Debian's jupyter-notebook)", Jupyter)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	tok := make([]byte, 16)
	if _, err := rand.Read(tok); err != nil {
		return nil, err
	}
	runtime, err := os.MkdirTemp("", "nbrun-jupyter-runtime-")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d/", port), Token: hex.EncodeToString(tok),
		out: &syncBuffer{}, done: make(chan struct{})}
	args := []string{"notebook", "--no-browser", "--ip=127.0.0.1", "--port=" + strconv.Itoa(port),
		"--port-retries=0", "--NotebookApp.token=" + s.Token, "--notebook-dir=" + dir}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	s.cmd = exec.Command(Jupyter, args...)
	s.cmd.Dir = dir
	// A runtime folder of its own: connection files of this server do not mix with a user's.
	s.cmd.Env = append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1", "JUPYTER_RUNTIME_DIR="+runtime)
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	// Its own process group, so that Close reaches what it started; SIGTERM (a clean shutdown
	// of its kernels) if this process dies without calling Close.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(runtime)
		return nil, fmt.Errorf("start %s notebook: %w", Jupyter, err)
	}
	go func() {
		s.err = s.cmd.Wait()
		os.RemoveAll(runtime)
		close(s.done)
	}()
	if err := s.waitReady(ctx, time.Minute); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// waitReady polls the server's status API until it answers 200.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("jupyter notebook exited before answering: %v\n%s", s.err, tail(s.out.String(), 30))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		resp, err := http.Get(s.URL + "api/status?token=" + s.Token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return fmt.Errorf("jupyter notebook did not answer on %s within %v:\n%s", s.URL, timeout, tail(s.out.String(), 30))
}

// NotebookURL is the address that opens the notebook at path (relative to the served folder)
// in the browser, logged in with the token.
func (s *Server) NotebookURL(path string) string {
	return s.URL + "notebooks/" + filepath.ToSlash(path) + "?token=" + s.Token
}

// Log is the server's output so far (kernel messages included).
func (s *Server) Log() string { return s.out.String() }

// Close stops the server: SIGTERM, on which Jupyter shuts its kernels down, then SIGKILL to
// the whole process group after 15 s. It is safe to call more than once.
func (s *Server) Close() error {
	select {
	case <-s.done:
		return nil
	default:
	}
	pgid := -s.cmd.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(pgid, syscall.SIGKILL)
		<-s.done
		return errors.New("jupyter notebook did not stop within 15 s of SIGTERM: killed")
	}
	// Kernels that outlived the server (they should not) go with the group.
	_ = syscall.Kill(pgid, syscall.SIGKILL)
	return nil
}

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("no free loopback port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer is a bytes.Buffer written by a process and read by a test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
