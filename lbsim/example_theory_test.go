package lbsim_test

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim"
)

// Under SRPT each server of a random split is an M/G/1-SRPT queue, whose
// mean response theory knows exactly (lbsim.Exact): RND on 4 servers,
// hyperexponential sizes of SCV 4, load 0.8.
func ExampleExact_srpt() {
	h2, err := lbsim.NewH2Balanced(1, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := lbsim.Config{Servers: 4, Load: 0.8, Sizes: h2, Policy: lbsim.Random{}, Discipline: lbsim.SRPT,
		Jobs: 50_000, Reps: 4, Seed: 1}
	res, err := lbsim.Run(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	exact, _ := lbsim.Exact(cfg)
	fmt.Printf("mean response %.3f ± %.3f, exact %.3f\n", res.Response.Mean, res.Response.CI95, exact.Response)
	// Output: mean response 2.165 ± 0.108, exact 2.191
}

// The 99th percentile of the response with its 95% interval beside the
// exact one: RND on exponential sizes makes each server M/M/1, whose
// response is exponential of rate mu - lambda/K (here 0.2: p99 = ln(100)/0.2).
func ExampleQuantiles() {
	res, err := lbsim.Run(lbsim.Config{Servers: 4, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.Random{},
		Jobs: 100_000, Reps: 5, Seed: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	row := lbsim.NewRow(res)
	fmt.Printf("p99 response %.3f ± %.3f, exact %.3f\n", row.P99Response, row.P99ResponseCI95, row.ExactP99Response)
	// Output: p99 response 23.560 ± 2.767, exact 23.026
}

// SITA with G groups of servers sets its cutoffs where every server
// carries the same load (Config.SizeClasses lists them); each server is
// then an M/G/1 queue of its group's sizes, whose mean wait theory knows.
func ExampleSITA_groups() {
	cfg := lbsim.Config{Servers: 6, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.SITA{Groups: 3},
		Jobs: 100_000, Reps: 4, Seed: 5}
	res, err := lbsim.Run(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	exact, _ := lbsim.Exact(cfg)
	for _, cl := range cfg.SizeClasses() {
		sim, _ := res.Class(cl.Name)
		ref, _ := exact.Class(cl.Name)
		fmt.Printf("%s: sizes up to %.3f on servers %d..%d, mean wait %.3f ± %.3f, exact %.3f\n",
			cl.Name, cl.Upper, cl.From+1, cl.To, sim.Wait.Mean, sim.Wait.CI95, ref.Wait)
	}
	// Output:
	// group 1: sizes up to 1.189 on servers 1..2, mean wait 0.816 ± 0.020, exact 0.827
	// group 2: sizes up to 2.289 on servers 3..4, mean wait 1.995 ± 0.080, exact 1.981
	// group 3: sizes up to +Inf on servers 5..6, mean wait 4.177 ± 0.374, exact 4.192
}

// With several dispatchers, each JSQ dispatcher reading the servers' live
// counts behaves as one dispatcher (the exact chain of JSQ on K = 4
// servers); under the own view each counts only its own jobs at each server
// (a proxy counting its connections: no messages) and balances worse.
func ExampleViewKind() {
	for _, view := range []lbsim.ViewKind{lbsim.LiveView, lbsim.OwnView} {
		cfg := lbsim.Config{Servers: 4, Load: 0.7, Sizes: lbsim.Exponential{M: 1}, Policy: lbsim.JSQ{}, Dispatchers: 3, View: view,
			Jobs: 50_000, Reps: 4, Seed: 9}
		res, err := lbsim.Run(cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s view, 3 dispatchers: mean wait %.3f ± %.3f", view, res.Wait.Mean, res.Wait.CI95)
		if res.HasExact { // the run's lbsim.Exact
			fmt.Printf(", exact %.3f", res.Exact.Wait)
		}
		fmt.Println()
	}
	// Output:
	// live view, 3 dispatchers: mean wait 0.495 ± 0.038, exact 0.511
	// own view, 3 dispatchers: mean wait 0.839 ± 0.048
}
