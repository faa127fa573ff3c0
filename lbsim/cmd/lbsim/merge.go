package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/shard"
)

func init() { commands["merge"] = mergeCommand }

// mergeCommand checks the shard files in a directory (one sweep, every
// configuration exactly once) and writes the sweep's table: the same bytes
// lbsim sweep prints for the unsharded sweep.
func mergeCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lbsim merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var out string
	textVar(fs, &out, "o", "a file", "results.csv", "write the merged CSV to this file (atomically) instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lbsim merge DIR [-o out.csv]")
		fs.PrintDefaults()
	}
	// Accept the directory before or after the flags.
	var dir string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		dir, args = args[0], args[1:]
	}
	if err := parseStrict(fs, args); err != nil {
		return err
	}
	rest := fs.Args()
	if dir == "" && len(rest) == 1 {
		dir, rest = rest[0], nil
	}
	if dir == "" {
		return fmt.Errorf("need exactly one shard directory: lbsim merge DIR [-o out.csv]")
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected argument %q after the shard directory %s; merge takes one directory (lbsim merge DIR [-o out.csv])", rest[0], dir)
	}
	header, rows, err := shard.Merge(dir)
	if err != nil {
		return err
	}
	if len(header) == 0 || header[0] != indexColumn {
		return fmt.Errorf("%s: shard files start with column %q, want %q; they were not written by lbsim sweep -shard", dir, header[0], indexColumn)
	}
	for k := range rows {
		rows[k] = rows[k][1:]
	}
	b, err := shard.EncodeCSV(header[1:], rows)
	if err != nil {
		return err
	}
	if out == "" {
		_, err = stdout.Write(b)
		return err
	}
	if shard.IsFileName(filepath.Base(out)) {
		return notShard(out)
	}
	return files.Replace(out, b, func(path string) error {
		if shard.IsShardFile(path) {
			return notShard(path)
		}
		return nil
	})
}

// notShard refuses to write the merged table over a shard file: it would be
// lost, and the next resume would delete the table as an invalid shard.
func notShard(path string) error {
	return fmt.Errorf("-o %s is a shard file (or a shard file's name); it is never overwritten: write the merged table elsewhere, e.g. -o sweep.csv", path)
}
