package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Identification lines: v2 names the code version and its trailer hash
// covers the identification line too; v1 files (older builds) are still
// read, so they are recognised as foreign rather than overwritten.
const (
	magic   = "# lbsim-shard v2"
	magicV1 = "# lbsim-shard v1"
)

// FileName is the name of shard i of n inside the output directory.
func FileName(i, n int) string { return fmt.Sprintf("shard-%d-of-%d.csv", i, n) }

// Write stores the rows of shard i of n of sweep s as dir/FileName(i, n).
// Each row must have len(header) fields and its first field must be the
// configuration index; the rows must be exactly the configurations
// Shard(i, n, s.Configs), in that order. The file is written to a temporary
// file in dir, synced and then linked to its final name, which fails if the
// name exists: a shard file is never replaced, and of two writers racing for
// it exactly one succeeds. Readers never see a partial file under the final
// name.
func Write(dir string, s Sweep, i, n int, header []string, rows [][]string) error {
	if err := checkShard(s, i, n); err != nil {
		return err
	}
	want := members(i, n, s.Configs)
	if err := checkRows(header, rows, want, FileName(i, n)); err != nil {
		return err
	}
	body, err := EncodeCSV(header, rows)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s sweep=%s code=%s shard=%d/%d configs=%d\n", magic, s.ID, s.code(), i, n, s.Configs)
	b.Write(body)
	fmt.Fprintf(&b, "# complete rows=%d sha256=%s\n", len(rows), digest(b.Bytes()))
	return writeExclusive(dir, FileName(i, n), b.Bytes())
}

// Complete reports whether dir holds a complete shard file for shard i of n
// of sweep s. A missing, truncated, corrupt or foreign (other sweep, other
// split) file is not complete. The error is non-nil only for invalid
// arguments or a failure to read the directory.
func Complete(dir string, s Sweep, i, n int) (bool, error) {
	if err := checkShard(s, i, n); err != nil {
		return false, err
	}
	err := Verify(dir, s, i, n)
	var bad *InvalidFileError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &bad), errors.Is(err, fs.ErrNotExist):
		return false, nil
	default:
		return false, err
	}
}

// Verify is Complete with the reason: nil for a complete file, an
// *InvalidFileError saying what is wrong with it, or an error wrapping
// fs.ErrNotExist when there is no file.
func Verify(dir string, s Sweep, i, n int) error {
	if err := checkShard(s, i, n); err != nil {
		return err
	}
	path := filepath.Join(dir, FileName(i, n))
	f, err := ReadFile(path)
	if err != nil {
		return err
	}
	switch {
	case f.Sweep.ID != s.ID && f.Sweep.code() != s.code():
		return &InvalidFileError{path, fmt.Sprintf("belongs to sweep %s written by lbsim code %s, not sweep %s of this code %s", short(f.Sweep.ID), f.Sweep.code(), short(s.ID), s.code())}
	case f.Sweep.ID != s.ID:
		return &InvalidFileError{path, fmt.Sprintf("belongs to sweep %s, not %s", short(f.Sweep.ID), short(s.ID))}
	case f.Sweep.Configs != s.Configs:
		return &InvalidFileError{path, fmt.Sprintf("has configs=%d, want %d", f.Sweep.Configs, s.Configs)}
	case f.I != i || f.N != n:
		return &InvalidFileError{path, fmt.Sprintf("holds shard %d/%d, want %d/%d", f.I, f.N, i, n)}
	}
	return nil
}

// File is a parsed, verified shard file.
type File struct {
	Path   string
	Sweep  Sweep
	I, N   int
	Header []string
	Rows   [][]string
}

// InvalidFileError says why a shard file is not a complete shard.
type InvalidFileError struct {
	Path   string
	Reason string
}

func (e *InvalidFileError) Error() string {
	return fmt.Sprintf("shard: %s %s", e.Path, e.Reason)
}

// ReadFile parses and verifies one shard file: identification line, trailer,
// row count, checksum, and that the rows are exactly the configurations of
// the shard it claims to be. Any defect is reported as *InvalidFileError.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseFile(path, data)
}

// parseFile is ReadFile on the file's contents.
func parseFile(path string, data []byte) (*File, error) {
	invalid := func(format string, a ...any) error {
		return &InvalidFileError{path, fmt.Sprintf(format, a...)}
	}
	first, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil, invalid("has no identification line (want %q ...)", magic)
	}
	f := &File{Path: path}
	v1 := bytes.HasPrefix(first, []byte(magicV1+" "))
	var err1 error
	if v1 {
		_, err1 = fmt.Sscanf(string(first), magicV1+" sweep=%s shard=%d/%d configs=%d", &f.Sweep.ID, &f.I, &f.N, &f.Sweep.Configs)
	} else {
		_, err1 = fmt.Sscanf(string(first), magic+" sweep=%s code=%s shard=%d/%d configs=%d", &f.Sweep.ID, &f.Sweep.Code, &f.I, &f.N, &f.Sweep.Configs)
	}
	if err1 != nil {
		return nil, invalid("first line %q is not %q", clip(first), magic+" sweep=<id> code=<version> shard=<i>/<n> configs=<M>")
	}
	if err := checkShard(f.Sweep, f.I, f.N); err != nil {
		return nil, invalid("has an invalid identification line: %v", err)
	}
	// The trailer is the last line; everything before it is the CSV body.
	if !bytes.HasSuffix(rest, []byte("\n")) {
		return nil, invalid("is truncated: it does not end with a newline (killed writer?)")
	}
	cut := bytes.LastIndexByte(rest[:len(rest)-1], '\n') + 1
	body, last := rest[:cut], rest[cut:len(rest)-1]
	var rowCount int
	var sum string
	if _, err := fmt.Sscanf(string(last), "# complete rows=%d sha256=%s", &rowCount, &sum); err != nil {
		return nil, invalid("is truncated: last line %q is not the '# complete rows=<k> sha256=<hash>' trailer (killed writer?)", clip(last))
	}
	signed := data[:len(first)+1+cut] // v2: identification line and body
	if v1 {
		signed = body
	}
	if got := digest(signed); got != sum {
		return nil, invalid("is corrupt: its contents hash to %s, trailer says %s", short(got), short(sum))
	}
	// Count before allocating: the rows must be the shard's members.
	if want := memberCount(f.I, f.N, f.Sweep.Configs); rowCount != want {
		return nil, invalid("has %d rows, but shard %d/%d of %d configurations has %d", rowCount, f.I, f.N, f.Sweep.Configs, want)
	}
	r := csv.NewReader(bytes.NewReader(body))
	records, err := r.ReadAll()
	if err != nil {
		return nil, invalid("has unreadable CSV: %v", err)
	}
	if len(records) == 0 {
		return nil, invalid("has no CSV header")
	}
	f.Header, f.Rows = records[0], records[1:]
	if len(f.Rows) != rowCount {
		return nil, invalid("has %d rows, trailer says %d", len(f.Rows), rowCount)
	}
	if err := checkRows(f.Header, f.Rows, members(f.I, f.N, f.Sweep.Configs), filepath.Base(path)); err != nil {
		return nil, &InvalidFileError{path, strings.TrimPrefix(err.Error(), "shard: ")}
	}
	return f, nil
}

// checkRows checks that rows are the configurations want, in order, each with
// one field per header column.
func checkRows(header []string, rows [][]string, want []int, name string) error {
	if len(header) == 0 {
		return fmt.Errorf("shard: %s: empty header; the first column must be the configuration index", name)
	}
	if len(rows) != len(want) {
		return fmt.Errorf("shard: %s: %d rows, want %d (one per configuration %s)", name, len(rows), len(want), list(want))
	}
	for k, row := range rows {
		if len(row) != len(header) {
			return fmt.Errorf("shard: %s: row %d has %d fields, header has %d", name, k, len(row), len(header))
		}
		c, err := strconv.Atoi(row[0])
		if err != nil {
			return fmt.Errorf("shard: %s: row %d starts with %q, want the configuration index", name, k, row[0])
		}
		if c != want[k] {
			return fmt.Errorf("shard: %s: row %d is configuration %d, want %d (rows must be the shard's configurations %s in order)", name, k, c, want[k], list(want))
		}
	}
	return nil
}

func checkShard(s Sweep, i, n int) error {
	if err := s.validate(); err != nil {
		return err
	}
	if err := checkSplit(s.Configs, n); err != nil {
		return err
	}
	return checkIndex(i, n)
}

// EncodeCSV is the one CSV encoding used for shard bodies and merged tables,
// so that merging reproduces an unsharded table byte for byte.
func EncodeCSV(header []string, rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(header); err != nil {
		return nil, err
	}
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeExclusive writes data to dir/name through a synced temporary file
// that is then hard-linked to name: the link fails if name exists, so the
// file is created exactly once and never replaced.
func writeExclusive(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("shard: cannot create a temporary file in %s: %w", dir, err)
	}
	done, tmpName := false, tmp.Name()
	defer func() {
		if !done {
			if tmp != nil {
				tmp.Close()
			}
			os.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("shard: writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(0o644); err != nil { // readable like any output file
		return fmt.Errorf("shard: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("shard: syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("shard: closing %s: %w", tmp.Name(), err)
	}
	final := filepath.Join(dir, name)
	exists := fmt.Errorf("shard: %w: %s already exists (another run wrote it meanwhile?); it is not replaced: check it with lbsim merge, or remove it and run this shard again", ErrExists, final)
	if err := os.Link(tmpName, final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return exists
		}
		// A file system without hard links: rename, after checking the
		// name is free (the shard's claim, see Lock, keeps other writers out).
		if _, serr := os.Lstat(final); serr == nil {
			return exists
		}
		if err := os.Rename(tmpName, final); err != nil {
			return fmt.Errorf("shard: creating %s: %w", final, err)
		}
	}
	tmp = nil
	os.Remove(tmpName) // the link's other name (gone after a rename)
	done = true
	// Sync the directory so the rename itself survives a crash.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// ErrExists is returned (wrapped) by Write when the shard file exists, and
// ErrBusy by Lock when another process holds the shard.
var (
	ErrExists = errors.New("shard file exists")
	ErrBusy   = errors.New("shard is busy")
)

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12] + "..."
	}
	return id
}

func clip(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

func list(cs []int) string {
	if len(cs) > 6 {
		return fmt.Sprintf("[%d %d %d ... %d] (%d in all)", cs[0], cs[1], cs[2], cs[len(cs)-1], len(cs))
	}
	return fmt.Sprint(cs)
}
