package lbsim

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

// The source of the code that determines a result row, compiled into every
// binary that imports lbsim: the core package and the module's packages it
// imports, not those that only present rows (notebooks, figures, the
// command), so editing them keeps every cached result. Embedding the files,
// not a generated hash, means the version cannot go stale. Test files are
// embedded but not hashed; TestCodeVersionCoversSources checks that the
// patterns follow the core's imports.
//
//go:embed *.go theory/*.go internal/files/*.go internal/floats/*.go internal/number/*.go
var sourceFS embed.FS

// buildTag is mixed into CodeVersion, to tell apart two builds of the same
// source (a patched dependency, an experiment): empty unless set at link
// time, go build -ldflags "-X github.com/perfeval/lbsim/lbsim.buildTag=fix-42".
var buildTag string

// CodeVersion identifies the simulator code that is running: the SHA-256 of
// the core's non-test source files (as compiled into this binary), the Go
// toolchain, the gonum version (distributions and quantiles) and buildTag.
// Sweep ids and cached notebook results include it, so results of two
// builds are never mixed and a bug fix never serves its bug's numbers.
func CodeVersion() string { return codeVersion() }

var codeVersion = sync.OnceValue(func() string {
	h := sha256.New()
	var files []string
	fs.WalkDir(sourceFS, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	for _, f := range files {
		b, _ := sourceFS.ReadFile(f)
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	fmt.Fprintf(h, "go=%s\x00tag=%s\x00", runtime.Version(), buildTag)
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			// Only the core's dependency: a notebook that imports one more
			// package must keep its cached results.
			if d.Path == "gonum.org/v1/gonum" {
				fmt.Fprintf(h, "dep=%s@%s %s\x00", d.Path, d.Version, d.Sum)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})
