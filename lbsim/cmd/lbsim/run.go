package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/perfeval/lbsim/lbsim"
)

func runCommand(args []string, stdout, stderr io.Writer) error {
	var c gridFlags
	fs := newFlagSet("run", stderr, &c)
	asJSON := fs.Bool("json", false, "print exactly one JSON object on stdout: the row's columns (as lbsim sweep's CSV), with exact and limit as aliases of exact_wait and limit_wait")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := c.settle(); err != nil {
		return err
	}
	cfg, err := c.one()
	if err != nil {
		return err
	}
	warnUnstable(stderr, "run", []lbsim.Config{cfg})
	res, err := lbsim.RunWithProgress(cfg, func(p lbsim.PrecisionProgress) {
		if p.Projected >= longPrecisionRun || p.Projected > p.Budget {
			fmt.Fprintf(stderr, "lbsim run: %s\n", p)
		}
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(rowJSON(lbsim.NewRow(res)))
	}
	_, err = fmt.Fprintln(stdout, res)
	return err
}

// longPrecisionRun is the projected length (jobs) from which a precision
// run reports its rounds: about a minute at 2e6 jobs per second.
const longPrecisionRun = 100_000_000

// rowJSON is the run's JSON object (the command-line contract): the row's
// columns, the names of lbsim sweep's CSV header in its order, values that
// do not exist null; and, for one release, "exact" and "limit", the former
// names of exact_wait and limit_wait.
func rowJSON(row lbsim.Row) json.RawMessage {
	data, err := json.Marshal(row)
	if err != nil {
		panic(err) // numbers, strings and warnings always encode
	}
	var obj map[string]json.RawMessage
	json.Unmarshal(data, &obj)
	alias, _ := json.Marshal(map[string]json.RawMessage{"exact": obj["exact_wait"], "limit": obj["limit_wait"]})
	return append(append(data[:len(data)-1:len(data)-1], ','), alias[1:]...)
}
