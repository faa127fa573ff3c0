package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// setup is one proxy configuration and the lbsim configuration that models
// it. The proxies' rules, from their sources:
//   - HAProxy roundrobin and nginx's default: round robin (lbsim rr).
//   - HAProxy leastconn: fewest active connections among all servers, ties
//     to the server whose count changed longest ago (lbsim jsq:ties=oldest).
//   - nginx least_conn: fewest active connections, ties by its smooth
//     weighted round robin among the tied (lbsim wlc); with one worker, or
//     the workers sharing their counts through a zone.
//   - HAProxy random(2) (get_server_rnd in backend.c): two independent draws
//     on the consistent-hash ring, the second kept unless it serves more than
//     the first; the draws may fall on the same server, so with replacement:
//     jsq:d=2,replace=1.
//   - nginx random two least_conn (ngx_http_upstream_get_random2_peer): a
//     second draw equal to the first is drawn again, so two distinct
//     servers: jsq:d=2.
//   - nginx with several workers and no zone: each worker counts only its own
//     connections and keeps its own round-robin state: lbsim -dispatchers M
//     (-view own for the policies that read counts), M the workers seen,
//     each request replayed through the worker that took it (its $pid,
//     lbsim.Trace.Dispatchers): the kernel hands runs of connections to the
//     worker that is awake (the "same w" column), which a draw a request
//     would not follow.
type setup struct {
	Proxy   string // "haproxy" or "nginx"
	Algo    string // the proxy's own words for its balancing rule
	Workers int    // nginx worker_processes; 1 for HAProxy (one process, its threads share one state)
	Zone    bool   // nginx: a shared memory zone in the upstream
	Policy  string // lbsim's -policy
}

// Separate tells whether the workers keep separate state, each counting
// only its own connections and keeping its own rotation: nginx with several
// workers and no zone.
func (s setup) Separate() bool { return s.Proxy == "nginx" && s.Workers > 1 && !s.Zone }

// Name is the setup's label in the table: "nginx least_conn w4 zone".
func (s setup) Name() string {
	name := s.Proxy + " " + s.Algo
	if s.Proxy == "nginx" {
		name += fmt.Sprintf(" w%d", s.Workers)
		if s.Workers > 1 {
			if s.Zone {
				name += " zone"
			} else {
				name += " nozone"
			}
		}
	}
	return name
}

// setups is the one table of the configurations a full check runs.
var setups = []setup{
	{Proxy: "haproxy", Algo: "roundrobin", Workers: 1, Policy: "rr"},
	{Proxy: "haproxy", Algo: "leastconn", Workers: 1, Policy: "jsq:ties=oldest"},
	{Proxy: "haproxy", Algo: "random(2)", Workers: 1, Policy: "jsq:d=2,replace=1"},
	{Proxy: "nginx", Algo: "round_robin", Workers: 1, Policy: "rr"},
	{Proxy: "nginx", Algo: "round_robin", Workers: 4, Zone: true, Policy: "rr"},
	{Proxy: "nginx", Algo: "round_robin", Workers: 4, Policy: "rr"},
	{Proxy: "nginx", Algo: "least_conn", Workers: 1, Policy: "wlc"},
	{Proxy: "nginx", Algo: "least_conn", Workers: 4, Zone: true, Policy: "wlc"},
	{Proxy: "nginx", Algo: "least_conn", Workers: 4, Policy: "wlc"},
	{Proxy: "nginx", Algo: "random_two_least_conn", Workers: 1, Policy: "jsq:d=2"},
	{Proxy: "nginx", Algo: "random_two_least_conn", Workers: 4, Zone: true, Policy: "jsq:d=2"},
	{Proxy: "nginx", Algo: "random_two_least_conn", Workers: 4, Policy: "jsq:d=2"},
}

// haproxyConfig listens on port and balances over the backends by algo.
// mode http with httpclose: every request on its own connection to the
// server, closed after the reply.
func haproxyConfig(port int, algo string, backends []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `global
    maxconn 4000
defaults
    mode http
    option httpclose
    timeout connect 5s
    timeout client 120s
    timeout server 120s
frontend fe
    bind 127.0.0.1:%d
    default_backend be
backend be
    balance %s
`, port, algo)
	for i, a := range backends {
		fmt.Fprintf(&b, "    server s%d %s\n", i, a)
	}
	return b.String()
}

// nginxConfig is a complete nginx.conf whose files all live under prefix.
// proxy_http_version 1.0 with Connection: close: one connection per request
// to the backend; X-Worker carries the worker's pid to the backend's record.
func nginxConfig(prefix string, port int, s setup, backends []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `worker_processes %d;
pid %s;
error_log %s warn;
events { worker_connections 8192; }
http {
    access_log off;
    client_body_temp_path %s;
    proxy_temp_path %s;
    fastcgi_temp_path %s;
    uwsgi_temp_path %s;
    scgi_temp_path %s;
    upstream be {
`, s.Workers, filepath.Join(prefix, "nginx.pid"), filepath.Join(prefix, "error.log"),
		filepath.Join(prefix, "client_body"), filepath.Join(prefix, "proxy"), filepath.Join(prefix, "fastcgi"),
		filepath.Join(prefix, "uwsgi"), filepath.Join(prefix, "scgi"))
	switch s.Algo {
	case "round_robin":
	case "least_conn":
		b.WriteString("        least_conn;\n")
	case "random_two_least_conn":
		b.WriteString("        random two least_conn;\n")
	}
	if s.Zone {
		b.WriteString("        zone be 256k;\n")
	}
	for _, a := range backends {
		fmt.Fprintf(&b, "        server %s;\n", a)
	}
	fmt.Fprintf(&b, `    }
    server {
        listen 127.0.0.1:%d;
        location / {
            proxy_pass http://be;
            proxy_http_version 1.0;
            proxy_set_header Connection close;
            proxy_set_header X-Worker $pid;
            proxy_read_timeout 120s;
            proxy_next_upstream off;
        }
    }
}
`, port)
	return b.String()
}

// proc is a process this command started, in its own process group so that
// stopping it stops its children (nginx's workers) too.
type proc struct {
	name string
	cmd  *exec.Cmd
	exit chan struct{} // closed when it has exited
	err  error
}

var (
	procsMu sync.Mutex
	procs   = map[int]*proc{} // every running process started here, by pid
)

// startProc starts path with args, its output in logPath.
func startProc(name, path string, args []string, logPath string) (*proc, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, exit: make(chan struct{})}
	procsMu.Lock()
	procs[cmd.Process.Pid] = p
	procsMu.Unlock()
	go func() {
		p.err = cmd.Wait()
		logf.Close()
		close(p.exit)
	}()
	return p, nil
}

// stop sends SIGTERM to the process group, then SIGKILL after grace.
func (p *proc) stop(grace time.Duration) {
	pid := p.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-p.exit:
	case <-time.After(grace):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-p.exit
	}
	// nginx's workers leave when their master does; a straggler of the group
	// gets SIGKILL (ESRCH when none is left).
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	procsMu.Lock()
	delete(procs, pid)
	procsMu.Unlock()
}

// stopAll stops every process still running (on exit, error or interrupt).
func stopAll() {
	procsMu.Lock()
	var all []*proc
	for _, p := range procs {
		all = append(all, p)
	}
	procsMu.Unlock()
	for _, p := range all {
		fmt.Printf("stopping %s (pid %d)\n", p.name, p.cmd.Process.Pid)
		p.stop(3 * time.Second)
	}
}

// freePort is a loopback port that was free a moment ago: the kernel's pick
// for port 0, closed again. startProxy checks that its proxy did bind it.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startProxy writes s's configuration into dir and starts the proxy on a
// free port, returning once it accepts connections.
func startProxy(ctx context.Context, bins binaries, s setup, dir string, backends []string) (*proc, int, error) {
	port, err := freePort()
	if err != nil {
		return nil, 0, fmt.Errorf("no free loopback port: %w", err)
	}
	var path string
	var args []string
	switch s.Proxy {
	case "haproxy":
		conf := filepath.Join(dir, "haproxy.cfg")
		if err := os.WriteFile(conf, []byte(haproxyConfig(port, s.Algo, backends)), 0o644); err != nil {
			return nil, 0, err
		}
		path, args = bins.HAProxy, []string{"-f", conf, "-db"}
	case "nginx":
		conf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(conf, []byte(nginxConfig(dir, port, s, backends)), 0o644); err != nil {
			return nil, 0, err
		}
		path, args = bins.Nginx, []string{"-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"), "-g", "daemon off;"}
	default:
		return nil, 0, fmt.Errorf("unknown proxy %q", s.Proxy)
	}
	logPath := filepath.Join(dir, s.Proxy+".out")
	p, err := startProc(s.Name(), path, args, logPath)
	if err != nil {
		return nil, 0, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-p.exit:
			out, _ := os.ReadFile(logPath)
			elog, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			p.stop(time.Second)
			return nil, 0, fmt.Errorf("%s exited at start (%v): %s%s", s.Name(), p.err, out, elog)
		case <-ctx.Done():
			p.stop(3 * time.Second)
			return nil, 0, ctx.Err()
		default:
		}
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			p.stop(3 * time.Second)
			return nil, 0, fmt.Errorf("%s does not accept on %s after 10 s: %w", s.Name(), addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// nginx's workers are forked after the master binds; give them a moment.
	select {
	case <-time.After(300 * time.Millisecond):
	case <-ctx.Done():
		p.stop(3 * time.Second)
		return nil, 0, ctx.Err()
	}
	select {
	case <-p.exit:
		return nil, 0, fmt.Errorf("%s exited right after start: %v (log %s)", s.Name(), p.err, logPath)
	default:
	}
	return p, port, nil
}

var errNoProxies = errors.New("neither haproxy nor nginx is installed, and they cannot be installed here (not root and no sudo)")
