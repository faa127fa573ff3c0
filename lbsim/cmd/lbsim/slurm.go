package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

func init() { commands["slurm"] = slurmCommand }

// slurmCommand prints a Slurm batch script that runs the sweep as a job array
// of n shards: task $SLURM_ARRAY_TASK_ID runs lbsim sweep -shard
// $SLURM_ARRAY_TASK_ID/n with a prebuilt lbsim binary. Shards already
// complete in -out are skipped by the tasks themselves, so resubmitting the
// same script after a failure reruns only what is missing.
func slurmCommand(args []string, stdout, stderr io.Writer) error {
	var c gridFlags
	var s shardFlags
	fs := newFlagSet("slurm", stderr, &c)
	s.register(fs)
	var shards, cpus int
	numberVar(fs, &shards, "shards", 0, "number n of array tasks (shards), n >= 1")
	var bin, timeLimit, partition string
	textVar(fs, &bin, "bin", "a path", "./lbsim", "path of the lbsim binary the tasks run (default: this binary)")
	numberVar(fs, &cpus, "cpus-per-task", 1, "CPUs per task; the task's sweep uses that many workers")
	textVar(fs, &timeLimit, "time", "a time limit", "1:00:00", "sbatch --time for each task (e.g. 1:00:00)")
	textVar(fs, &partition, "partition", "a partition's name", "debug", "sbatch --partition")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if shards < 1 {
		return fmt.Errorf("-shards %d: need n >= 1 array tasks; e.g. -shards 8", shards)
	}
	if s.shard != "" {
		return fmt.Errorf("-shard %s: the batch script sets each task's shard from $SLURM_ARRAY_TASK_ID; give -shards n instead", s.shard)
	}
	if s.out == "" {
		return fmt.Errorf("-out DIR is required: the directory (on a file system the compute nodes share) where the tasks write their shard files")
	}
	if c.given["workers"] {
		return fmt.Errorf("-workers %d has no effect in a batch script: each task runs as many workers as it has CPUs; give -cpus-per-task %d instead", c.grid.Base.Workers, max(c.grid.Base.Workers, 1))
	}
	if s.showID {
		return fmt.Errorf("-id is a flag of lbsim sweep; the batch script's header names the sweep id")
	}
	if cpus < 1 || cpus > 4096 {
		return fmt.Errorf("-cpus-per-task %d: need 1 to 4096", cpus)
	}
	// Values that become #SBATCH options: a strict alphabet, so that no
	// value can end its line and start a command.
	for _, o := range []struct{ flag, v, eg string }{
		{"time", timeLimit, "1:00:00 or 2-00:00:00"}, {"partition", partition, "debug"},
	} {
		if o.v != "" && !sbatchSafe(o.v) {
			return fmt.Errorf("-%s %q: only letters, digits and - _ . : , + are allowed in an #SBATCH option; e.g. -%s %s", o.flag, o.v, o.flag, o.eg)
		}
	}
	p, err := s.plan(&c)
	if err != nil {
		return err
	}
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return fmt.Errorf("cannot find this binary (%v); give -bin PATH", err)
		}
	}
	binPath, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if st, err := os.Stat(binPath); err != nil || st.IsDir() {
		return fmt.Errorf("-bin %q is not an lbsim binary (build one with go build -o lbsim ./lbsim/cmd/lbsim)", binPath)
	}
	if n := shards; n > len(p.configs) {
		return fmt.Errorf("-shards %d exceeds the sweep's %d configurations: every task needs at least one; use -shards %d or fewer", n, len(p.configs), len(p.configs))
	}
	out, err := filepath.Abs(s.out)
	if err != nil {
		return err
	}
	g := p.grid
	tracePath := ""
	if g.Base.Trace != nil {
		tracePath = g.Base.Trace.Source
	}
	for _, p := range []struct{ flag, v string }{{"out", out}, {"bin", binPath}, {"trace", tracePath}} {
		if strings.ContainsFunc(p.v, unicode.IsControl) || strings.ContainsAny(p.v, `"\`) {
			return fmt.Errorf("-%s %q holds a control character, a double quote or a backslash, which a batch script cannot carry safely; use a plain path", p.flag, p.v)
		}
	}
	if tracePath != "" {
		if st, err := os.Stat(tracePath); err != nil || !st.Mode().IsRegular() {
			return fmt.Errorf("-trace %s is not a regular file: the tasks read the trace again on the compute nodes; save it to a file on a file system they share", tracePath)
		}
		tr := *g.Base.Trace
		if tr.Source, err = filepath.Abs(tracePath); err != nil {
			return err
		}
		g.Base.Trace = &tr
	}
	taskArgs := g.Args()
	if s.quiet {
		taskArgs = append(taskArgs, "-quiet")
	}
	// The header names the sweep the tasks compute: that of the -bin
	// binary, which may be another build than this one.
	idLine, err := binaryIDLine(binPath, taskArgs, p)
	if err != nil {
		return err
	}
	var id string
	var configs int
	if k, _ := fmt.Sscanf(idLine, "sweep %s configs=%d", &id, &configs); k != 2 || len(id) != 64 || strings.Trim(id, "0123456789abcdef") != "" || configs != len(p.configs) {
		return fmt.Errorf("-bin %s printed %q for this sweep's -id, not \"sweep <64 hex digits> configs=%d\": it is not an lbsim binary of this version; build one with go build -o lbsim ./lbsim/cmd/lbsim", binPath, clipLine(idLine), len(p.configs))
	}
	p.id.ID = id
	n := shards
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "# lbsim sweep %.12s: %d configurations in %d shards, written to %s.\n", p.id.ID, len(p.configs), n, out)
	fmt.Fprintf(&b, "# Submit: sbatch THIS_FILE; wait: squeue --me; merge: %s merge %s -o sweep.csv\n", shellQuote(binPath), shellQuote(out))
	fmt.Fprintf(&b, "# Resubmitting reruns only the shards that are not complete.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=lbsim-%.8s\n", p.id.ID)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", n-1)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%d\n", cpus)
	// sbatch reads #SBATCH values with its own quoting: double quotes keep
	// spaces in the path (quotes and backslashes were refused above).
	// '%' starts a Slurm file name pattern: a '%' of the path is '%%'.
	fmt.Fprintf(&b, "#SBATCH --output=\"%s\"\n", filepath.Join(strings.ReplaceAll(out, "%", "%%"), "slurm-%A_%a.out"))
	if timeLimit != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", timeLimit)
	}
	if partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", partition)
	}
	fmt.Fprintf(&b, "set -eu\n")
	cmd := append([]string{binPath, "sweep"}, taskArgs...)
	for k := range cmd {
		cmd[k] = shellQuote(cmd[k])
	}
	fmt.Fprintf(&b, "exec %s \\\n  -shard \"$SLURM_ARRAY_TASK_ID/%d\" -out %s -workers \"${SLURM_CPUS_PER_TASK:-1}\"\n",
		strings.Join(cmd, " "), n, shellQuote(out))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("-out: %w (sbatch needs the directory for the tasks' logs)", err)
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// binaryIDLine is the -id line of the sweep the tasks run: this binary's
// own, or asked of -bin when it is another file.
func binaryIDLine(bin string, args []string, p *plannedSweep) (string, error) {
	self, err := os.Executable()
	if err == nil {
		a, errA := os.Stat(self)
		b, errB := os.Stat(bin)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return p.idLine(), nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, append(append([]string{"sweep"}, args...), "-id")...).Output()
	if err != nil {
		msg := err.Error()
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return "", fmt.Errorf("-bin %s is not an lbsim binary that runs here (%s); give an lbsim built from this version (go build -o lbsim ./lbsim/cmd/lbsim)", bin, clipLine(msg))
	}
	return strings.TrimSpace(string(out)), nil
}

// clipLine keeps the first line of s, at most 200 bytes.
func clipLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// sbatchSafe reports whether v needs no quoting in an #SBATCH line.
func sbatchSafe(v string) bool {
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:,+", r)) {
			return false
		}
	}
	return true
}

// shellQuote quotes s for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
