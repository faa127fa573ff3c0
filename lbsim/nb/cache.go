package nb

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Cached returns the value compute returned for key, reusing a copy stored
// on disk by an earlier run, so a notebook does not redo an expensive sweep
// every time GoNB re-runs the program for a new cell.
//
// key must hold every input of the computation (parameters and seeds); it is
// JSON-encoded. The file name is the SHA-256 of that JSON, the type T, and a
// fingerprint of the simulator's source code (every non-test .go file under
// the repository's lbsim/ directory, plus go.mod), so editing the simulator
// invalidates old results and a report never shows stale numbers. If the
// source cannot be found (a binary built elsewhere), nothing is cached.
//
// Values are stored with encoding/gob (exact floats, NaN and Inf included),
// so T must be gob-encodable: exported fields, no funcs or channels. The
// directory is $LBSIM_CACHE_DIR, else $XDG_CACHE_HOME/lbsim, else
// ~/.cache/lbsim; LBSIM_NO_CACHE=1 turns caching off. Files are written
// atomically; an unreadable or corrupt file is recomputed and replaced.
// An error from compute is returned and nothing is stored.
func Cached[T any](key any, compute func() (T, error)) (T, error) {
	var zero T
	keyJSON, err := json.Marshal(key)
	if err != nil {
		return zero, fmt.Errorf("nb.Cached: the key (%T) cannot be JSON-encoded: %v; use a struct of numbers and strings (NaN and Inf are not allowed)", key, err)
	}
	if os.Getenv("LBSIM_NO_CACHE") == "1" {
		return compute()
	}
	fp, err := sourceFingerprintOnce()
	if err != nil {
		warnOnce(fmt.Sprintf("nb.Cached: not caching: %v", err))
		return compute()
	}
	dir, err := CacheDir()
	if err != nil {
		warnOnce(fmt.Sprintf("nb.Cached: not caching: %v", err))
		return compute()
	}
	typ := reflect.TypeFor[T]().String()
	sum := sha256.Sum256([]byte(string(keyJSON) + "\x00" + typ + "\x00" + fp))
	path := filepath.Join(dir, hex.EncodeToString(sum[:])+".gob")

	if v, ok := readEntry[T](path, string(keyJSON)); ok {
		return v, nil
	}
	v, err := compute()
	if err != nil {
		return zero, err
	}
	if err := writeEntry(path, cacheEntry[T]{Key: string(keyJSON), Type: typ, Value: v}); err != nil {
		warnOnce(fmt.Sprintf("nb.Cached: result computed but not stored: %v", err))
	}
	return v, nil
}

// cacheEntry is one cache file. The key is stored to detect a collision or a
// file copied by hand, which are treated like a corrupt file.
type cacheEntry[T any] struct {
	Key   string
	Type  string
	Value T
}

func readEntry[T any](path, key string) (T, bool) {
	var e cacheEntry[T]
	b, err := os.ReadFile(path)
	if err != nil {
		return e.Value, false
	}
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&e); err != nil || e.Key != key {
		var zero T
		return zero, false
	}
	return e.Value, true
}

func writeEntry[T any](path string, e cacheEntry[T]) (err error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(e); err != nil {
		return fmt.Errorf("the value (%s) cannot be gob-encoded: %w", e.Type, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// CacheDir returns the directory Cached uses: $LBSIM_CACHE_DIR, else
// $XDG_CACHE_HOME/lbsim, else ~/.cache/lbsim. Delete it to drop every
// cached result.
func CacheDir() (string, error) {
	if d := os.Getenv("LBSIM_CACHE_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "lbsim"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %v; set LBSIM_CACHE_DIR", err)
	}
	return filepath.Join(home, ".cache", "lbsim"), nil
}

var sourceFingerprintOnce = sync.OnceValues(func() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate the lbsim source (runtime.Caller failed)")
	}
	// file is .../lbsim/nb/cache.go; the simulator is .../lbsim.
	return sourceFingerprint(filepath.Dir(filepath.Dir(file)))
})

// sourceFingerprint hashes the names and contents of the non-test .go files
// under root, and the go.mod beside root (dependency versions change random
// streams and distributions too).
func sourceFingerprint(root string) (string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("cannot read the lbsim source in %s: %v", root, err)
	}
	if len(files) == 0 {
		return "", fmt.Errorf("no .go files in %s, so code changes could not invalidate the cache", root)
	}
	sort.Strings(files)
	if gomod := filepath.Join(filepath.Dir(root), "go.mod"); fileExists(gomod) {
		files = append(files, gomod)
	}
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("cannot read %s: %v", f, err)
		}
		rel, _ := filepath.Rel(root, f)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

var warned sync.Map

// warnOnce prints a message to stderr (shown under the cell in GoNB) once
// per program run.
func warnOnce(msg string) {
	if _, dup := warned.LoadOrStore(msg, true); !dup {
		fmt.Fprintln(os.Stderr, msg)
	}
}
