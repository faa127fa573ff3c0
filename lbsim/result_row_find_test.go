package lbsim_test

import (
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// Issue 25 item 6: a label names every parameter that changes the numbers.
// sita:c=5, sita:cut=2,c=5 and sita:cut=50,c=5 were all "SITA-5"; the
// default SITA (no cut) keeps "SITA-5", which notebooks and checks parse.
func TestLabelsDistinct(t *testing.T) {
	specs := []string{
		"sita:c=5", "sita:cut=2,c=5", "sita:cut=50,c=5", "sita:c=6", "sita:cut=2,c=6",
		"ll:d=2", "ll:d=2,replace=1", "ll:d=2,mem=1", "ll:d=2,replace=1,mem=1", "ll:d=3", "lwl",
		"jsq", "jsq:d=2", "jsq:d=2,replace=1", "jsq:d=2,mem=1", "jsq:d=2,replace=1,mem=2",
		"rnd", "rr", "jiq",
	}
	seen := map[string]string{}
	for _, s := range specs {
		p, err := lbsim.ParsePolicy(s)
		if err != nil {
			t.Fatal(err)
		}
		l := lbsim.Label(p)
		if other, ok := seen[l]; ok {
			t.Errorf("%s and %s share the label %q", other, s, l)
		}
		seen[l] = s
	}
	if p, _ := lbsim.ParsePolicy("sita:c=5"); lbsim.Label(p) != "SITA-5" {
		t.Errorf("sita:c=5 is labelled %q, want SITA-5", lbsim.Label(p))
	}
}

// Issue 25 item 6: on a grid over K (or T, or anything but policy and load)
// Find returned the first of several matching rows; it must refuse and say
// which column tells them apart and how to keep one.
func TestFindAmbiguous(t *testing.T) {
	rows := []lbsim.Row{
		{Policy: "ll:d=2", Label: "LL-2", Servers: 10, Load: 0.9, Sizes: "exp", MeanWait: 1},
		{Policy: "ll:d=2", Label: "LL-2", Servers: 100, Load: 0.9, Sizes: "exp", MeanWait: 2},
		{Policy: "rnd", Label: "RND", Servers: 10, Load: 0.9, Sizes: "exp", MeanWait: 3},
	}
	_, err := lbsim.Find(rows, "LL-2", 0.9)
	if err == nil {
		t.Fatal("Find(LL-2, 0.9) on rows at K = 10 and 100 returned a row, want an ambiguity error")
	}
	for _, want := range []string{"2 rows match", "LL-2", "0.9", "servers 10 and 100", "lbsim.Select", "r.Servers == 10"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q spans lines", err)
	}

	refresh := []lbsim.Row{
		{Policy: "ll:d=2", Label: "LL-2", Servers: 10, Load: 0.9, Refresh: 0},
		{Policy: "ll:d=2", Label: "LL-2", Servers: 10, Load: 0.9, Refresh: 0.5},
		{Policy: "ll:d=2", Label: "LL-2", Servers: 10, Load: 0.9, Refresh: 2},
	}
	if _, err := lbsim.Find(refresh, "ll:d=2", 0.9); err == nil || !strings.Contains(err.Error(), "refresh 0, 0.5 and 2") {
		t.Errorf("Find over T: error %v, want one naming refresh 0, 0.5 and 2", err)
	}

	// One match after filtering: the row itself.
	r, err := lbsim.Find(lbsim.Select(rows, func(r lbsim.Row) bool { return r.Servers == 100 }), "LL-2", 0.9)
	if err != nil || r.MeanWait != 2 {
		t.Errorf("Find after Select: %v, %v; want the K = 100 row", r.MeanWait, err)
	}
}
