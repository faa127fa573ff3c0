package lbsim

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// The parse cache: a trace or a size file is parsed once per machine, not
// once per program (GoNB runs each notebook cell as a new program, and a
// 10^6-line log takes seconds to parse). The columns are stored as float64s
// in files.CacheDir()/parsed, named by the SHA-256 of the file's content,
// so a changed file is never served an old parse. An entry is
//
//	magic | SHA-256 of the source | columns, rows (uint64) | float64s, a column after the other | SHA-256 of all before
//
// little-endian, and is read only when every part checks.

// parseCacheMin is the smallest file the cache keeps: a smaller one is
// parsed faster than its entry is read. Tests lower it.
var parseCacheMin int64 = 1 << 20

const parseMagic = "lbsim parsed v1\n"

// parseFile returns path's ncols columns, parsed or from the cache, and the
// content's SHA-256. kind names the parse ("trace", "sizes": two entries
// for two parses), what the file, for a folder's error.
func parseFile(path, kind, what string, ncols int, parse func(r io.Reader) ([][]float64, error)) ([][]float64, [32]byte, error) {
	var sum [32]byte
	// Not os.Open: a FIFO with no writer would block it for ever, and a
	// device would never end (files.OpenInput never waits).
	r, f, st, err := files.OpenInput(path)
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			return nil, sum, fmt.Errorf("%s is a folder: give %s in it, e.g. %s", path, what, filepath.Join(path, "jobs.csv"))
		}
		if errors.Is(err, files.ErrNotRegular) {
			return nil, sum, fmt.Errorf("%s %w; give the path of a file", what, err)
		}
		if errors.Is(err, files.ErrNoWriter) {
			return nil, sum, fmt.Errorf("%s %w", what, err)
		}
		return nil, sum, err
	}
	defer f.Close()
	entry := ""
	if st.Mode().IsRegular() && st.Size() >= parseCacheMin && !parseCacheOff() {
		h := sha256.New()
		if _, err := io.Copy(h, r); err != nil {
			return nil, sum, err
		}
		h.Sum(sum[:0])
		if dir, err := files.CacheDir(); err == nil {
			entry = filepath.Join(dir, "parsed", hex.EncodeToString(sum[:])+"."+kind)
			if cols, ok := readParsed(entry, sum, ncols); ok {
				return cols, sum, nil
			}
		}
		if _, err := r.(io.Seeker).Seek(0, io.SeekStart); err != nil {
			return nil, sum, err
		}
	}
	// The content's hash is taken as it is parsed: it names what was parsed
	// even if the file changed since it was hashed above.
	h := sha256.New()
	cols, err := parse(io.TeeReader(r, h))
	if err != nil {
		return nil, sum, err
	}
	io.Copy(h, r) // what parse left unread (nothing, after a whole parse)
	var read [32]byte
	h.Sum(read[:0])
	if entry != "" && read == sum {
		if err := writeParsed(entry, sum, cols); err != nil {
			parseCacheWarn.Do(func() {
				fmt.Fprintf(os.Stderr, "lbsim: warning: the parsed %s is not cached (it is parsed again next time): %v\n", path, err)
			})
		}
	}
	return cols, read, nil
}

var parseCacheWarn sync.Once

// parseCacheOff: LBSIM_NO_CACHE=1 turns the cache off, as for nb.Cached.
func parseCacheOff() bool {
	off, _ := strconv.ParseBool(os.Getenv("LBSIM_NO_CACHE"))
	return off
}

// readParsed reads an entry of ncols columns, checking its magic, source
// hash, shape and checksum; ok is false for a missing or damaged entry.
func readParsed(path string, sum [32]byte, ncols int) (cols [][]float64, ok bool) {
	data, err := os.ReadFile(path)
	head := len(parseMagic) + 32 + 16
	if err != nil || len(data) < head+32 || string(data[:len(parseMagic)]) != parseMagic ||
		!bytes.Equal(data[len(parseMagic):len(parseMagic)+32], sum[:]) {
		return nil, false
	}
	body := data[:len(data)-32]
	if check := sha256.Sum256(body); !bytes.Equal(check[:], data[len(body):]) {
		return nil, false
	}
	nc := binary.LittleEndian.Uint64(data[head-16:])
	nr := binary.LittleEndian.Uint64(data[head-8:])
	if nc != uint64(ncols) || nr > uint64(len(body)) || uint64(len(body)-head) != nc*nr*8 {
		return nil, false
	}
	cols = make([][]float64, nc)
	at := head
	for c := range cols {
		cols[c] = make([]float64, nr)
		for i := range cols[c] {
			cols[c][i] = math.Float64frombits(binary.LittleEndian.Uint64(data[at:]))
			at += 8
		}
	}
	return cols, true
}

// writeParsed stores an entry atomically (files.Replace).
func writeParsed(path string, sum [32]byte, cols [][]float64) error {
	nr := 0
	if len(cols) > 0 {
		nr = len(cols[0])
	}
	data := make([]byte, 0, len(parseMagic)+32+16+8*nr*len(cols)+32)
	data = append(data, parseMagic...)
	data = append(data, sum[:]...)
	data = binary.LittleEndian.AppendUint64(data, uint64(len(cols)))
	data = binary.LittleEndian.AppendUint64(data, uint64(nr))
	for _, col := range cols {
		for _, x := range col {
			data = binary.LittleEndian.AppendUint64(data, math.Float64bits(x))
		}
	}
	check := sha256.Sum256(data)
	data = append(data, check[:]...)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return files.Replace(path, data, nil)
}
