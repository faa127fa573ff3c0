package slurmtest

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
)

// config is everything slurm.conf depends on.
type config struct {
	Dir                  string // cluster directory; every path lives under it
	CtldPort, SlurmdPort int
	CPUs                 int
}

func (c config) path(name string) string { return filepath.Join(c.Dir, name) }

// slurmConf renders a minimal hostname-independent slurm.conf: the controller
// and the only node are "localhost" at 127.0.0.1 whatever the machine is
// called, and every file is in the cluster directory.
func (c config) slurmConf() string {
	lines := []string{
		"ClusterName=lbsimtest",
		"SlurmctldHost=localhost",
		fmt.Sprintf("SlurmctldPort=%d", c.CtldPort),
		fmt.Sprintf("SlurmdPort=%d", c.SlurmdPort),
		"SlurmUser=slurm",
		"AuthType=auth/munge",
		"CredType=cred/munge",
		"AuthInfo=socket=" + c.path("munge/munge.socket"),
		"StateSaveLocation=" + c.path("state"),
		"SlurmdSpoolDir=" + c.path("spool"),
		"SlurmctldPidFile=" + c.path("slurmctld.pid"),
		"SlurmdPidFile=" + c.path("slurmd.pid"),
		"SlurmctldLogFile=" + c.path("log/slurmctld.log"),
		"SlurmdLogFile=" + c.path("log/slurmd.log"),
		// cgroup tracking drains the node at the first job without systemd.
		"ProctrackType=proctrack/linuxproc",
		"TaskPlugin=task/none",
		"JobAcctGatherType=jobacct_gather/none",
		"SelectType=select/cons_tres",
		"SelectTypeParameters=CR_Core",
		"MpiDefault=none",
		"SwitchType=switch/none",
		"ReturnToService=2",
		"SchedulerType=sched/builtin",
		// Start the next array task as soon as a CPU frees, not 3 s later.
		"SchedulerParameters=batch_sched_delay=0,sched_min_interval=0",
		// No RealMemory: a value above what slurmd measures makes the node invalid.
		fmt.Sprintf("NodeName=localhost NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN", c.CPUs),
		"PartitionName=lbsim Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
	}
	return strings.Join(lines, "\n") + "\n"
}

// freePorts returns n distinct TCP ports free on 127.0.0.1 right now, so that
// clusters of concurrently running test binaries do not collide.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("slurmtest: no free TCP port on 127.0.0.1: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
