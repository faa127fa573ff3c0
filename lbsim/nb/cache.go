package nb

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/internal/runlog"
)

// Cached returns the value compute returned for key, reusing a copy stored
// on disk by an earlier run, so a notebook does not redo an expensive sweep
// every time GoNB re-runs the program for a new cell.
//
// key must hold every input of the computation (parameters and seeds); it is
// JSON-encoded. The file name is the SHA-256 of that JSON, the full shape of
// the type T (every field's name and type, recursively, so a struct that
// gains a field is a new entry, never decoded with zeros), and the code
// version of the running binary (lbsim.CodeVersion: a hash of the simulator
// source compiled into it), so a changed simulator never serves old results
// and an old binary never files its results under a new version. The
// notebook's own code that computes the value is not in the key: change the
// key (e.g. add a version field) when you change that code, or call
// CachedFresh once. A policy of one's own in an lbsim.Config is in its Key
// by what it does (a fingerprint of its fields and its choices on a short
// probe), but an edit the probe does not exercise is not seen: use
// Fresh.Sweep then (which, finding other numbers under the key, recomputes
// it every run from then on: see ambiguousSuffix).
//
// Values are stored with encoding/gob (exact floats, NaN and Inf included),
// so T must be gob-encodable: exported fields, no funcs or channels. What
// gob does not keep is missing alike whether the value was computed or read
// back: unexported fields, and the Config of an lbsim.Row or lbsim.Result
// (nb.RunAll and nb.Results put the configurations back). Each
// file carries a SHA-256 of its contents: a file damaged in any bit is
// recomputed and replaced, never decoded; a file that cannot be an entry (a
// FIFO, a device, over maxEntryBytes) is recomputed with a warning, never
// read whole. A result that cannot be stored (a full disk) is returned with
// one warning per directory and cause, which says what to do. The directory is
// $LBSIM_CACHE_DIR, else $XDG_CACHE_HOME/lbsim, else ~/.cache/lbsim;
// LBSIM_NO_CACHE=1 turns caching off. Files are written atomically, and a key
// is computed by one process at a time (a lock file beside its entry): a
// second notebook asking for results another is computing waits and reads
// them. An
// error from compute is returned and nothing is stored. A key that holds
// an lbsim.Config.Key whose policy's probe did not finish
// (lbsim.KeyUnfinished) names no known behaviour: its value is computed
// every time, never stored nor served, with a note saying why.
func Cached[T any](key any, compute func() (T, error)) (T, error) {
	return cached(key, 1, compute, false, nil)
}

// CachedFresh is Cached without reading the cache: it always computes, and
// stores the value in place of the old one, so that later calls of Cached
// with this key read the new value. It has Cached's signature, to drop in
// where a function is passed (staleness.Runner{Cache: nb.CachedFresh[T]}).
func CachedFresh[T any](key any, compute func() (T, error)) (T, error) {
	return cached(key, 1, compute, true, nil)
}

// cached is Cached, reading the cache unless fresh. With same, which tells
// whether two values are the same numbers, the key is checked as Fresh
// recomputes it: see ambiguousSuffix. results is how many results the value
// holds, for the run log: a run's configurations, 1 for a value of Cached.
func cached[T any](key any, results int, compute func() (T, error), fresh bool, same func(a, b T) bool) (T, error) {
	warnUnknownOverrides()
	var zero T
	keyJSON, err := json.Marshal(key)
	if err != nil {
		return zero, fmt.Errorf("nb.Cached: the key (%T) cannot be JSON-encoded: %v; use a struct of numbers and strings (NaN and Inf are not allowed)", key, err)
	}
	e := cacheEntry[T]{Key: string(keyJSON), Type: typeShape(reflect.TypeFor[T]()), Code: lbsim.CodeVersion()}
	sum := sha256.Sum256([]byte(e.Key + "\x00" + e.Type + "\x00" + e.Code))
	name := hex.EncodeToString(sum[:])
	off, err := boolEnv("NO_CACHE")
	if err != nil {
		return zero, err
	}
	if off {
		return computeLogged(name, results, compute)
	}
	if why, unfinished := lbsim.KeyUnfinished(e.Key); unfinished {
		json.Unmarshal([]byte(`"`+why+`"`), &why) // undo the key's JSON escapes, if it can
		warnOnce("unfinished\x00"+why, fmt.Sprintf("nb: not cached: %s. lbsim.Config.Key could not learn what "+
			"the policy does, so these results are computed every run, never stored nor served. To cache them, make "+
			"Pick return whatever the state of the servers (e.g. after K draws take the least loaded one); to compute "+
			"without the cache, and without this note, set LBSIM_NO_CACHE=1", why))
		return computeLogged(name, results, compute)
	}
	dir, err := CacheDir()
	if err != nil {
		warnOnce("no dir", fmt.Sprintf("nb.Cached: not caching: %v", err))
		return computeLogged(name, results, compute)
	}
	path := filepath.Join(dir, name+".gob")
	mark := filepath.Join(dir, name+ambiguousSuffix)
	if same != nil && isAmbiguous(mark) {
		warnOnce("ambiguous\x00"+mark, fmt.Sprintf("nb: recomputed every run, never served from the cache: a fresh run once "+
			"gave other numbers than those cached under the same key, so the key does not tell your code's versions "+
			"apart (an edit of a policy that its probe does not see: see lbsim.Config.Key). %s", ambiguousFix(mark)))
		return computeLogged(name, results, compute)
	}

	old, hit := readEntry(path, e)
	if hit && !fresh {
		logRun(runlog.Event{Key: name, Results: results, Hit: true})
		return old, nil
	}
	// One process computes a key at a time: another (a second notebook running the same
	// configurations, e.g. notebook 05 the FCFS runs of 04) waits, then reads its result.
	unlock := lockEntry(path + ".lock")
	defer unlock()
	if !fresh {
		if old, hit = readEntry(path, e); hit {
			logRun(runlog.Event{Key: name, Results: results, Hit: true})
			return old, nil
		}
	}
	v, err := computeLogged(name, results, compute)
	if err != nil {
		return zero, err
	}
	e.Value = v
	data, err := encodeEntry(e)
	if err != nil {
		msg := fmt.Sprintf("nb.Cached: result computed but not stored: %v", err)
		warnOnce(msg, msg)
		return v, nil
	}
	// Return what a later run reads from the entry, not v itself: gob keeps
	// what it can encode (not a Row's or a Result's Config, not unexported
	// fields), and a cell must not show one value when it computed and
	// another when it read the cache.
	if stored, ok := decodeEntry(data, e); ok {
		v = stored
	}
	if same != nil && hit && !same(old, v) {
		markAmbiguous(dir, path, mark)
		return v, nil
	}
	if err := writeEntry(path, data); err != nil {
		storeFailed(dir, err)
	}
	return v, nil
}

// lockEntry takes the lock of a cache entry (files.Lock, released however the process
// ends), saying so when it has to wait for another process. Without a lock (a read-only
// directory, a file system without flock) it computes as before.
func lockEntry(lock string) (unlock func()) {
	unlock, err := files.Lock(lock, false)
	if errors.Is(err, files.ErrLocked) {
		done := lockWaiting(lock)
		unlock, err = files.Lock(lock, true)
		done()
	}
	if err != nil {
		return func() {}
	}
	return unlock
}

// lockWaiting shows, while Cached waits for the lock of an entry, a progress line (a bar in a
// notebook, cleared when done: a report reads the same whether the results were waited for or
// not). A seam for the tests.
var lockWaiting = func(lock string) (done func()) {
	return NewProgress("waiting for another process computing these results (lock "+lock+")", 0).Done
}

// A key is ambiguous when it names results of different code. Config.Key
// knows a policy of one's own by what it does in a short probe, so an edit
// the probe does not see keeps the key; CodeVersion is the same for both
// versions of the notebook's code. Fresh then recomputes: if its numbers
// differ from those cached under the same key and code version, which a
// run that is reproducible (the same seed gives the same numbers) cannot
// do, the key has named two versions of the code. Storing the new numbers
// in place of the old would serve them to the old code when it comes back
// (an undo, another notebook with the same policy); keeping the old would
// serve them to the new. Neither is right, so the entry is removed and a
// mark left in its place: the key is computed every run, with a note, and
// never served from the cache again. The mark is a file beside the
// entries (ambiguousSuffix); deleting it, or giving the versions different
// keys (an exported field such as Version), caches the key again.
// Fresh recomputations that give the same numbers, the common case, leave
// the entry as it was.
const ambiguousSuffix = ".ambiguous"

// isAmbiguous reports whether the mark of an ambiguous key exists.
func isAmbiguous(mark string) bool {
	_, err := os.Lstat(mark)
	return err == nil
}

// markAmbiguous removes the entry at path and leaves the mark in its
// place, with a note.
func markAmbiguous(dir, path, mark string) {
	err := writeEntry(mark, []byte("Fresh computed other numbers than those cached under this key: it is recomputed every run; delete this file to cache it again\n"))
	if err != nil {
		storeFailed(dir, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		storeFailed(dir, err)
	}
	warnOnce("marked\x00"+mark, fmt.Sprintf("nb: the fresh run gave other numbers than those cached under the same "+
		"key, so the key does not tell your code's versions apart (an edit of a policy that its probe does not see: "+
		"see lbsim.Config.Key); the cached numbers are dropped and these configurations are recomputed every run "+
		"from now on, never served from the cache. %s", ambiguousFix(mark)))
}

// ambiguousFix says how to cache an ambiguous key again.
func ambiguousFix(mark string) string {
	return "To cache them again, make the versions of your policy differ in an exported field or in String() (e.g. " +
		"a field Version), or delete " + mark
}

// storeFailed warns that a result was not stored in dir, and what to do:
// once per directory and cause (a full disk fails every entry of every
// goroutine alike; the temp file's name is left out of the key).
func storeFailed(dir string, err error) {
	cause := err
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		cause = pe.Err
	case errors.As(err, &le):
		cause = le.Err
	}
	fix := "point LBSIM_CACHE_DIR at a writable directory, or set LBSIM_NO_CACHE=1 to compute without caching"
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		fix = "free space there, point LBSIM_CACHE_DIR at a disk with room, or set LBSIM_NO_CACHE=1 to compute without caching"
	}
	warnOnce("store\x00"+dir+"\x00"+cause.Error(),
		fmt.Sprintf("nb.Cached: results computed but not stored in %s: %v; %s", dir, err, fix))
}

// cacheEntry is one cache file's payload. Key, type shape and code version
// are stored to detect a collision or a file copied by hand, which are
// treated like a corrupt file.
type cacheEntry[T any] struct {
	Key, Type, Code string
	Value           T
}

// cacheMagic starts every cache file; the SHA-256 of the gob payload that
// follows the first line comes after it.
const cacheMagic = "lbsim-cache v2 sha256="

// maxEntryBytes bounds a cache file. Cached stores no larger entry; the
// largest it is meant for, a sweep's rows (about 1.8 KB a row in gob, with
// two warnings) for the largest grid (lbsim.MaxGridConfigs = 1e6 rows),
// fits. A larger file is not one of its entries: it is skipped unread.
const maxEntryBytes = 2 << 30

// readEntry returns the value stored at path if the file is intact and holds
// the entry want describes (same key, type shape and code version). No file
// is a miss; a file that cannot be an entry (a FIFO, a device, a directory,
// a file over maxEntryBytes) is a miss with a warning, never read whole.
func readEntry[T any](path string, want cacheEntry[T]) (T, bool) {
	b, err := readEntryFile(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			warnOnce("read\x00"+path, fmt.Sprintf("nb.Cached: ignoring the cache entry %s: %v; the result is recomputed and stored in its place (delete the file if this repeats)", path, err))
		}
		var zero T
		return zero, false
	}
	return decodeEntry(b, want)
}

// readEntryFile reads a cache file that is a regular file of at most
// maxEntryBytes (files.OpenRegular: a FIFO put there never blocks the
// open); the read is bounded by the size found once open (plus one byte,
// to see growth).
func readEntryFile(path string) ([]byte, error) {
	f, err := files.OpenRegular(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxEntryBytes {
		return nil, fmt.Errorf("its %d bytes are larger than the %d bytes an entry may hold", fi.Size(), int64(maxEntryBytes))
	}
	b := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, b)
	switch {
	case n == len(b):
		return nil, fmt.Errorf("it grew while being read")
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return b[:n], nil
	}
	return nil, err
}

// decodeEntry checks the file's checksum before decoding anything.
func decodeEntry[T any](b []byte, want cacheEntry[T]) (v T, ok bool) {
	head, payload, found := bytes.Cut(b, []byte("\n"))
	if !found || !bytes.HasPrefix(head, []byte(cacheMagic)) {
		return v, false
	}
	sum := sha256.Sum256(payload)
	if string(head[len(cacheMagic):]) != hex.EncodeToString(sum[:]) {
		return v, false
	}
	defer func() { // gob should not panic on intact data; be safe anyway
		if recover() != nil {
			var zero T
			v, ok = zero, false
		}
	}()
	var e cacheEntry[T]
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&e); err != nil ||
		e.Key != want.Key || e.Type != want.Type || e.Code != want.Code {
		return v, false
	}
	return e.Value, true
}

// encodeEntry is the file's bytes: the magic line with the payload's hash,
// then the gob payload; at most maxEntryBytes, which readEntry reads.
func encodeEntry[T any](e cacheEntry[T]) ([]byte, error) {
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(e); err != nil {
		return nil, fmt.Errorf("the value (%v) cannot be gob-encoded: %w", reflect.TypeFor[T](), err)
	}
	sum := sha256.Sum256(payload.Bytes())
	data := append([]byte(cacheMagic+hex.EncodeToString(sum[:])+"\n"), payload.Bytes()...)
	if len(data) > maxEntryBytes {
		return nil, fmt.Errorf("the value takes %d bytes, more than the %d bytes a cache entry may hold, so it is recomputed every run; cache it in smaller pieces (e.g. split the sweep)", len(data), int64(maxEntryBytes))
	}
	return data, nil
}

// writeEntry stores data at path atomically: a temp file renamed over it.
func writeEntry(path string, data []byte) (err error) {
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
	if _, err := writeTemp(tmp, data); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// typeShape describes t in full: a named type by its package path and name
// and, for structs, every field's name, tag and shape, recursively (a
// recursive type is named, not expanded, the second time).
func typeShape(t reflect.Type) string {
	var b strings.Builder
	shapeOf(&b, t, map[reflect.Type]bool{})
	return b.String()
}

func shapeOf(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	if t.Name() != "" {
		b.WriteString(t.PkgPath() + "." + t.Name())
		if seen[t] || t.PkgPath() == "" {
			return
		}
		seen[t] = true
		b.WriteString("=")
	}
	switch t.Kind() {
	case reflect.Struct:
		b.WriteString("struct{")
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(b, "%s %q ", f.Name, f.Tag)
			shapeOf(b, f.Type, seen)
			b.WriteString(";")
		}
		b.WriteString("}")
	case reflect.Pointer, reflect.Slice:
		b.WriteString(t.Kind().String() + " ")
		shapeOf(b, t.Elem(), seen)
	case reflect.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		shapeOf(b, t.Elem(), seen)
	case reflect.Map:
		b.WriteString("map[")
		shapeOf(b, t.Key(), seen)
		b.WriteString("]")
		shapeOf(b, t.Elem(), seen)
	default:
		b.WriteString(t.Kind().String())
	}
}

// CacheDir returns the directory Cached uses: $LBSIM_CACHE_DIR, else
// $XDG_CACHE_HOME/lbsim, else ~/.cache/lbsim. Delete it to drop every
// cached result.
func CacheDir() (string, error) { return files.CacheDir() }

// writeTemp writes the temp file of an entry: a seam for the tests, which
// make it fail as a full disk does (cache_unix_test.go).
var writeTemp = (*os.File).Write

var warned sync.Map

// warnOnce prints msg to stderr (shown under the cell in GoNB) once per
// program run and key: the cause, without what changes from call to call.
func warnOnce(key, msg string) {
	if _, dup := warned.LoadOrStore(key, true); !dup {
		fmt.Fprintln(os.Stderr, msg)
	}
}
