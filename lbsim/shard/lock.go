package shard

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// Lock claims shard i of n in dir for this process, so that two runs of the
// same shard (a resubmitted array task beside a slow one, two sweeps sent to
// one directory) do not both compute it: the second gets an error at once.
// The claim is a lock on dir/.shard-<i>-of-<n>.lock (files.Lock), which the
// kernel releases when the process ends however it ends, so a killed task
// leaves no stale claim. Where there is no flock, Write's exclusive creation
// still keeps a second writer out. Call the returned function to release it.
func Lock(dir string, i, n int) (unlock func(), err error) {
	path := filepath.Join(dir, "."+FileName(i, n)+".lock")
	unlock, err = files.Lock(path, false)
	if errors.Is(err, files.ErrLocked) {
		return nil, fmt.Errorf("shard: %w: shard %d/%d in %s is being computed by another lbsim process (it holds %s); wait for it to finish, or use another -out directory", ErrBusy, i, n, dir, path)
	}
	if err != nil {
		return nil, fmt.Errorf("shard: cannot create the lock file: %w", err)
	}
	return unlock, nil
}
