package files

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// ErrNoWriter marks a refusal of OpenInput: the path is a FIFO that no
// program writes (a read would see end of file, or a blocking open wait
// for ever).
var ErrNoWriter = errors.New("no program writes to it")

// OpenInput opens a user's data file for reading (a trace, a size file):
// a regular file, or a pipe that a program writes (a trace piped on
// /dev/stdin, a shell's <(...), a FIFO with its writer started). The open
// is non-blocking, as OpenRegular's, and never waits: a folder, a device
// (it would never end, or wait for a terminal) or a socket is refused with
// ErrNotRegular, a FIFO without a writer with ErrNoWriter. A pipe is then
// read through Go's poller, which waits for its data as a blocking read
// would.
func OpenInput(path string) (io.Reader, io.Closer, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
	case st.Mode().IsRegular():
		return f, f, st, nil
	case st.Mode()&fs.ModeNamedPipe == 0:
		err = notRegular(path, st.Mode())
	default:
		// A FIFO's first read tells a writer (data, or a wait in the poller
		// until data) from none (end of file at once: nothing will come).
		first := make([]byte, 1)
		n, rerr := f.Read(first)
		switch {
		case n == 1:
			return io.MultiReader(bytes.NewReader(first), f), f, st, nil
		case rerr == io.EOF:
			err = fmt.Errorf("%s is a %s: %w; start the program that writes it first, or give a regular file", path, Kind(st.Mode()), ErrNoWriter)
		default:
			err = rerr
		}
	}
	f.Close()
	return nil, nil, nil, err
}
