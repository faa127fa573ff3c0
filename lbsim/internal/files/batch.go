package files

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
)

// Batch replaces several files as one: each is written whole to a synced
// temporary file beside its name, and only when every one is written does
// Commit rename them over their names. A failure before (a full disk, a
// failed step between two files) leaves every previous file as it was, so a
// folder never holds a report cut short beside the old report's PDF.
// Discard (deferred) removes what was staged and not committed.
//
// A file keeps its permissions when replaced; a new file is 0644 (an output
// is for sharing). Names are resolved as [Replace] does (links followed);
// only regular files and new names can be staged.
type Batch struct {
	staged []staged
}

type staged struct {
	tmp, path string
	mode      fs.FileMode
	external  bool // written by another program: synced at Commit
}

// Write stages data as the next content of path and returns the temporary
// file's name, which another program may read before Commit (it ends with
// path's extension, so a browser opens a staged page as a page).
func (b *Batch) Write(path string, data []byte) (tmp string, err error) {
	target, info, err := resolve(path)
	if err != nil {
		return "", err
	}
	if info != nil && !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (a folder, device, FIFO or socket); name a file", path)
	}
	if err := b.stage(target, data); err != nil {
		return "", err
	}
	return b.staged[len(b.staged)-1].tmp, nil
}

// Reserve stages a temporary name beside path for a file that another
// program writes (Chromium prints a PDF to a name); Commit renames it over
// path. The name exists (empty) on return; the program may replace it.
func (b *Batch) Reserve(path string) (tmp string, err error) {
	target, info, err := resolve(path)
	if err != nil {
		return "", err
	}
	if info != nil && !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (a folder, device, FIFO or socket); name a file", path)
	}
	f, err := createTemp(target)
	if err != nil {
		return "", Describe(err, "writing", path)
	}
	b.staged = append(b.staged, staged{tmp: f.Name(), path: target, mode: modeFor(target), external: true})
	return f.Name(), Describe(f.Close(), "writing", path)
}

// stage writes data to a synced temporary file beside the resolved name path.
func (b *Batch) stage(path string, data []byte) error {
	f, err := createTemp(path)
	if err != nil {
		return Describe(err, "writing", path)
	}
	b.staged = append(b.staged, staged{tmp: f.Name(), path: path, mode: modeFor(path)})
	err = f.Chmod(modeFor(path))
	if err == nil {
		err = write(f, data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return Describe(err, "writing", path)
}

// Commit renames every staged file over its name, in the order staged. It
// fails, renaming nothing, when a file another program was to write is
// missing.
func (b *Batch) Commit() error {
	for _, s := range b.staged {
		if !s.external {
			continue
		}
		f, err := os.OpenFile(s.tmp, os.O_RDWR, 0)
		if err != nil {
			return Describe(err, "writing", s.path)
		}
		err = f.Chmod(s.mode)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return Describe(err, "writing", s.path)
		}
	}
	for len(b.staged) > 0 {
		s := b.staged[0]
		if err := os.Rename(s.tmp, s.path); err != nil {
			return Describe(err, "writing", s.path)
		}
		b.staged = b.staged[1:]
	}
	return nil
}

// Discard removes the temporary files not committed; it does nothing after
// a successful Commit.
func (b *Batch) Discard() {
	for _, s := range b.staged {
		os.Remove(s.tmp)
	}
	b.staged = nil
}

// createTemp creates the temporary file for path: hidden, beside it (a
// rename within a folder is atomic), ending with path's extension.
func createTemp(path string) (*os.File, error) {
	base := filepath.Base(path)
	return os.CreateTemp(filepath.Dir(path), "."+base+".tmp-*"+filepath.Ext(base))
}

// modeFor is the mode a replacement of path gets: the existing file's, or
// 0644 for a new one.
func modeFor(path string) fs.FileMode {
	if st, err := os.Stat(path); err == nil {
		return st.Mode().Perm()
	}
	return 0o644
}

// free is the space left on the simulated full disk (SimulateFullDisk), or
// -1 for the real disk.
var free atomic.Int64

func init() { free.Store(-1) }

// SimulateFullDisk makes this package's writes behave as on a disk with n
// bytes free: once n more bytes are written (over all files) a write stops
// there and fails with ENOSPC, as the kernel's does, until restore is
// called. It is for tests of callers, since a real full disk needs root.
func SimulateFullDisk(n int64) (restore func()) {
	free.Store(n)
	return func() { free.Store(-1) }
}

// write writes data to f, as far as the simulated disk allows.
func write(f *os.File, data []byte) error {
	for {
		left := free.Load()
		if left < 0 {
			_, err := f.Write(data)
			return err
		}
		n := min(int64(len(data)), left)
		if !free.CompareAndSwap(left, left-n) {
			continue
		}
		if _, err := f.Write(data[:n]); err != nil {
			return err
		}
		if n < int64(len(data)) {
			return &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return nil
	}
}

// ReplaceDir makes staged, a complete folder beside path, the folder path:
// the previous folder is renamed aside, staged renamed in, and the previous
// removed, so that path holds either the previous files or all the new ones
// (for an instant, between the renames, none). A failure puts the previous
// folder back.
func ReplaceDir(path, staged string) error {
	aside := ""
	if _, err := os.Lstat(path); err == nil {
		aside = staged + ".previous"
		if err := os.Rename(path, aside); err != nil {
			return Describe(err, "replacing the folder", path)
		}
	}
	if err := os.Rename(staged, path); err != nil {
		if aside != "" {
			os.Rename(aside, path)
		}
		return Describe(err, "replacing the folder", path)
	}
	if aside != "" {
		return Describe(os.RemoveAll(aside), "removing the previous folder of", path)
	}
	return nil
}
