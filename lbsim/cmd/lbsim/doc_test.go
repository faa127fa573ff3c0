package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

var update = flag.Bool("update", false, "write the generated lists of doc.go anew")

// The lists of the flags, the sweep-file keys and the output columns in
// doc.go (go doc ./lbsim/cmd/lbsim) are generated: the settings from lbsim's
// field table, the result columns from lbsim.Row's fields and their
// comments. The test fails when doc.go differs; -update writes it anew.
func TestDocListsGenerated(t *testing.T) {
	data, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	lists := map[string][]string{"flags": flagLines(), "keys": keyLines(), "columns": columnLines(t)}
	want := doc
	for _, name := range []string{"flags", "keys", "columns"} {
		want, err = replaceList(want, name, lists[name])
		if err != nil {
			t.Fatal(err)
		}
	}
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile("doc.go", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("doc.go's lists differ from the field table and lbsim.Row: run go test ./lbsim/cmd/lbsim -run Doc -update, and review the diff")
}

// replaceList puts lines in place of the list after the line "//<name>" or
// the list that a previous run put there (the indented block that follows
// the marker's paragraph).
func replaceList(doc, name string, lines []string) (string, error) {
	marker := "// " + name + " list:"
	start := strings.Index(doc, marker+"\n//\n")
	from := start + len(marker) + len("\n//\n")
	if start < 0 {
		if start = strings.Index(doc, "//<"+name+">\n"); start < 0 {
			return "", fmt.Errorf("doc.go has no %q or //<%s> line", marker, name)
		}
		from = start
	}
	end := strings.Index(doc[from:], "\n//\n") // the list ends at an empty comment line
	if end < 0 {
		return "", fmt.Errorf("the %s list in doc.go does not end with an empty comment line", name)
	}
	end += from - start
	var b strings.Builder
	b.WriteString(marker + "\n//\n")
	for _, l := range lines {
		b.WriteString("//\t" + l + "\n")
	}
	return doc[:start] + strings.TrimSuffix(b.String(), "\n") + doc[start+end:], nil
}

// flagLines are the settings' flags: "-name  doc (default d)".
func flagLines() []string {
	var out []string
	for _, f := range lbsim.Fields() {
		line := fmt.Sprintf("-%s  %s", f.Name, f.Doc)
		if f.Default != "" && f.Default != "false" {
			line += fmt.Sprintf(" (default %s)", f.Default)
		}
		if f.Sweep() {
			line += "; sweep and slurm only"
		}
		out = append(out, line)
	}
	return out
}

// keyLines are the sweep-file keys: "key  doc", an axis's "(a list)".
func keyLines() []string {
	var out []string
	for _, f := range lbsim.Fields() {
		if !f.Result() && !f.Sweep() {
			continue
		}
		line := fmt.Sprintf("%s  %s", f.Column(), f.Doc)
		if f.Axis {
			line += " (a list)"
		}
		out = append(out, line)
	}
	return out
}

// columnLines are the output's columns: a setting's with its field's doc,
// a result's with the comment of its lbsim.Row field.
func columnLines(t *testing.T) []string {
	docs := rowFieldDocs(t)
	settings := map[string]string{}
	for _, f := range lbsim.Fields() {
		settings[f.Column()] = f.Doc
	}
	var out []string
	for _, col := range lbsim.RowHeader() {
		d, ok := settings[col]
		if !ok {
			if d, ok = docs[col]; !ok || d == "" {
				t.Errorf("lbsim.Row's field of column %s has no comment to document it", col)
			}
		}
		out = append(out, col+"  "+d)
	}
	return out
}

// rowFieldDocs are the comments of lbsim.Row's fields (result_row.go), by
// json name: the line comment, else the first sentence of the doc comment.
func rowFieldDocs(t *testing.T) map[string]string {
	f, err := parser.ParseFile(token.NewFileSet(), "../../result_row.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Row" {
			return true
		}
		for _, fl := range ts.Type.(*ast.StructType).Fields.List {
			if fl.Tag == nil {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimPrefix(strings.Trim(fl.Tag.Value, "`"), `json:"`), `"`)
			text := fl.Comment.Text()
			if text == "" { // "// Name is the ...": its first sentence, without "Name is"
				text, _, _ = strings.Cut(fl.Doc.Text(), ". ")
				text = strings.TrimPrefix(text, fl.Names[0].Name+" is ")
			}
			out[name] = strings.TrimSuffix(strings.Join(strings.Fields(text), " "), ".")
		}
		return false
	})
	return out
}
