package shard

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The shard reader never panics or allocates by a file's say-so, and
// whatever it accepts is consistent: the claimed shard's configurations,
// one row each, in order, with the header's width.
func FuzzReadShard(f *testing.F) {
	dir := f.TempDir()
	s, _ := NewSweep([]byte("fuzz"), 7)
	s.Code = "abc123"
	header, rows := table(7)
	for _, n := range []int{1, 3} {
		sub := filepath.Join(dir, strconv.Itoa(n))
		os.Mkdir(sub, 0o755)
		writeSplit(f, sub, s, n, header, rows)
		b, _ := os.ReadFile(filepath.Join(sub, FileName(0, n)))
		f.Add(b)
		f.Add(bytes.Replace(b, []byte("configs=7"), []byte("configs=9000000000000000000"), 1))
	}
	f.Add([]byte(magicV1 + " sweep=" + s.ID + " shard=0/1 configs=0\nconfig\n# complete rows=0 sha256=x\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := parseFile("fuzz.csv", data)
		if err != nil {
			return
		}
		want := members(file.I, file.N, file.Sweep.Configs)
		if len(file.Rows) != len(want) {
			t.Fatalf("accepted %d rows for shard %d/%d of %d", len(file.Rows), file.I, file.N, file.Sweep.Configs)
		}
		for k, r := range file.Rows {
			if len(r) != len(file.Header) || r[0] != strconv.Itoa(want[k]) {
				t.Fatalf("row %d = %q, want configuration %d with %d fields", k, r, want[k], len(file.Header))
			}
		}
	})
}
