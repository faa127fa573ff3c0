package lbsim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// goName is the Go name of a rule id: "exact-outside-ci" is RuleExactOutsideCI.
func goName(id string) string {
	name := "Rule"
	for _, word := range strings.Split(id, "-") {
		if word == "ci" {
			word = "CI"
		}
		name += strings.ToUpper(word[:1]) + word[1:]
	}
	return name
}

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
				if goName(id) != name {
					t.Errorf("rule %q is %s, want %s", id, name, goName(id))
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
