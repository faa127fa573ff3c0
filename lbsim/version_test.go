package lbsim

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The code version covers exactly the code that determines a result row:
// the core package and the packages of this module it imports, followed
// through their imports (parsed from the files on disk). The files embedded
// for the hash are exactly those packages' non-test .go files, with the same
// contents; a new import of the core that the //go:embed patterns miss, or a
// stale copy, fails here.
func TestCodeVersionCoversSources(t *testing.T) {
	const module = "github.com/perfeval/lbsim/lbsim"
	onDisk := map[string][]byte{}
	todo, seen := []string{"."}, map[string]bool{".": true}
	for len(todo) > 0 {
		dir := todo[0]
		todo = todo[1:]
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			onDisk[filepath.ToSlash(path)] = b
			f, err := parser.ParseFile(token.NewFileSet(), path, b, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if rel, ok := strings.CutPrefix(p, module+"/"); ok && !seen[rel] {
					seen[rel] = true
					todo = append(todo, rel)
				}
			}
		}
	}
	embedded := 0
	fs.WalkDir(sourceFS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
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
