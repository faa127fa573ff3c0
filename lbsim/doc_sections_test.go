package lbsim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every pointer into the documentation that the README, the doc comments,
// the notebooks and the messages give names a package that exists, a
// symbol it declares and a section heading ("# Heading") it has: the
// README sent readers to sections that were not there, and the command's
// doc to a "(Paired comparisons)" section of the wrong package.
func TestDocPointersExist(t *testing.T) {
	root := ".."
	var texts []string // "file: text"
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "reports") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(path); !d.IsDir() && (ext == ".go" || ext == ".md" || ext == ".ipynb") {
			if b, err := os.ReadFile(path); err == nil { // a pointer may span lines of a comment
				texts = append(texts, path+": "+commentBreak.ReplaceAllString(string(b), " "))
			}
		}
		return nil
	})
	pointers := []struct {
		re          *regexp.Regexp
		pkg, symbol int // submatch numbers; pkg 0: the lbsim package
		heading     int
	}{
		{regexp.MustCompile(`go doc (\./[\w./-]+)(?: ([A-Z][\w.]*))?` + "`?" + `(?: \(\\?"([^"\\]+)\\?"\))?`), 1, 2, 3},
		{regexp.MustCompile(`lbsim package documentation \(([A-Z][^)]*)\)`), 0, 0, 1},
		{regexp.MustCompile(`see \\?"([A-Z][^"\\]*)\\?" in go doc (\./[\w./-]+)`), 2, 0, 1},
	}
	seen := 0
	for _, text := range texts {
		file, _, _ := strings.Cut(text, ": ")
		for _, p := range pointers {
			for _, m := range p.re.FindAllStringSubmatch(text, -1) {
				pkg := "./lbsim"
				if p.pkg > 0 {
					pkg = strings.TrimSuffix(m[p.pkg], ".")
				}
				src := packageSource(t, filepath.Join(root, pkg))
				if src == "" {
					t.Errorf("%s: %q names %s, which is not a package", file, m[0], pkg)
					continue
				}
				seen++
				if p.symbol > 0 && m[p.symbol] != "" {
					name := m[p.symbol][strings.LastIndex(m[p.symbol], ".")+1:]
					if !regexp.MustCompile(`(?m)^(type|func|var|const) ` + name + `\b|^func \([^)]*\) ` + name + `\(`).MatchString(src) {
						t.Errorf("%s: %q names %s, which %s does not declare", file, m[0], m[p.symbol], pkg)
					}
				}
				if h := m[p.heading]; h != "" && !strings.Contains(src, "\n// # "+h+"\n") {
					t.Errorf("%s: %q names the section %q, which go doc %s does not have", file, m[0], h, pkg)
				}
			}
		}
	}
	if seen < 10 {
		t.Errorf("only %d pointers into the documentation found: the patterns no longer match how the docs write them", seen)
	}
}

// commentBreak is a line break within a comment or a paragraph.
var commentBreak = regexp.MustCompile(`\n[ \t]*(// ?)?`)

// packageSource is the non-test Go source of the package in dir, "" if none.
func packageSource(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
		b.Write(data)
	}
	return b.String()
}
