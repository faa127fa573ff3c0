package main

import (
	"io"

	"github.com/perfeval/lbsim/lbsim"
)

// sweepCommand runs a grid and prints one CSV row per configuration. The CSV
// holds no wall-clock column, so the same sweep always gives the same bytes.
func sweepCommand(args []string, stdout, stderr io.Writer) error {
	var c configFlags
	fs := newFlagSet("sweep", stderr, &c)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := c.grid(false)
	if err != nil {
		return err
	}
	rows, err := lbsim.Sweep(g, nil)
	if err != nil {
		return err
	}
	return lbsim.WriteRows(stdout, rows)
}
