package shard

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/files"
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

// IsFileName reports whether name has the form of FileName, which is
// reserved for shard files.
func IsFileName(name string) bool {
	var i, n int
	var rest string
	k, _ := fmt.Sscanf(name, "shard-%d-of-%d.cs%s", &i, &n, &rest)
	return k == 3 && rest == "v" && name == FileName(i, n)
}

// IsShardFile reports whether the file at path starts with a shard file's
// identification line (of any version): such a file is never overwritten.
func IsShardFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(magic))
	n, _ := io.ReadFull(f, head)
	return bytes.HasPrefix(head[:n], []byte(magicV1[:len(magicV1)-1])) && n == len(head)
}

// Write stores the rows of shard i of n of sweep s as dir/FileName(i, n)
// (see Create); the rows must be exactly the configurations
// Shard(i, n, s.Configs), in that order, each with len(header) fields and
// the configuration index first.
func Write(dir string, s Sweep, i, n int, header []string, rows [][]string) error {
	w, err := Create(dir, s, i, n, header)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := w.Row(r); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// Writer writes one shard file row by row, so that a sweep holds no more
// than the rows in flight: rows go to a temporary file in dir as they come,
// and Close adds the trailer, syncs and links the file to its final name,
// which fails if the name exists: a shard file is never replaced, and of two
// writers racing for it exactly one succeeds. Readers never see a partial
// file under the final name.
type Writer struct {
	dir, name string
	tmp       *os.File
	buf       *bufio.Writer
	csv       *csv.Writer
	sum       hash.Hash // of the identification line and the body (v2)
	header    []string
	want      []int // the configurations, in order
	rows      int
}

// Create starts shard i of n of sweep s in dir, with the CSV header.
func Create(dir string, s Sweep, i, n int, header []string) (*Writer, error) {
	if err := checkShard(s, i, n); err != nil {
		return nil, err
	}
	if len(header) == 0 {
		return nil, fmt.Errorf("shard: %s: empty header; the first column must be the configuration index", FileName(i, n))
	}
	w := &Writer{dir: dir, name: FileName(i, n), sum: sha256.New(), header: header, want: members(i, n, s.Configs)}
	tmp, err := os.CreateTemp(dir, "."+w.name+".tmp-*")
	if err != nil {
		return nil, files.Describe(err, "creating a temporary file in", dir)
	}
	w.tmp = tmp
	w.buf = bufio.NewWriter(tmp)
	body := io.MultiWriter(w.buf, w.sum)
	w.csv = csv.NewWriter(body)
	fmt.Fprintf(body, "%s sweep=%s code=%s shard=%d/%d configs=%d\n", magic, s.ID, s.code(), i, n, s.Configs)
	if err := w.csv.Write(header); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// Row appends the next configuration's row.
func (w *Writer) Row(row []string) error {
	k := w.rows
	if k >= len(w.want) {
		return fmt.Errorf("shard: %s: more than %d rows (one per configuration %s)", w.name, len(w.want), list(w.want))
	}
	if len(row) != len(w.header) {
		return fmt.Errorf("shard: %s: row %d has %d fields, header has %d", w.name, k, len(row), len(w.header))
	}
	c, err := strconv.Atoi(row[0])
	if err != nil {
		return fmt.Errorf("shard: %s: row %d starts with %q, want the configuration index", w.name, k, row[0])
	}
	if c != w.want[k] {
		return fmt.Errorf("shard: %s: row %d is configuration %d, want %d (rows must be the shard's configurations %s in order)", w.name, k, c, w.want[k], list(w.want))
	}
	w.rows++
	if err := w.csv.Write(row); err != nil {
		return files.Describe(err, "writing", w.tmp.Name())
	}
	w.csv.Flush() // into buf: the row's bytes are no longer held as strings
	return files.Describe(w.csv.Error(), "writing a shard file in", w.dir)
}

// Close completes the file: every row given, trailer, sync, final name.
func (w *Writer) Close() error {
	if w.rows != len(w.want) {
		w.Abort()
		return fmt.Errorf("shard: %s: %d rows, want %d (one per configuration %s)", w.name, w.rows, len(w.want), list(w.want))
	}
	w.csv.Flush() // the header of a shard without rows
	if err := w.csv.Error(); err != nil {
		w.Abort()
		return files.Describe(err, "writing a shard file in", w.dir)
	}
	fmt.Fprintf(w.buf, "# complete rows=%d sha256=%s\n", w.rows, hex.EncodeToString(w.sum.Sum(nil)))
	tmpName := w.tmp.Name()
	err := w.buf.Flush()
	if err == nil {
		err = w.tmp.Chmod(0o644) // readable like any output file
	}
	if err == nil {
		err = w.tmp.Sync()
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmpName)
		return files.Describe(err, "writing a shard file in", w.dir)
	}
	return publish(w.dir, w.name, tmpName)
}

// Abort drops the unfinished file.
func (w *Writer) Abort() {
	w.tmp.Close()
	os.Remove(w.tmp.Name())
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
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	return parseFile(path, data)
}

// MaxFileBytes bounds a shard file read whole: 10,000 configurations of rows
// of a few kilobytes (the warnings make them long) stay far below it.
const MaxFileBytes = 256 << 20

// readBounded reads a shard file, which must be a regular file of at most
// MaxFileBytes. A missing file (or a dangling symlink) is fs.ErrNotExist;
// any other kind of file is an *InvalidFileError.
func readBounded(path string) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, &InvalidFileError{path, "is not a regular file (a folder, device or FIFO)"}
	case st.Size() > MaxFileBytes:
		return nil, &InvalidFileError{path, fmt.Sprintf("has %d bytes, more than a shard file holds (%d)", st.Size(), MaxFileBytes)}
	}
	return files.ReadRegular(path, MaxFileBytes, "shard file")
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

// publish gives the synced temporary file tmpName its final name dir/name
// by a hard link, which fails if the name exists: the file is created
// exactly once and never replaced.
func publish(dir, name, tmpName string) error {
	defer os.Remove(tmpName) // the link's other name (gone after a rename)
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
			return files.Describe(err, "creating", final)
		}
	}
	// Sync the directory so the new name itself survives a crash.
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
