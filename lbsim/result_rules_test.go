package lbsim

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the package doc's list of warning rules and the README's table anew")

// ruleName is the Go name of a rule id: "exact-outside-ci" is RuleExactOutsideCI.
func ruleName(id string) string { return "Rule" + goName(strings.ReplaceAll(id, "-", "_")) }

// Every Rule constant is named after its id and has one row in the table;
// each deprecated name stands for the rule its comment names.
func TestRuleNamesAreTheIds(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "result_rules.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			name := v.Names[0].Name
			if !strings.HasPrefix(name, "Rule") {
				continue
			}
			switch val := v.Values[0].(type) {
			case *ast.BasicLit: // a rule
				id, _ := strconv.Unquote(val.Value)
				if ruleName(id) != name {
					t.Errorf("rule %q is %s, want %s", id, name, ruleName(id))
				}
				ids = append(ids, id)
			case *ast.Ident: // a deprecated name
				if want := "Deprecated: use " + val.Name + ".\n"; v.Doc.Text() != want {
					t.Errorf("%s = %s: comment %q, want %q", name, val.Name, v.Doc.Text(), want)
				}
			}
		}
	}
	if got := Rules(); !slices.Equal(got, ids) {
		t.Errorf("Rules() = %v, want the constants in their order %v", got, ids)
	}
}

// The package doc's list of warning rules and the README's table are
// generated from the table of rules. The test fails when they differ;
// -update writes them anew.
func TestRulesDocumented(t *testing.T) {
	for _, g := range []struct{ file, marker, end, text string }{
		{"doc.go", "The rules:\n//\n", "\n//\n", ruleList()},
		{"../README.md", "-run RulesDocumented -update -->\n", "\n\n", ruleTable()},
	} {
		data, err := os.ReadFile(g.file)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(data)
		start := strings.Index(doc, g.marker)
		if start < 0 {
			t.Fatalf("%s has no line %q", g.file, g.marker)
		}
		start += len(g.marker)
		end := strings.Index(doc[start:], g.end)
		if end < 0 {
			t.Fatalf("%s: the rules after %q do not end with %q", g.file, g.marker, g.end)
		}
		want := doc[:start] + g.text + doc[start+end:]
		switch {
		case want == doc:
		case *update:
			if err := os.WriteFile(g.file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			t.Errorf("%s's rules differ from their table: run go test ./lbsim -run RulesDocumented -update, and review the diff", g.file)
		}
	}
}

// ruleList is doc.go's list: an item a rule, wrapped as gofmt keeps it.
func ruleList() string {
	var lines []string
	for _, r := range rules {
		text := r.id + " ([" + ruleName(r.id) + "]): " + r.meaning + ". Fix: " + r.fix + "."
		prefix := "//   - "
		for _, line := range wrap(strings.ReplaceAll(text, "`", ""), 78-len(prefix)) {
			lines = append(lines, prefix+line)
			prefix = "//     "
		}
	}
	return strings.Join(lines, "\n")
}

// precision is what a precision run does when the rule fires; "" when it goes on.
func (c cure) precision() string {
	return [...]string{"", "N doubles: longer replications cure it", "the run stops: no run length cures it"}[c]
}

// ruleTable is the README's table: a row a rule.
func ruleTable() string {
	lines := []string{"| rule | what it means | what to do | under `-precision` |", "|---|---|---|---|"}
	for _, r := range rules {
		lines = append(lines, "| `"+r.id+"` | "+r.meaning+" | "+r.fix+" | "+r.cure.precision()+" |")
	}
	return strings.Join(lines, "\n")
}

// wrap splits text at spaces into lines of at most width bytes (a longer
// word alone on its line).
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines, line = append(lines, line), ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}
