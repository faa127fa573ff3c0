//go:build !unix

package files

import "errors"

// ErrLocked is returned by Lock without wait when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// Lock does nothing where flock(2) is missing.
func Lock(path string, wait bool) (unlock func(), err error) { return func() {}, nil }
