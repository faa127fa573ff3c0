package slurmtest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// packages are the Debian packages of a single-node cluster.
var packages = []string{"slurmctld", "slurmd", "slurm-client", "munge"}

// programs are the executables Start runs, each from one of packages.
var programs = []string{"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol"}

// Required reports whether a missing prerequisite must fail the test rather
// than skip it: on CI (CI=true) or when LBSIM_REQUIRE_SLURM=1.
func Required() bool {
	return os.Getenv("CI") == "true" || os.Getenv("LBSIM_REQUIRE_SLURM") == "1"
}

// skipper is the part of testing.TB that missing uses.
type skipper interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// missing skips the test with the reason, or fails it when Slurm is Required.
func missing(t skipper, required bool, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	if required {
		t.Fatalf("slurmtest: %s (Slurm is required here: CI=true or LBSIM_REQUIRE_SLURM=1)", reason)
		return
	}
	t.Skipf("slurmtest: %s; skipping the Slurm test (set LBSIM_REQUIRE_SLURM=1 to make this a failure)", reason)
}

// prerequisites returns why a cluster cannot be started here, installing the
// Debian packages first when only they are missing. An empty string means
// ready.
func prerequisites() string {
	if runtime.GOOS != "linux" {
		return fmt.Sprintf("needs Linux, this is %s", runtime.GOOS)
	}
	if _, err := os.Stat("/etc/debian_version"); err != nil {
		return "needs Debian (apt-get and its slurm packages); /etc/debian_version is absent"
	}
	if os.Geteuid() != 0 {
		return fmt.Sprintf("needs root to start munged and the Slurm daemons as their users; running as uid %d", os.Geteuid())
	}
	if absent := absentPrograms(); len(absent) > 0 {
		if out, err := install(); err != nil {
			return fmt.Sprintf("%s missing and apt-get install %s failed: %v\n%s", strings.Join(absent, ", "), strings.Join(packages, " "), err, tail(out, 2000))
		}
		if absent := absentPrograms(); len(absent) > 0 {
			return fmt.Sprintf("%s still missing after installing %s", strings.Join(absent, ", "), strings.Join(packages, " "))
		}
	}
	return ""
}

func absentPrograms() []string {
	var absent []string
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			absent = append(absent, p)
		}
	}
	return absent
}

// install runs apt-get install, refreshing the package lists once if the
// first attempt fails (a fresh container has none).
func install() ([]byte, error) {
	args := append([]string{"install", "-y", "--no-install-recommends"}, packages...)
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	out, err := run(args...)
	if err == nil {
		return out, nil
	}
	if up, err := run("update"); err != nil {
		return append(out, up...), err
	}
	return run(args...)
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
