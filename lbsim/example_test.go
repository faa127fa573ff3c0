package lbsim_test

import (
	"fmt"
	"os"

	"github.com/perfeval/lbsim/lbsim"
)

// The course's system: 50 servers, the handout's two-point sizes, least
// loaded of two, at load 0.5.
func ExampleRun() {
	res, err := lbsim.Run(lbsim.Config{
		Servers: 50,
		Load:    0.5,
		Sizes:   lbsim.NewTwoPointBeta(1, 1000, 0.8), // P(X = 1000) = 1000^-0.8
		Policy:  lbsim.LeastLoaded{D: 2},
		Jobs:    200_000,
		Reps:    4,
		Seed:    17,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: mean wait %.0f, within %.0f%% of it at 95%%\n", res.Config.Policy, res.Wait.Mean, 100*res.Wait.CI95/res.Wait.Mean)
	// Output: ll:d=2: mean wait 64, within 12% of it at 95%
}

// An invalid configuration is an error that says what to change.
func ExampleConfig_Validate() {
	cfg := lbsim.Config{Servers: 100, Load: 0.5, Sizes: lbsim.NewTwoPointBeta(1, 1000, 0.8),
		Policy: lbsim.SITA{C: 0}, Jobs: 1000}
	fmt.Println(cfg.Validate())
	// Output: sita c=0 is invalid: need 1 <= c <= K-1 = 99 so that both short and long jobs have a server; pick c in 1..99, e.g. sita:c=20
}

// A sweep over policies and loads, written as CSV.
func ExampleSweep() {
	rows, err := lbsim.Sweep(lbsim.Grid{
		Base:     lbsim.Config{Servers: 10, Sizes: lbsim.Exponential{M: 1}, Jobs: 10_000, Seed: 1},
		Policies: []lbsim.Policy{lbsim.Random{}, lbsim.JSQ{D: 2}},
		Loads:    []float64{0.5, 0.9},
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%-7s load %.1f\n", r.Policy, r.Load)
	}
	_ = lbsim.WriteRows(os.Stdout, rows[:0]) // the CSV header
	// Output:
	// rnd     load 0.5
	// rnd     load 0.9
	// jsq:d=2 load 0.5
	// jsq:d=2 load 0.9
	// policy,servers,speeds,load,sizes,arrivals,trace,discipline,refresh,tally,dispatchers,dispatcher_weights,stagger,view,delay,jobs,warmup,warmup_auto,reps,seed,batches,precision,max_jobs,max_seconds,control_variates,overload,sample_every,label,d,c,size_mean,scv,trace_scale,mean_wait,mean_wait_ci95,mean_response,mean_response_ci95,mean_slowdown,mean_slowdown_ci95,p50_wait,p50_wait_ci95,p90_wait,p90_wait_ci95,p99_wait,p99_wait_ci95,p999_wait,p999_wait_ci95,p50_response,p50_response_ci95,p90_response,p90_response_ci95,p99_response,p99_response_ci95,p999_response,p999_response_ci95,handout_wait,handout_wait_ci95,mean_wait_short,mean_wait_short_ci95,mean_wait_long,mean_wait_long_ci95,load_on_capacity,utilization,max_server_utilization,max_server_load,ci_method,messages_per_job,warmup_truncated,total_jobs,precision_met,exact_wait,exact_response,exact_slowdown,exact_method,exact_p50_wait,exact_p90_wait,exact_p99_wait,exact_p999_wait,exact_p50_response,exact_p90_response,exact_p99_response,exact_p999_response,limit_wait,limit_response,limit_method,limit_kind,warnings
}
