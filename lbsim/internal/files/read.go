package files

import (
	"fmt"
	"io"
	"os"
)

// ReadRegular reads a whole file that must be a regular file of at most
// limit bytes: a FIFO would block forever and a device such as /dev/zero
// never ends, so both are refused before reading, and a file that grows
// past limit while being read is refused too. what names the file's role
// in the messages ("spec file", "shard file").
func ReadRegular(path string, limit int64, what string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, Describe(err, "reading the "+what, path)
	}
	if !st.Mode().IsRegular() {
		kind := "a folder"
		if !st.IsDir() {
			kind = "not a regular file (a device, FIFO or socket)"
		}
		return nil, fmt.Errorf("the %s %s is %s; give the path of a file", what, path, kind)
	}
	if st.Size() > limit {
		return nil, tooLarge(path, what, st.Size(), limit)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, Describe(err, "reading the "+what, path)
	}
	defer f.Close()
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
