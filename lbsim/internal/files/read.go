package files

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ReadRegular reads a whole file that must be a regular file of at most
// limit bytes: a FIFO would block forever and a device such as /dev/zero
// never ends, so both are refused before reading (OpenRegular), and a file that grows
// past limit while being read is refused too. what names the file's role
// in the messages ("spec file", "shard file").
func ReadRegular(path string, limit int64, what string) ([]byte, error) {
	f, err := OpenRegular(path, os.O_RDONLY, 0)
	if errors.Is(err, ErrNotRegular) {
		return nil, fmt.Errorf("the %s %w; give the path of a file", what, err)
	}
	if err != nil {
		return nil, Describe(err, "reading the "+what, path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, Describe(err, "reading the "+what, path)
	}
	if st.Size() > limit {
		return nil, tooLarge(path, what, st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, Describe(err, "reading the "+what, path)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, what, int64(len(data)), limit)
	}
	return data, nil
}

func tooLarge(path, what string, size, limit int64) error {
	return fmt.Errorf("the %s %s has %d bytes or more: a %s holds at most %d; is it the right file?", what, path, size, what, limit)
}
