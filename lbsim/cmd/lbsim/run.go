package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/perfeval/lbsim/lbsim"
)

func runCommand(args []string, stdout, stderr io.Writer) error {
	var c configFlags
	fs := newFlagSet("run", stderr, &c)
	asJSON := fs.Bool("json", false, "print exactly one JSON object on stdout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkReplaced(fs, &c); err != nil {
		return err
	}
	g, err := c.grid(true)
	if err != nil {
		return err
	}
	cfg := g.Configs()[0]
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
		enc := json.NewEncoder(stdout)
		return enc.Encode(resultJSON(res))
	}
	_, err = fmt.Fprintln(stdout, res)
	return err
}

// longPrecisionRun is the projected length (jobs) from which a precision
// run reports its rounds: about a minute at 2e6 jobs per second.
const longPrecisionRun = 100_000_000

// jsonNum is x, or nil (JSON null) for a value that does not exist.
func jsonNum(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

// resultJSON is the run's JSON object (the command-line contract): every
// mean has a _ci95 companion; values that do not exist are null.
func resultJSON(r lbsim.Result) map[string]any {
	row := lbsim.NewRow(r)
	num := jsonNum
	out := map[string]any{
		"policy": r.Policy, "servers": r.Servers, "load": r.Load, "sizes": r.Sizes,
		"arrivals": r.Arrivals, "discipline": r.Discipline, "refresh": r.Refresh, "tally": r.Tally,
		"jobs": r.Jobs, "reps": r.Reps, "seed": r.Seed, "ci_method": r.CIMethod,
		"mean_wait": num(row.MeanWait), "mean_wait_ci95": num(row.MeanWaitCI95),
		"mean_response": num(row.MeanResponse), "mean_response_ci95": num(row.MeanResponseCI95),
		"p50_wait": num(row.P50Wait), "p95_wait": num(row.P95Wait), "p99_wait": num(row.P99Wait),
		"load_on_capacity": num(r.LoadOnCapacity), "utilization": num(r.Utilization), "server_utilization": r.ServerUtilization,
		"seconds": r.Seconds, "label": r.Label, "warnings": r.Warnings,
		"exact": nil, "exact_response": nil, "exact_method": nil,
		"limit": nil, "limit_response": nil, "limit_method": nil, "limit_kind": nil,
		"total_jobs": r.TotalJobs, "warmup_truncated": r.WarmupJobs,
		"dispatchers": r.Dispatchers, "messages_per_job": num(r.MessagesPerJob),
	}
	if r.Config.Precision > 0 {
		out["precision"], out["precision_met"] = r.Config.Precision, r.PrecisionMet
	}
	if r.HasExact {
		out["exact"], out["exact_response"], out["exact_method"] = num(r.Exact.Wait), num(r.Exact.Response), row.ExactMethod
	}
	if r.HasLimit {
		out["limit"], out["limit_response"], out["limit_method"], out["limit_kind"] = num(r.Limit.Wait), num(r.Limit.Response), row.LimitMethod, row.LimitKind
	}
	if r.HasHandout {
		out["handout_wait"], out["handout_wait_ci95"] = num(row.HandoutWait), num(row.HandoutWaitCI95)
	}
	for _, c := range r.Classes {
		out["mean_wait_"+c.Name] = num(c.Wait.Mean)
		out["mean_wait_"+c.Name+"_ci95"] = num(c.Wait.CI95)
		out["mean_response_"+c.Name] = num(c.Response.Mean)
		out["mean_response_"+c.Name+"_ci95"] = num(c.Response.CI95)
		out["jobs_"+c.Name] = c.Jobs
	}
	return out
}
