// Package files is how lbsim writes and reads the files a user names: one
// writer that never replaces what it was not asked to replace, and bounded
// readers that neither hang on a FIFO nor run out of memory on /dev/zero.
// Errors are one line naming the path, what is wrong and what to do.
package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Replace makes data the content of path, the way a user means "-o path":
//   - a new name, or a regular file, is replaced atomically: data goes to a
//     synced temporary file in the same folder, renamed over the name, so a
//     reader never sees half a table;
//   - a symlink is followed: its final target is replaced and the link
//     stays (renaming over the link would leave the target's old content);
//   - a device, FIFO or socket (/dev/stdout, /dev/null, a pipe) is written
//     through, never renamed over: as root, a rename would replace /dev/null;
//   - a folder, a dangling symlink or a missing parent folder is an error
//     that says what to do.
//
// refuse, if not nil, is asked about an existing regular file (after
// following links) and may veto the write: merge uses it to protect shard
// files.
func Replace(path string, data []byte, refuse func(path string) error) error {
	target, info, err := resolve(path)
	if err != nil {
		return err
	}
	if info != nil && info.Mode().IsRegular() && refuse != nil {
		if err := refuse(target); err != nil {
			return err
		}
	}
	switch {
	case info == nil || info.Mode().IsRegular():
		return replaceRegular(target, data)
	case info.IsDir():
		return fmt.Errorf("%s is a folder; name a file in it, e.g. %s", path, filepath.Join(path, "sweep.csv"))
	default: // device, FIFO, socket
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return Describe(err, "writing", path)
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return Describe(err, "writing", path)
		}
		return Describe(f.Close(), "writing", path)
	}
}

// resolve follows path's symlinks to the name that is written: the final
// target and its FileInfo, or a nil FileInfo for a new file in an existing
// folder.
func resolve(path string) (string, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err == nil {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", nil, Describe(err, "resolving", path)
		}
		return target, info, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", nil, Describe(err, "writing", path)
	}
	if l, lerr := os.Lstat(path); lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
		dest, _ := os.Readlink(path)
		return "", nil, fmt.Errorf("%s is a symlink to %s, which does not exist; remove the link or create its target's folder", path, dest)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", nil, fmt.Errorf("cannot write %s: its folder %s does not exist; create it (mkdir -p %s) or write elsewhere", path, dir, dir)
	}
	return path, nil, nil
}

// replaceRegular writes data to a synced temporary file beside path and
// renames it over path: a batch of one file.
func replaceRegular(path string, data []byte) error {
	var b Batch
	defer b.Discard()
	if err := b.stage(path, data); err != nil {
		return err
	}
	return b.Commit()
}

// Describe turns a file system error while doing something to path into
// one line with the fix: no space, no permission, a read-only file system.
// It returns nil for a nil error.
func Describe(err error, doing, path string) error {
	if err == nil {
		return nil
	}
	var fix string
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		fix = "no space left on the device (or over quota); free some space or write to another disk"
	case errors.Is(err, syscall.EROFS):
		fix = "the file system is read-only; write elsewhere"
	case errors.Is(err, fs.ErrPermission):
		fix = "permission denied; write to a folder you own, or fix the permissions"
	case errors.Is(err, syscall.EISDIR):
		fix = "it is a folder; name a file instead"
	case errors.Is(err, syscall.ENOTDIR):
		fix = "a part of the path is a file, not a folder"
	case errors.Is(err, fs.ErrNotExist):
		fix = "it does not exist; check the path"
	default:
		return fmt.Errorf("%s %s: %w", doing, path, unwrapPath(err))
	}
	return fmt.Errorf("%s %s: %s (%w)", doing, path, fix, unwrapPath(err))
}

// unwrapPath drops the *PathError's own path (often a temporary file's
// name, which would confuse the user) and keeps the system's reason.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
