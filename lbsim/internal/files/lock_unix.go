//go:build unix

package files

import (
	"errors"
	"os"
	"syscall"
)

// ErrLocked is returned by Lock without wait when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// Lock takes an exclusive flock(2) on path (created if missing), which the
// kernel releases when the process ends however it ends, so a killed process
// leaves no stale lock. With wait it blocks until the lock is free; without,
// it returns ErrLocked at once. On a file system without flock (some cluster
// mounts) it returns no lock and no error: callers must not depend on it for
// safety alone. Call unlock to release it.
func Lock(path string, wait bool) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, Describe(err, "creating the lock file", path)
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return func() { f.Close() }, nil // closing the descriptor releases the lock
	case errors.Is(err, syscall.EWOULDBLOCK):
		f.Close()
		return nil, ErrLocked
	default:
		f.Close()
		return func() {}, nil
	}
}
