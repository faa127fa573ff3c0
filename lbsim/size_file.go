package lbsim

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// SizeFile is the empirical law of the sizes in a file (a request log),
// with any arrivals, load, speeds and policy ("-sizes file:requests.csv").
// Config.Key and sweep ids know the file by its SHA-256, tables by its base
// name and the hash's start ("file:requests.csv#3f2a91c04b1e").
type SizeFile struct {
	Empirical          // the file's sizes, in its order
	Path      string   // the file, as an absolute path (String is "file:" + Path)
	SHA256    [32]byte // of the file's content
}

func init() {
	mustRegister(sizeRegistry, Family[SizeLaw]{Name: "file", Example: "file:requests.csv",
		Summary: "the sizes in a file resampled uniformly: the size column of a trace CSV, or one size a line",
		NewText: func(path string) (SizeLaw, error) { return SizesFromFile(path) }})
}

// SizesFromFile reads a file's sizes as an empirical law: the size column
// of a trace CSV (see ReadTrace), of a CSV whose header names a column
// "size", or of a file of one size a line, with or without a header. Sizes
// are plain decimals > 0; blank lines and lines starting with '#' are
// skipped. A file of 1 MiB or more is parsed once per machine (parse_cache.go).
//
// The first row is a header when each of its fields is a name (ReadTrace's
// rule: an ASCII letter or '_' first, no '.'). In a file of one column,
// where a header and a mistyped size look alike, the name must also hold a
// letter other than O, o, I and l, which pass for the digits 0 and 1:
// "size" and "duration_ms" are headers, while "O", "l0" or "IO" on line 1
// is refused, naming the line, not dropped as a header.
func SizesFromFile(path string) (SizeFile, error) {
	if path == "" {
		return SizeFile{}, errors.New(`sizes file: no path given; write file:PATH, e.g. file:requests.csv`)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return SizeFile{}, fmt.Errorf("sizes file %s: %w", path, err)
	}
	var parseErr error
	cols, sum, err := parseFile(abs, "sizes", "the size file", 1, func(r io.Reader) ([][]float64, error) {
		xs, err := readSizes(r)
		parseErr = err
		return [][]float64{xs}, err
	})
	switch {
	case parseErr != nil:
		return SizeFile{}, fmt.Errorf("sizes file %s: %w", path, parseErr)
	case errors.Is(err, files.ErrNotRegular), errors.Is(err, files.ErrNoWriter):
		return SizeFile{}, err // names the size file already
	case err != nil:
		return SizeFile{}, fmt.Errorf("sizes file: %w", err)
	}
	return SizeFile{Empirical: NewEmpirical(cols[0]), Path: abs, SHA256: sum}, nil
}

// readSizes reads the size column (see SizesFromFile).
func readSizes(r io.Reader) ([]float64, error) {
	var xs []float64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line, col, ncol := 0, -1, 0 // col: the size column, once the first row has told it
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, ",")
		if col < 0 {
			ncol = len(fields)
			for k := range fields {
				fields[k] = strings.TrimSpace(fields[k])
			}
			switch header := isHeader(fields); {
			case header && ncol == 1 && !strings.ContainsFunc(fields[0], isPlainLetter):
				return nil, fmt.Errorf("line %d: %q is neither a size nor a header: a header's name has a letter other than O, o, I and l, which pass for 0 and 1; fix the size, or name the column size", line, clipText(text))
			case header && ncol == 1:
				col = 0
				continue
			case header:
				for k, f := range fields {
					if strings.EqualFold(f, "size") {
						col = k
					}
				}
				if col < 0 && ncol == 2 {
					col = 1 // a trace's header of its own: arrival, then size
				}
				if col < 0 {
					return nil, fmt.Errorf("line %d: the header %q names no column \"size\"; name the column of sizes size, or give one size a line", line, clipText(text))
				}
				continue
			case ncol == 1 || ncol == 2:
				col = ncol - 1 // one size a line, or a trace's arrival,size
			default:
				return nil, fmt.Errorf("line %d: %q has %d fields and no header: give one size a line, a trace's arrival,size, or a header naming the column size", line, clipText(text), ncol)
			}
		}
		if len(fields) != ncol {
			return nil, fmt.Errorf("line %d: %q has %d field(s) where the first row has %d; give every row the same columns", line, clipText(text), len(fields), ncol)
		}
		x, err := number.Float(strings.TrimSpace(fields[col]))
		switch {
		case err != nil:
			return nil, fmt.Errorf("line %d: size %v", line, err)
		case !(x >= MinMagnitude && x <= MaxMagnitude):
			return nil, fmt.Errorf("line %d: size %v is invalid: need a finite size in [%g, %g] (durations cannot be negative or zero); fix or drop the line", line, x, MinMagnitude, MaxMagnitude)
		case len(xs) == traceJobLimit:
			return nil, fmt.Errorf("line %d: more than %d sizes, the most lbsim holds in memory; use a part of the file (head -n %d)", line, traceJobLimit, traceJobLimit)
		}
		xs = append(xs, x)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("line %d is longer than 1 MiB: check that the file holds one size a line or a trace CSV", line+1)
	} else if err != nil {
		return nil, fmt.Errorf("reading line %d: %w", line+1, err)
	}
	if len(xs) == 0 {
		return nil, errors.New("no sizes found; give one size a line, or a trace CSV of arrival,size")
	}
	return xs, nil
}

// isPlainLetter reports whether r is an ASCII letter that does not pass
// for a digit (O and o for 0, I and l for 1).
func isPlainLetter(r rune) bool {
	return r < 0x80 && isASCIILetter(byte(r)) && !strings.ContainsRune("OoIl", r)
}

// String is the law's spec, "file:" and the file's path: ParseSizes reads
// the file again.
func (s SizeFile) String() string { return "file:" + s.Path }

// shortName is the law's name in tables: the file's base name and the
// first 12 hex digits of its SHA-256.
func (s SizeFile) shortName() (string, bool) {
	return fmt.Sprintf("file:%s#%s", filepath.Base(s.Path), hex.EncodeToString(s.SHA256[:6])), true
}

// contentKey is the law's part of Config.Key: the whole SHA-256, not the
// path, so that a file moved keeps its results and a file changed does not.
func (s SizeFile) contentKey() string { return "file#" + hex.EncodeToString(s.SHA256[:]) }

// Validate checks the law (SizesFromFile checked every value).
func (s SizeFile) Validate() error {
	if len(s.Values) == 0 || s.SHA256 == ([32]byte{}) {
		return fmt.Errorf("sizes %s: no sizes read; build the law with SizesFromFile", s)
	}
	return nil
}
