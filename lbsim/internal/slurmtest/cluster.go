package slurmtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Cluster is a running single-node Slurm cluster.
type Cluster struct {
	Dir     string // temporary directory holding configuration, state, logs
	Conf    string // path of slurm.conf; clients find it through SLURM_CONF
	CPUs    int
	Started time.Time // when Start began
	Ready   time.Time // when the node became idle

	cfg     config
	daemons []*daemon // in start order; stopped in reverse
	stopped bool
}

type daemon struct {
	name   string
	cmd    *exec.Cmd
	done   chan error // receives the exit status once
	err    error
	exited bool
}

// Start starts a cluster for t, or skips t (fails it when Required) when this
// machine cannot run one. The cluster is stopped by t.Cleanup, also when the
// test fails.
func Start(t testing.TB) *Cluster {
	t.Helper()
	if why := prerequisites(); why != "" {
		missing(t, Required(), "%s", why)
		return nil
	}
	c, err := start()
	if c != nil {
		t.Cleanup(func() {
			if err := c.Stop(); err != nil {
				t.Errorf("slurmtest: stopping the cluster: %v", err)
			}
		})
	}
	if err != nil {
		t.Fatalf("slurmtest: %v\n%s", err, c.Logs())
	}
	return c
}

func start() (*Cluster, error) {
	began := time.Now()
	dir, err := os.MkdirTemp("", "lbsim-slurm-")
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(2)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cfg := config{Dir: dir, CtldPort: ports[0], SlurmdPort: ports[1], CPUs: runtime.NumCPU()}
	c := &Cluster{Dir: dir, Conf: cfg.path("slurm.conf"), CPUs: cfg.CPUs, Started: began, cfg: cfg}
	if err := c.prepare(); err != nil {
		return c, err
	}
	if err := c.startMunge(); err != nil {
		return c, err
	}
	if err := c.spawn("slurmctld", nil, "slurmctld", "-D", "-f", c.Conf); err != nil {
		return c, err
	}
	if err := c.spawn("slurmd", nil, "slurmd", "-D", "-N", "localhost", "-f", c.Conf); err != nil {
		return c, err
	}
	if err := c.waitIdle(60 * time.Second); err != nil {
		return c, err
	}
	c.Ready = time.Now()
	return c, nil
}

// prepare creates the directory tree with the owners the daemons need.
func (c *Cluster) prepare() error {
	slurm, err := lookupUser("slurm")
	if err != nil {
		return err
	}
	munge, err := lookupUser("munge")
	if err != nil {
		return err
	}
	// Daemons running as slurm and munge must traverse the directory.
	if err := os.Chmod(c.Dir, 0o755); err != nil {
		return err
	}
	for _, d := range []struct {
		name string
		own  *ids
		mode os.FileMode
	}{
		{"log", nil, 0o755},
		{"spool", nil, 0o755},
		{"state", slurm, 0o700},
		// munged insists on a socket directory that everyone can enter and only munge can write.
		{"munge", munge, 0o755},
	} {
		p := c.cfg.path(d.name)
		if err := os.Mkdir(p, d.mode); err != nil {
			return err
		}
		if err := os.Chmod(p, d.mode); err != nil {
			return err
		}
		if d.own != nil {
			if err := os.Chown(p, d.own.uid, d.own.gid); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(c.Conf, []byte(c.cfg.slurmConf()), 0o644)
}

// startMunge creates a private key and runs munged as the munge user on a
// socket in the cluster directory, so that it touches neither /etc/munge nor
// a munged the machine may already run.
func (c *Cluster) startMunge() error {
	munge, err := lookupUser("munge")
	if err != nil {
		return err
	}
	key := c.cfg.path("munge/munge.key")
	if out, err := exec.Command("mungekey", "--create", "--keyfile="+key).CombinedOutput(); err != nil {
		return fmt.Errorf("mungekey --create: %v\n%s", err, out)
	}
	if err := os.Chown(key, munge.uid, munge.gid); err != nil {
		return err
	}
	cred := &syscall.Credential{Uid: uint32(munge.uid), Gid: uint32(munge.gid)}
	if err := c.spawn("munged", cred, "munged", "--foreground",
		"--socket="+c.cfg.path("munge/munge.socket"),
		"--key-file="+key,
		"--pid-file="+c.cfg.path("munge/munged.pid"),
		"--log-file="+c.cfg.path("munge/munged.log"),
		"--seed-file="+c.cfg.path("munge/munged.seed")); err != nil {
		return err
	}
	return c.poll(10*time.Second, "munged to create its socket", func() (bool, error) {
		_, err := os.Stat(c.cfg.path("munge/munge.socket"))
		return err == nil, nil
	})
}

// spawn starts a daemon in the foreground, its output in log/<name>.out.
func (c *Cluster) spawn(name string, cred *syscall.Credential, argv ...string) error {
	out, err := os.Create(c.cfg.path("log/" + name + ".out"))
	if err != nil {
		return err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = c.Env()
	cmd.Stdout, cmd.Stderr = out, out
	// Own process group, and SIGTERM if the test binary dies without cleanup.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM, Credential: cred}
	if err := cmd.Start(); err != nil {
		out.Close()
		return fmt.Errorf("starting %s: %w", name, err)
	}
	d := &daemon{name: name, cmd: cmd, done: make(chan error, 1)}
	go func() { d.done <- cmd.Wait(); out.Close() }()
	c.daemons = append(c.daemons, d)
	return nil
}

// Env is the environment for Slurm clients (sbatch, squeue, ...): the
// process environment with SLURM_CONF pointing at the cluster.
func (c *Cluster) Env() []string {
	return append(os.Environ(), "SLURM_CONF="+c.Conf)
}

// Command returns a command for a Slurm client that talks to this cluster.
func (c *Cluster) Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.Env()
	return cmd
}

func (c *Cluster) output(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = c.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// waitIdle polls sinfo until the node is idle; a drained, down or invalid
// node is an error with the reason Slurm gives.
func (c *Cluster) waitIdle(timeout time.Duration) error {
	return c.poll(timeout, "the node to become idle", func() (bool, error) {
		state, err := c.output("sinfo", "-h", "-N", "-n", "localhost", "-o", "%T")
		if err != nil {
			return false, nil // slurmctld not listening yet
		}
		switch strings.TrimSuffix(state, "*") {
		case "idle":
			return true, nil
		case "drained", "draining", "down", "invalid", "fail":
			reason, _ := c.output("sinfo", "-R")
			return false, fmt.Errorf("node is %s: %s", state, reason)
		}
		return false, nil
	})
}

// poll calls ready every 50 ms until it returns true or an error, a daemon
// exits, or timeout passes.
func (c *Cluster) poll(timeout time.Duration, what string, ready func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := ready()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		for _, d := range c.daemons {
			if d.poll() {
				return fmt.Errorf("waiting for %s: %s exited: %v", what, d.name, d.err)
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waiting for %s: gave up after %v", what, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// poll reports whether the daemon has exited, without blocking.
func (d *daemon) poll() bool {
	if d.exited {
		return true
	}
	select {
	case d.err = <-d.done:
		d.exited = true
	default:
	}
	return d.exited
}

// wait waits up to timeout for the daemon to exit.
func (d *daemon) wait(timeout time.Duration) bool {
	if d.exited {
		return true
	}
	select {
	case d.err = <-d.done:
		d.exited = true
	case <-time.After(timeout):
	}
	return d.exited
}

// Stop shuts down everything Start started: scontrol shutdown for the Slurm
// daemons, SIGTERM (then SIGKILL) for whatever is still running, munged last;
// then it removes the pid files and the cluster directory. It is safe to call
// twice.
func (c *Cluster) Stop() error {
	if c == nil || c.stopped {
		return nil
	}
	c.stopped = true
	var errs []error
	if len(c.daemons) > 1 { // slurmctld was started
		if _, err := c.output("scontrol", "shutdown"); err != nil {
			errs = append(errs, err)
		}
	}
	for k := len(c.daemons) - 1; k >= 0; k-- {
		d := c.daemons[k]
		if d.name != "munged" && d.wait(10*time.Second) {
			continue
		}
		// munged, or a Slurm daemon that ignored the shutdown.
		syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
		if !d.wait(5 * time.Second) {
			syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			d.wait(5 * time.Second)
			errs = append(errs, fmt.Errorf("%s ignored SIGTERM and was killed", d.name))
		}
	}
	// scontrol shutdown leaves slurmctld's pid file behind.
	for _, p := range []string{"slurmctld.pid", "slurmd.pid", "munge/munged.pid"} {
		if err := os.Remove(c.cfg.path(p)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := os.RemoveAll(c.Dir); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Logs returns the tail of every daemon log, for failure messages.
func (c *Cluster) Logs() string {
	if c == nil {
		return ""
	}
	var b strings.Builder
	logs, _ := filepath.Glob(c.cfg.path("log/*"))
	logs = append(logs, c.cfg.path("munge/munged.log"))
	for _, p := range logs {
		if data, err := os.ReadFile(p); err == nil && len(data) > 0 {
			fmt.Fprintf(&b, "--- %s\n%s\n", filepath.Base(p), tail(data, 1500))
		}
	}
	return b.String()
}

type ids struct{ uid, gid int }

func lookupUser(name string) (*ids, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("user %q (created by the Debian slurm and munge packages): %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &ids{uid, gid}, nil
}
