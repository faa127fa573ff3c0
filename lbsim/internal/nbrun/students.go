package nbrun

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// SolutionTag is the cell tag (Jupyter cell metadata "tags", as nbconvert's
// TagRemovePreprocessor reads them) that marks a cell as a solution: code or markdown that the
// students' files leave out (see [Students]).
const SolutionTag = "solution"

// Students are the files for students that [Publish] writes beside a report when the notebook
// has at least one cell tagged [SolutionTag]. A teaching assistant hands out the notebook to
// run and fill in, and the report of the questions:
//
//   - Notebook, NAME-students.ipynb: the source notebook without its solution cells and with
//     no outputs at all (no execution counts either): a handout to run, in which the students
//     write their answers (made from the executed notebook, without what the run recorded,
//     when the source has changed since it ran);
//   - View, NAME-students.html, and PDF, NAME-students.pdf: the executed report without the
//     solution cells and their outputs, what the students should see once they have run it;
//   - Full, NAME-students-code.html: the same page with the code of the cells they are given.
//
// Outputs of cells not tagged solution stay: a cell that prints an answer computed in a
// solution cell must be tagged too. The index is the teacher's page: it shows the answer and
// links both the full report and the students' files.
type Students struct {
	Notebook string `json:"notebook"`
	View     string `json:"view"`
	Full     string `json:"full"`
	PDF      string `json:"pdf"`
}

// files lists the students' files.
func (s *Students) files() []string { return []string{s.Notebook, s.View, s.Full, s.PDF} }

// notebookJSON is a notebook's cells and top-level entries, each left unparsed.
type notebookJSON struct {
	top   map[string]json.RawMessage
	cells []map[string]json.RawMessage
}

// loadNotebook reads and parses the notebook at path (cells and top-level entries; readNotebook gives the metadata).
func loadNotebook(path string) (*notebookJSON, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseNotebook(data, path)
}

// parseNotebook parses a notebook's bytes; path names it in errors.
func parseNotebook(data []byte, path string) (*notebookJSON, error) {
	nb := &notebookJSON{}
	if err := json.Unmarshal(data, &nb.top); err != nil {
		return nil, fmt.Errorf("notebook %s is not JSON: %w", path, err)
	}
	if raw, ok := nb.top["cells"]; ok {
		if err := json.Unmarshal(raw, &nb.cells); err != nil {
			return nil, fmt.Errorf("notebook %s: cells: %w", path, err)
		}
	}
	return nb, nil
}

// cellTags returns a cell's metadata tags.
func cellTags(cell map[string]json.RawMessage) []string {
	var meta struct {
		Tags []string `json:"tags"`
	}
	if raw, ok := cell["metadata"]; ok {
		_ = json.Unmarshal(raw, &meta)
	}
	return meta.Tags
}

func isSolution(cell map[string]json.RawMessage) bool {
	return slices.Contains(cellTags(cell), SolutionTag)
}

// cellSource is a cell's source, joined when nbformat stored it as a list of lines.
func cellSource(cell map[string]json.RawMessage) string {
	raw := cell["source"]
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	_ = json.Unmarshal(raw, &lines)
	return strings.Join(lines, "")
}

func cellType(cell map[string]json.RawMessage) string {
	var s string
	_ = json.Unmarshal(cell["cell_type"], &s)
	return s
}

// HasSolutions reports whether the notebook at path has a cell tagged [SolutionTag].
func HasSolutions(path string) (bool, error) {
	nb, err := loadNotebook(path)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(nb.cells, isSolution), nil
}

// studentsNotebook is the notebook data (a source or an executed notebook) without its
// solution cells and with no outputs: code cells keep their source and metadata, lose their
// outputs and execution count, and the execution's records (nbclient's per-cell "execution"
// timings, [runMetaKey]) are dropped. ok is false when the notebook has no solution cell.
func studentsNotebook(data []byte, path string) (out []byte, ok bool, err error) {
	nb, err := parseNotebook(data, path)
	if err != nil {
		return nil, false, err
	}
	if !slices.ContainsFunc(nb.cells, isSolution) {
		return nil, false, nil
	}
	var cells []map[string]json.RawMessage
	for _, c := range nb.cells {
		if isSolution(c) {
			continue
		}
		if cellType(c) == "code" {
			c["outputs"] = json.RawMessage("[]")
			c["execution_count"] = json.RawMessage("null")
		}
		if raw, ok := c["metadata"]; ok {
			var meta map[string]json.RawMessage
			if json.Unmarshal(raw, &meta) == nil {
				delete(meta, "execution")
				if c["metadata"], err = json.Marshal(meta); err != nil {
					return nil, false, err
				}
			}
		}
		cells = append(cells, c)
	}
	if cells == nil {
		cells = []map[string]json.RawMessage{}
	}
	if nb.top["cells"], err = json.Marshal(cells); err != nil {
		return nil, false, err
	}
	if raw, ok := nb.top["metadata"]; ok {
		var meta map[string]json.RawMessage
		if json.Unmarshal(raw, &meta) == nil {
			delete(meta, runMetaKey)
			delete(meta, sourceMetaKey)
			if nb.top["metadata"], err = json.Marshal(meta); err != nil {
				return nil, false, err
			}
		}
	}
	out, err = json.MarshalIndent(nb.top, "", " ")
	return append(out, '\n'), true, err
}

// handoutSource is the notebook to make the students' notebook from: the source that the
// executed notebook names ([sourceMetaKey]) when its cells are the ones that ran (same
// types and sources, in order), else the executed notebook itself.
func handoutSource(executed []byte, executedPath string) ([]byte, string) {
	var top struct {
		Metadata map[string]json.RawMessage `json:"metadata"`
	}
	var source string
	if json.Unmarshal(executed, &top) != nil || json.Unmarshal(top.Metadata[sourceMetaKey], &source) != nil || source == "" {
		return executed, executedPath
	}
	src, err := os.ReadFile(source)
	if err != nil {
		return executed, executedPath
	}
	a, err1 := parseNotebook(executed, executedPath)
	b, err2 := parseNotebook(src, source)
	if err1 != nil || err2 != nil || len(a.cells) != len(b.cells) {
		return executed, executedPath
	}
	for i := range a.cells {
		if cellType(a.cells[i]) != cellType(b.cells[i]) || cellSource(a.cells[i]) != cellSource(b.cells[i]) ||
			!slices.Equal(cellTags(a.cells[i]), cellTags(b.cells[i])) {
			return executed, executedPath
		}
	}
	return src, source
}

// removeSolutions removes from an exported page every cell tagged [SolutionTag], its input
// and its outputs. nbconvert's lab template marks a tagged cell with the class
// "celltag_TAG": on a code cell's jp-Cell, on a markdown cell's rendered block inside it.
// It returns how many cells it removed.
func removeSolutions(doc *html.Node) int {
	n := 0
	for _, c := range findAll(doc, func(x *html.Node) bool { return hasClass(x, "jp-Cell") }) {
		if c.Parent == nil {
			continue
		}
		if hasClass(c, "celltag_"+SolutionTag) || find(c, func(x *html.Node) bool { return hasClass(x, "celltag_"+SolutionTag) }) != nil {
			c.Parent.RemoveChild(c)
			n++
		}
	}
	return n
}

// SolutionLeaks lists the names that a cell not tagged solution uses but only solution cells
// declare (GoNB declarations cells: func, type, var, const at the top level, outside %%):
// without the solution cells, the students' notebook would not compile. It reads words, not
// types: a name that a cell also declares locally is reported too, so it is a warning, not a
// refusal. Each entry reads "cell 7 uses Foo, declared only in solution cell 5".
func SolutionLeaks(path string) ([]string, error) {
	nb, err := loadNotebook(path)
	if err != nil {
		return nil, err
	}
	declaredIn := map[string]int{} // name -> first solution cell (1-based among all cells)
	others := map[string]bool{}    // names declared by cells given to students
	for i, c := range nb.cells {
		if cellType(c) != "code" {
			continue
		}
		for _, name := range declaredNames(cellSource(c)) {
			if isSolution(c) {
				if _, ok := declaredIn[name]; !ok {
					declaredIn[name] = i + 1
				}
			} else {
				others[name] = true
			}
		}
	}
	var leaks []string
	for i, c := range nb.cells {
		if cellType(c) != "code" || isSolution(c) {
			continue
		}
		words := map[string]bool{}
		for _, w := range identRE.FindAllString(cellSource(c), -1) {
			words[w] = true
		}
		var names []string
		for name, at := range declaredIn {
			if words[name] && !others[name] && at < i+1 {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for _, name := range names {
			leaks = append(leaks, fmt.Sprintf("cell %d uses %s, declared only in solution cell %d", i+1, name, declaredIn[name]))
		}
	}
	return leaks, nil
}

var identRE = regexp.MustCompile(`[\p{L}_][\p{L}\p{N}_]*`)

// declaredNames are the top-level names a GoNB cell declares: its lines before a "%%" line,
// without magic (%) and shell (!) lines, parsed as Go declarations. A cell that does not parse
// declares nothing here.
func declaredNames(src string) []string {
	var keep []string
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if t == "%%" || strings.HasPrefix(t, "%% ") {
			break
		}
		if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
			keep = append(keep, "")
			continue
		}
		keep = append(keep, line)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "cell.go", "package main\n"+strings.Join(keep, "\n"), parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "main" {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}
