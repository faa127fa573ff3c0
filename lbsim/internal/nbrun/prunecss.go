package nbrun

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// nbconvert's lab template embeds JupyterLab's whole stylesheet, about 530 kB, in every page,
// most of it for menus, dialogs and widgets a report does not have. A report is static (its
// scripts are removed), so a rule whose selector needs a class that no element of the page has
// can never apply: pruneStyles drops those rules, which leaves about 90 kB, and the page renders
// the same (checkPrunedStyles, in the notebook tests).

// pruneStyles removes from every <style> element of doc the rules that cannot apply to it.
func pruneStyles(doc *html.Node) {
	classes := map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) { // every element, nested ones too (findAll stops at a match)
		for _, c := range strings.Fields(attr(n, "class")) {
			classes[c] = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, st := range findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Style }) {
		if t := st.FirstChild; t != nil && t.Type == html.TextNode && t.NextSibling == nil {
			t.Data = pruneCSS(t.Data, func(c string) bool { return classes[c] })
		}
	}
}

// pruneCSS keeps the rules of css that can match a page whose elements have only the classes
// for which has is true: a selector is dropped when it requires a class the page lacks, a rule
// when all its selectors are dropped. Grouping at-rules (@media, @supports, @layer,
// @container) are pruned inside; other at-rules (@font-face, @keyframes, @page, @import) are
// kept whole. Comments are removed.
func pruneCSS(css string, has func(class string) bool) string {
	var b strings.Builder
	for _, r := range cssRules(css) {
		switch {
		case r.statement:
			b.WriteString(r.prelude) // such as @import ...;
		case strings.HasPrefix(r.prelude, "@"):
			name := strings.ToLower(strings.Fields(r.prelude)[0])
			switch name {
			case "@media", "@supports", "@layer", "@container":
				if inner := pruneCSS(r.block, has); strings.TrimSpace(inner) != "" {
					b.WriteString(r.prelude + "{" + inner + "}")
				}
			default:
				b.WriteString(r.prelude + "{" + r.block + "}")
			}
		default:
			var kept []string
			for _, sel := range splitTop(r.prelude, ',') {
				if selectorCanMatch(sel, has) {
					kept = append(kept, strings.TrimSpace(sel))
				}
			}
			if len(kept) > 0 {
				b.WriteString(strings.Join(kept, ",") + "{" + r.block + "}")
			}
		}
	}
	return b.String()
}

// cssRule is a rule's prelude (selectors or at-rule) and its block without the braces, or a
// statement at-rule (no block; the prelude includes its ';').
type cssRule struct {
	prelude, block string
	statement      bool
}

// cssRules splits a style sheet into its top-level rules, skipping comments and keeping quoted
// strings whole (a brace in a string does not open a block).
func cssRules(css string) []cssRule {
	css = stripComments(css)
	var rules []cssRule
	start := 0
	for i := 0; i < len(css); i++ {
		switch c := css[i]; c {
		case '"', '\'':
			i = skipString(css, i)
		case ';':
			if p := strings.TrimSpace(css[start : i+1]); strings.HasPrefix(p, "@") {
				rules = append(rules, cssRule{prelude: p, statement: true})
			}
			start = i + 1
		case '{':
			end := matchBrace(css, i)
			rules = append(rules, cssRule{prelude: strings.TrimSpace(css[start:i]), block: css[i+1 : end]})
			i, start = end, end+1
		}
	}
	return rules
}

// matchBrace returns the index of the '}' that closes the '{' at open (len(css) if none).
func matchBrace(css string, open int) int {
	depth := 0
	for i := open; i < len(css); i++ {
		switch css[i] {
		case '"', '\'':
			i = skipString(css, i)
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(css)
}

// skipString returns the index of the quote closing the string that starts at i.
func skipString(css string, i int) int {
	q := css[i]
	for j := i + 1; j < len(css); j++ {
		switch css[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return len(css)
}

func stripComments(css string) string {
	var b strings.Builder
	for i := 0; i < len(css); i++ {
		switch {
		case css[i] == '"' || css[i] == '\'':
			j := skipString(css, i)
			b.WriteString(css[i:min(j+1, len(css))])
			i = j
		case strings.HasPrefix(css[i:], "/*"):
			end := strings.Index(css[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
		default:
			b.WriteByte(css[i])
		}
	}
	return b.String()
}

// splitTop splits s at sep outside parentheses, brackets and strings.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\'':
			i = skipString(s, i)
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

var (
	// Parts of a selector whose classes are not required of the page: :not() requires their
	// absence, :is(), :where() and :has() one of several; attribute selectors and strings may
	// hold dots that are not classes.
	optionalParts = regexp.MustCompile(`::?[a-zA-Z-]+\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\]|"[^"]*"|'[^']*'`)
	classToken    = regexp.MustCompile(`\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)(\\?)`)
)

// selectorCanMatch reports whether every class the selector requires is on the page; a class
// name with an escape (\) is not decoded, and keeps the selector.
func selectorCanMatch(sel string, has func(string) bool) bool {
	for _, m := range classToken.FindAllStringSubmatch(optionalParts.ReplaceAllString(sel, " "), -1) {
		if m[2] == "" && !has(m[1]) {
			return false
		}
	}
	return true
}
