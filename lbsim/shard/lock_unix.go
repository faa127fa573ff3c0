//go:build unix

package shard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Lock claims shard i of n in dir for this process, so that two runs of the
// same shard (a resubmitted array task beside a slow one, two sweeps sent to
// one directory) do not both compute it: the second gets an error at once.
// The claim is an flock(2) on dir/.shard-<i>-of-<n>.lock, which the kernel
// releases when the process ends however it ends, so a killed task leaves no
// stale claim. Call the returned function to release it.
func Lock(dir string, i, n int) (unlock func(), err error) {
	path := filepath.Join(dir, "."+FileName(i, n)+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("shard: cannot create the lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("shard: %w: shard %d/%d in %s is being computed by another lbsim process (it holds %s); wait for it to finish, or use another -out directory", ErrBusy, i, n, dir, path)
		}
		// A file system without flock (some cluster mounts): no claim, but
		// Write's exclusive creation still keeps a second writer out.
		return func() {}, nil
	}
	return func() { f.Close() }, nil // closing the descriptor releases the lock
}
