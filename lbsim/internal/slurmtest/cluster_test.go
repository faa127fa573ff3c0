package slurmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A job array of three tasks runs on a real cluster, each task writing its
// $SLURM_ARRAY_TASK_ID, and every daemon is gone after Stop.
func TestJobArray(t *testing.T) {
	c := Start(t)
	out := t.TempDir()
	script := filepath.Join(out, "task.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho \"$SLURM_ARRAY_TASK_ID\" > \""+out+"/task-$SLURM_ARRAY_TASK_ID.txt\"\n"), 0o755)
	submitted := time.Now()
	id, err := c.Submit("--array=0-2", "--output="+filepath.Join(out, "slurm-%A_%a.out"), script)
	if err != nil {
		t.Fatal(err)
	}
	states, err := c.Wait(id, 60*time.Second)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.Logs())
	}
	ran := time.Since(submitted)
	if len(states) != 3 {
		t.Errorf("squeue reported tasks %v, want 0, 1, 2", states)
	}
	for task := range 3 {
		b, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("task-%d.txt", task)))
		if err != nil {
			t.Errorf("task %d wrote nothing: %v", task, err)
			continue
		}
		if got := strings.TrimSpace(string(b)); got != fmt.Sprint(task) {
			t.Errorf("task %d wrote %q", task, got)
		}
	}
	pids := c.pids()
	stopAt := time.Now()
	if err := c.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	for name, pid := range pids {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			t.Errorf("%s (pid %d) still running after Stop", name, pid)
		}
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Errorf("cluster directory %s left behind: %v", c.Dir, err)
	}
	t.Logf("start to idle %v, 3-task array %v, stop %v, start to stop %v",
		c.Ready.Sub(c.Started).Round(time.Millisecond), ran.Round(time.Millisecond),
		time.Since(stopAt).Round(time.Millisecond), time.Since(c.Started).Round(time.Millisecond))
}

func (c *Cluster) pids() map[string]int {
	m := map[string]int{}
	for _, d := range c.daemons {
		m[d.name] = d.cmd.Process.Pid
	}
	return m
}

type recorder struct{ skipped, failed string }

func (r *recorder) Helper()                           {}
func (r *recorder) Skipf(format string, args ...any)  { r.skipped = fmt.Sprintf(format, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// A missing prerequisite skips with the reason, or fails where Slurm is required.
func TestMissingPrerequisite(t *testing.T) {
	var r recorder
	missing(&r, false, "needs root; running as uid %d", 1000)
	if r.failed != "" || !strings.Contains(r.skipped, "needs root; running as uid 1000") {
		t.Errorf("not required: skipped %q, failed %q", r.skipped, r.failed)
	}
	r = recorder{}
	missing(&r, true, "needs Debian")
	if r.skipped != "" || !strings.Contains(r.failed, "needs Debian") || !strings.Contains(r.failed, "LBSIM_REQUIRE_SLURM") {
		t.Errorf("required: skipped %q, failed %q", r.skipped, r.failed)
	}
	for _, tc := range []struct {
		ci, req string
		want    bool
	}{{"", "", false}, {"true", "", true}, {"", "1", true}, {"false", "0", false}} {
		t.Setenv("CI", tc.ci)
		t.Setenv("LBSIM_REQUIRE_SLURM", tc.req)
		if got := Required(); got != tc.want {
			t.Errorf("CI=%q LBSIM_REQUIRE_SLURM=%q: Required() = %v", tc.ci, tc.req, got)
		}
	}
}

func TestSlurmConfIsHostnameIndependent(t *testing.T) {
	conf := config{Dir: "/x", CtldPort: 7001, SlurmdPort: 7002, CPUs: 3}.slurmConf()
	host, _ := os.Hostname()
	for _, want := range []string{"SlurmctldHost=localhost\n", "NodeName=localhost NodeAddr=127.0.0.1 CPUs=3 ", "SlurmctldPort=7001\n",
		"ProctrackType=proctrack/linuxproc\n", "TaskPlugin=task/none\n", "JobAcctGatherType=jobacct_gather/none\n", "StateSaveLocation=/x/state\n"} {
		if !strings.Contains(conf, want) {
			t.Errorf("slurm.conf lacks %q", want)
		}
	}
	if host != "" && host != "localhost" && strings.Contains(conf, host) {
		t.Errorf("slurm.conf mentions the host name %q", host)
	}
	if strings.Contains(conf, "RealMemory") {
		t.Error("slurm.conf sets RealMemory; the node would be invalid if it exceeds what slurmd measures")
	}
}
