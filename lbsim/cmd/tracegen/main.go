// Command tracegen writes the four traces of the load-moments study
// (loadmoments.Traces) as CSV files trace1.csv ... trace4.csv, and the
// request log of notebook 11, requests.csv (requestLog):
//
//	go run ./lbsim/cmd/tracegen -out data -seed 1
//
// Each file starts with a '#' line naming the generator's parameters, then
// "arrival,size" rows in milliseconds; lbsim.LoadTrace reads it back.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/files"
	"github.com/perfeval/lbsim/lbsim/study/loadmoments"
)

func main() {
	out := flag.String("out", "data", "directory to write trace1.csv ... trace4.csv and requests.csv into")
	seed := flag.Uint64("seed", 1, "seed of the modal durations")
	flag.Parse()
	if err := write(*out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(1)
	}
}

func write(dir string, seed uint64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, g := range loadmoments.Traces(seed) {
		tr, err := g.Generate()
		if err != nil {
			return err
		}
		path := filepath.Join(dir, g.Name+".csv")
		if err := writeFile(path, g, tr, seed); err != nil {
			return err
		}
		fmt.Printf("%s: %d jobs over %.0f ms\n", path, tr.Len(), tr.Times[tr.Len()-1])
	}
	return writeLog(dir, seed)
}

// writeFile writes atomically, so a reader never sees half a trace.
func writeFile(path string, g loadmoments.Generator, tr lbsim.Trace, seed uint64) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s (go run ./lbsim/cmd/tracegen -seed %d)\n", g, seed)
	if err := tr.WriteTrace(&b); err != nil {
		return err
	}
	return files.Replace(path, b.Bytes(), nil)
}
