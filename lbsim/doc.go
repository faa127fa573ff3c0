// Package lbsim simulates the dispatching of jobs among K parallel servers.
//
// Jobs arrive (Poisson, deterministic, a linear ramp of the rate, or a replayed
// trace), each is sent at once by a dispatching policy (RND, RR, LL-d, LWL,
// JSQ-d, JSQ, JIQ, SITA, or one of your own) to one of K servers with speeds
// mu_k, and waits in that server's own infinite queue, served FCFS or by
// processor sharing (PS). Policies that read server state read it live or
// from a board refreshed every T time units (stale information).
//
// # The pipeline
//
// A Config is one system and how to measure it; Run (run.go) validates it
// (config.go, config_limits.go) and runs its replications in parallel:
//
//   - a replication (sim.go) draws arrivals, sizes and dispatch decisions
//     from three streams of its own (rng.go), lets the policy pick a server
//     for each job (its dispatcher, or its Pick through a View,
//     policy_view.go) and joins that server (sim_servers.go; sim_board.go
//     for stale boards). Under FCFS a server is described by the time its
//     work runs out, so a job's wait is known when it is dispatched
//     (Lindley's recursion, without the O(K) update of the course's R code);
//     the common case runs in lean blocks (sim_lean.go), the rest in the
//     general loop, with the same numbers to the last bit;
//   - each job is recorded in fixed memory (stat_metrics.go: batch sums, a
//     waiting-time histogram, stat_histogram.go);
//   - the replications are aggregated into a Result (result.go: means with
//     95% intervals, stat_estimate.go), with what theory knows of the system
//     (Exact, exact.go) and the warnings that apply (result_diagnose.go);
//   - a Row (result_row.go) flattens a Result for tables, CSV and dataframes.
//
// Grids of configurations (run_sweep.go), precision targets
// (run_precision.go) and the automatic warm-up (stat_mser.go) are built on
// Run. Policies cost O(1) (RND, RR, SITA), O(d) (LL-d, JSQ-d) or O(log K)
// (LWL, JSQ, JIQ: index_*.go) per job, and memory does not grow with the
// number of jobs.
//
// # Policies, size laws, arrival processes
//
// A policy is one file (policy_*.go): its type, its registration (the spec
// word, parameters, example and summary that parsing, help texts and the
// explorer's menus come from, registry.go), its Pick, and optional methods
// that tell the rest of lbsim what it knows: its Theory (exact values,
// limits or bounds), its RowParams, its WorkShares when it splits jobs
// without reading the servers, its size Classes, and for built-ins an
// unexported dispatcher and lean fast path. A policy of your own is a type
// with String and Pick (see ExamplePolicy and the Policy interface); with
// a Theory method it gets the exact columns, the exact-outside-ci warning
// and the theory curve of plots.TheoryCurve like a built-in one.
//
// A size law is one file too (size_*.go: the law's formulas, its
// registration, and a String that ParseSizes reads back as the same law),
// and so is an arrival process (arrival_*.go).
//
// # Reproducibility
//
// The three random streams are derived from (seed, replication) only, so
// two policies run with the same seed see the same jobs (common random
// numbers), and a replication gives the same numbers on any machine and
// with any number of workers. CodeVersion names the code that computed a
// result (this package and lbsim/theory), for caches and sweep files.
//
// # Around the core
//
// The package imports no notebook, dataframe or plotting library; those
// live in the sub-packages: theory (closed forms, mean-field limits and
// exactly solved chains), frame (gota tables), plots (gonum/plot figures),
// nb (GoNB notebook helpers, the cache and the explorer), shard (sweeps
// split into files), study/course, study/staleness, study/finite and
// study/loadmoments (the studies behind the notebooks), cmd/lbsim (the
// command line), cmd/nbreports (notebooks to reports) and cmd/tracegen (the
// load-moment traces).
package lbsim
