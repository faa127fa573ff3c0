package shard

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Merge reads every shard file (shard-*-of-*.csv) in dir and returns the
// table of the whole sweep, rows ordered by configuration index. It fails,
// naming the files and what to do, when the directory holds no shard files,
// an incomplete or corrupt file, files of two sweeps, files with different
// headers, a missing shard or configuration, or a configuration twice (two
// splits of one sweep in one directory). Files of different splits that
// cover every configuration exactly once are merged. Other files (temporary
// files of killed writers, batch logs, the merged output) are ignored.
func Merge(dir string) (header []string, rows [][]string, err error) {
	files, err := readDir(dir)
	if err != nil {
		return nil, nil, err
	}
	first := files[0]
	for _, f := range files[1:] {
		switch {
		case f.Sweep.code() != first.Sweep.code():
			return nil, nil, fmt.Errorf("shard: %s was written by lbsim code %s but %s by code %s: results of two builds are never merged; rerun the shards of one of them with the other build (or into a separate directory)",
				f.Path, f.Sweep.code(), first.Path, first.Sweep.code())
		case f.Sweep.ID != first.Sweep.ID:
			return nil, nil, fmt.Errorf("shard: %s is foreign: it belongs to sweep %s, but %s belongs to sweep %s; keep one sweep per directory and move the other files out",
				f.Path, short(f.Sweep.ID), first.Path, short(first.Sweep.ID))
		case f.Sweep.Configs != first.Sweep.Configs:
			return nil, nil, fmt.Errorf("shard: %s says configs=%d but %s says configs=%d for the same sweep; the files are inconsistent, rerun both shards",
				f.Path, f.Sweep.Configs, first.Path, first.Sweep.Configs)
		case !slices.Equal(f.Header, first.Header):
			return nil, nil, fmt.Errorf("shard: %s has header %q but %s has %q; rerun the shards with one lbsim version",
				f.Path, f.Header, first.Path, first.Header)
		}
	}
	// Files of different splits may be combined as long as every
	// configuration is covered exactly once.
	m := first.Sweep.Configs
	owner := make([]*File, m)
	row := make([][]string, m)
	for _, f := range files {
		for _, r := range f.Rows {
			c, _ := strconv.Atoi(r[0]) // checked by ReadFile
			if owner[c] != nil {
				return nil, nil, fmt.Errorf("shard: configuration %d appears twice, in %s (shard %d/%d) and in %s (shard %d/%d); keep one split per directory and remove the files of the other",
					c, owner[c].Path, owner[c].I, owner[c].N, f.Path, f.I, f.N)
			}
			owner[c], row[c] = f, r
		}
	}
	if err := missing(dir, files, owner); err != nil {
		return nil, nil, err
	}
	return first.Header, row, nil
}

// missing reports the configurations no file covers, as whole shards when the
// directory holds a single split.
func missing(dir string, files []*File, owner []*File) error {
	var absent []int
	for c, f := range owner {
		if f == nil {
			absent = append(absent, c)
		}
	}
	if len(absent) == 0 {
		return nil
	}
	n := files[0].N
	for _, f := range files {
		if f.N != n {
			return fmt.Errorf("shard: %s: sweep %s is missing configurations %s; rerun their shards and merge again",
				dir, short(files[0].Sweep.ID), list(absent))
		}
	}
	var shards []string
	seen := map[int]bool{}
	for _, c := range absent {
		if i := c % n; !seen[i] {
			seen[i] = true
			shards = append(shards, fmt.Sprintf("%d/%d (configurations %s)", i, n, list(members(i, n, len(owner)))))
		}
	}
	return fmt.Errorf("shard: %s: sweep %s is missing shard %s; run them (lbsim sweep ... -shard i/%d -out %s) and merge again",
		dir, short(files[0].Sweep.ID), strings.Join(shards, ", "), n, dir)
}

// WriteMerged merges the shard files in dir (see Merge) and writes the table
// as CSV to w, in the encoding of EncodeCSV.
func WriteMerged(w io.Writer, dir string) error {
	header, rows, err := Merge(dir)
	if err != nil {
		return err
	}
	b, err := EncodeCSV(header, rows)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// readDir parses all shard files in dir, sorted by shard index.
func readDir(dir string) ([]*File, error) {
	paths, err := filepath.Glob(filepath.Join(globEscape(dir), "shard-*-of-*.csv"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("shard: cannot read the shard directory: %w", err)
		}
		return nil, fmt.Errorf("shard: %s holds no shard files (shard-<i>-of-<n>.csv); run lbsim sweep ... -shard i/n -out %s first", dir, dir)
	}
	var files []*File
	for _, p := range paths {
		f, err := ReadFile(p)
		var bad *InvalidFileError
		if errors.As(err, &bad) {
			return nil, fmt.Errorf("%w; rerun that shard (a complete shard is skipped, so resubmitting the whole sweep is safe)", err)
		}
		if err != nil {
			return nil, err
		}
		if base := filepath.Base(p); base != FileName(f.I, f.N) {
			return nil, fmt.Errorf("shard: %s holds shard %d/%d, which belongs in %s; rename or remove it", p, f.I, f.N, FileName(f.I, f.N))
		}
		files = append(files, f)
	}
	slices.SortFunc(files, func(a, b *File) int { return a.I - b.I })
	return files, nil
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}
