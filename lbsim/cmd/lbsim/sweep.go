package main

import "io"

// sweepCommand runs a grid and prints one CSV row per configuration. The CSV
// holds no wall-clock column, so the same sweep always gives the same bytes.
func sweepCommand(args []string, stdout, stderr io.Writer) error {
	var c gridFlags
	var s shardFlags // -spec, -shard, -out, -quiet: shard.go
	fs := newFlagSet("sweep", stderr, &c)
	s.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return s.sweep(&c, stdout, stderr)
}
