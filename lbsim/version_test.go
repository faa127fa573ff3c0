package lbsim

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The code version covers every source file of the simulator: the files
// embedded in the binary are exactly the .go files under lbsim/ on disk at
// build time, with the same contents (a deeper folder the embed patterns
// miss, or a stale copy, fails here).
func TestCodeVersionCoversSources(t *testing.T) {
	onDisk := map[string][]byte{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			b, err := os.ReadFile(path)
			onDisk[filepath.ToSlash(path)] = b
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	embedded := 0
	fs.WalkDir(sourceFS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		embedded++
		b, _ := sourceFS.ReadFile(path)
		if want, ok := onDisk[path]; !ok || !bytes.Equal(b, want) {
			t.Errorf("embedded %s differs from the file on disk", path)
		}
		return nil
	})
	if embedded != len(onDisk) {
		t.Errorf("%d source files embedded, %d on disk: the //go:embed patterns in version.go miss a folder", embedded, len(onDisk))
	}
	if v := CodeVersion(); len(v) != 16 || v != CodeVersion() {
		t.Errorf("CodeVersion() = %q", v)
	}
}
