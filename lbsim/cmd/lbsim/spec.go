package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/internal/files"
)

// loadSpec reads a -spec file into c's grid (lbsim.Grid.ReadJSON): keys
// left out keep the defaults. A flag that the file describes too is
// refused beside it rather than silently overridden.
func loadSpec(path string, c *gridFlags) error {
	var set []string
	for _, f := range lbsim.Fields() {
		if c.given[f.Name] && (f.Result() || f.Sweep()) {
			set = append(set, "-"+f.Name)
		}
	}
	if len(set) > 0 {
		return fmt.Errorf("%s given together with -spec %s; put the value in the spec file instead", strings.Join(set, ", "), path)
	}
	data, err := readSpecFile(path)
	if err != nil {
		return err
	}
	given, err := c.grid.ReadJSON(data)
	if err == nil {
		c.given, err = given, c.grid.Settle(given, true)
	}
	if err != nil {
		return fmt.Errorf("-spec %s: %v", path, err)
	}
	return nil
}

// maxSpecBytes bounds a spec file, which is read whole: a grid of the most
// configurations a sweep may have is far smaller.
const maxSpecBytes = 16 << 20

// readSpecFile reads a -spec file: a regular file of at most maxSpecBytes
// (a FIFO would block, /dev/zero never ends).
func readSpecFile(path string) ([]byte, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("-spec %s is a folder: give the JSON file in it, e.g. -spec %s", path, filepath.Join(path, "sweep.json"))
	}
	data, err := files.ReadRegular(path, maxSpecBytes, "spec file")
	if err != nil {
		return nil, fmt.Errorf("-spec: %w", err)
	}
	return data, nil
}
