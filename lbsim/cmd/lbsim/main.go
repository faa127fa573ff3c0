package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/perfeval/lbsim/lbsim"
)

// commands maps a sub-command to its implementation.
var commands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"run":   runCommand,
	"sweep": sweepCommand,
}

func main() {
	// Validate keeps what a run holds within lbsim.MaxMemory; the soft
	// limit makes the collector keep the process below it too, rather than
	// let the heap grow to twice what is live (GOMEMLIMIT, if set, wins).
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(lbsim.RuntimeMemoryLimit)
	}
	os.Exit(mainWithArgs(os.Args[1:], os.Stdout, os.Stderr))
}

func mainWithArgs(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "help" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: lbsim <command> [flags]; commands: run, compare, sweep, merge, slurm (see lbsim <command> -h)")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "lbsim: unknown command %q; use one of: run, compare, sweep, merge, slurm\n", args[0])
		return 2
	}
	if err := cmd(args[1:], stdout, stderr); err != nil {
		if err == errHelp {
			return 0
		}
		fmt.Fprintf(stderr, "lbsim %s: %v\n", args[0], err)
		return 2
	}
	return 0
}
