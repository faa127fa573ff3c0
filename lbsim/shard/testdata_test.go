package shard

import (
	"fmt"
	"testing"
)

// table returns a synthetic sweep table of m configurations whose fields
// exercise CSV quoting (commas, quotes, newlines, a leading '#').
func table(m int) ([]string, [][]string) {
	header := []string{"config", "policy", "load", "note", "mean_wait"}
	rows := make([][]string, m)
	for c := range rows {
		rows[c] = []string{
			fmt.Sprint(c),
			[]string{"RND", "LL-2", "JSQ(2)"}[c%3],
			fmt.Sprintf("%.2f", 0.1+0.8*float64(c%9)/8),
			[]string{"plain", "a,b", `say "hi"`, "two\nlines", "# not a trailer"}[c%5],
			fmt.Sprintf("%.6g", 1/(1+float64(c))),
		}
	}
	return header, rows
}

func sweepOf(t *testing.T, spec string, m int) Sweep {
	t.Helper()
	s, err := NewSweep([]byte(spec), m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeSplit writes all n shards of the table, last shard first.
func writeSplit(t testing.TB, dir string, s Sweep, n int, header []string, rows [][]string) {
	t.Helper()
	for i := n - 1; i >= 0; i-- {
		cs, err := Shard(i, n, s.Configs)
		if err != nil {
			t.Fatal(err)
		}
		part := make([][]string, len(cs))
		for k, c := range cs {
			part[k] = rows[c]
		}
		if err := Write(dir, s, i, n, header, part); err != nil {
			t.Fatal(err)
		}
	}
}
