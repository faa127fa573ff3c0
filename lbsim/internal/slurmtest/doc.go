// Package slurmtest starts a real single-node Slurm cluster for tests: its own
// munged (private key and socket), slurmctld and slurmd, all in a temporary
// directory, with a hostname-independent configuration, and shuts all of it
// down when the test ends.
//
// It needs Debian (it installs slurmctld, slurmd, slurm-client and munge with
// apt-get when they are missing) and root (the daemons switch users). When a
// prerequisite is missing the test is skipped with the reason, unless CI=true
// or LBSIM_REQUIRE_SLURM=1, where it fails instead.
//
// Facts that shaped the configuration (Slurm 22.05, Debian 12, no systemd):
// the default cgroup process tracking drains the node at its first job, so
// the cluster uses proctrack/linuxproc, task/none and jobacct_gather/none;
// CPUs is the machine's count and memory is left out, or the node is
// invalid; StateSaveLocation must belong to the slurm user; scontrol shutdown
// leaves slurmctld's pid file behind; batch_sched_delay=0 and
// sched_min_interval=0 cut the wait for the next array task from 3 s to 1 s;
// polling squeue is faster than sbatch --wait.
package slurmtest
