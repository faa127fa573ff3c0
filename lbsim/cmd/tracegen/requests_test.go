package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The shipped request log is the generator's output, byte for byte, and its
// service times are the law's: the sample mean within 4 standard errors of
// the bounded Pareto's mean (the law has a finite variance).
func TestRequestLogIsGenerated(t *testing.T) {
	dir := t.TempDir()
	if err := writeLog(dir, 1); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "requests.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "..", "data", "requests.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("data/requests.csv differs from the generator: go run ./lbsim/cmd/tracegen -out data -seed 1")
	}
	g, _ := defaultLog(1)
	tr := g.generate()
	m, v := g.Sizes.Mean(), g.Sizes.SecondMoment()-g.Sizes.Mean()*g.Sizes.Mean()
	se := math.Sqrt(v / float64(tr.Len()))
	if d := tr.Mean() - m; d > 4*se || d < -4*se {
		t.Errorf("log's mean service time %.5g, law's %.5g: off by %.2g standard errors", tr.Mean(), m, d/se)
	}
}
