package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular marks a refusal of OpenRegular: the path names a FIFO, a
// device, a socket or a folder.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path with flag (os.O_RDONLY; os.O_WRONLY|os.O_APPEND|
// os.O_CREATE for a log) only if it is a regular file, or a new one. The
// open is non-blocking, so that a FIFO, even one put there after a check,
// never blocks it (opened for writing with no reader it fails with ENXIO;
// for reading it opens at once), and the file is checked once open, so
// that what is returned is the regular file itself. The hooks that name a
// file in the environment (LBSIM_FIGURE_LINT, LBSIM_RUN_LOG) and the
// readers of a user's files all open through here.
func OpenRegular(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		if st, serr := os.Stat(path); serr == nil && !st.Mode().IsRegular() {
			return nil, notRegular(path, st.Mode())
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = notRegular(path, st.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func notRegular(path string, m fs.FileMode) error {
	return fmt.Errorf("%s is a %s, %w", path, Kind(m), ErrNotRegular)
}

// Kind names a file mode's type for a message.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "folder"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}
