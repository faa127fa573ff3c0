package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfeval/lbsim/lbsim/shard"
)

func init() { commands["merge"] = mergeCommand }

// mergeCommand checks the shard files in a directory (one sweep, every
// configuration exactly once) and writes the sweep's table: the same bytes
// lbsim sweep prints for the unsharded sweep.
func mergeCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lbsim merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the merged CSV to this file (atomically) instead of stdout")
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
	if *out == "" {
		_, err = stdout.Write(b)
		return err
	}
	return writeFileAtomic(*out, b)
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, so a reader never sees half a table.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())              // after a successful rename this fails harmlessly
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp makes 0600; a table is for sharing
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
