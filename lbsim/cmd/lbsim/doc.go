// Command lbsim runs the dispatching simulator from the command line.
//
//	lbsim run [flags]      one configuration: a readable summary, or one JSON object with -json
//	lbsim compare [flags]  -policy A,B: A - B and A / B of the mean wait (or -metric:
//	                       p99_response, ...) on the same random numbers, paired 95%
//	                       intervals beside the unpaired ones; -a and -b give each side
//	                       its own set-up (see Comparing two set-ups)
//	lbsim sweep [flags]    a grid (comma-separated lists of policies, loads, ...) as CSV
//	                       (-shard i/n -out DIR runs one part; -spec FILE.json reads the grid)
//	lbsim merge DIR        merges the parts into the same CSV
//	lbsim slurm -shards n  prints a Slurm job-array script for the parts
//
// Build it with go build -o lbsim ./lbsim/cmd/lbsim, or run it with
// go run ./lbsim/cmd/lbsim from the repository root. "lbsim run -h" lists
// the flags with their defaults, and the registered policies, size laws and
// arrival processes with an example of each.
//
// Every invalid value exits with status 2 and one line that names it, the
// allowed range and a fix:
//
//	$ lbsim run -servers 100 -policy sita:c=0
//	lbsim run: sita c=0 is invalid: need 1 <= c <= K-1 = 99 so that both short and long jobs have a server; pick c in 1..99
//
// A flag given twice is an error, and so is a flag whose value another input
// replaces: -load beside a ramp (the ramp's to is the reported load),
// -sizes or -arrivals beside -trace. A load >= 1 (allowed by -overload, or
// reached by a ramp) prints a warning on stderr. Numbers are read by
// lbsim's one number parser, as everywhere in lbsim: plain decimals
// only, whole numbers in digits only (-jobs 1e6 is refused: write 1000000);
// the limits on every value are in the lbsim package documentation (Limits).
//
// # Flags
//
// run, compare, sweep and slurm share the flags of the settings, one for
// each field of lbsim's table (lbsim.Fields), in its order; in a sweep
// the grid's axes, -policy, -servers, -load, -sizes, -discipline,
// -refresh and -dispatchers, take comma-separated lists, and the sweep
// runs every combination. -skip-invalid is a flag of sweep and slurm only. The list is
// the table's, checked by a test (go test ./lbsim/cmd/lbsim -run Doc
// -update writes it anew):
//
// flags list:
//
//	-policy  dispatching policy (default rnd)
//	-servers  number of servers K (default 50)
//	-speeds  server speeds mu_k: one value for all, K comma-separated values, or runs COUNT@SPEED (5@2,5@1: five of speed 2, then five of speed 1) (default 1)
//	-load  load rho = lambda E[X] / sum(mu_k), in (0,1); with -trace, the load its arrival times are scaled to (0 or not given: the trace's own) (default 0.5)
//	-sizes  job size law (default twopoint:xm=1,xM=1000,beta=0.8)
//	-arrivals  arrival process (default poisson)
//	-trace  replay a trace CSV of arrival_time,size (replaces -arrivals and -sizes; -load scales its arrival times)
//	-discipline  service discipline: fcfs, ps or srpt (default fcfs)
//	-refresh  board refresh period T (0 = live state) (default 0)
//	-tally  each dispatcher adds its own sends since the last refresh to its board
//	-dispatchers  dispatchers M: each arrival goes to one, which decides on its own stream, policy state and tally (default 1)
//	-dispatcher-weights  the dispatchers' shares of the arrivals, M comma-separated weights or runs COUNT@WEIGHT, e.g. 2,1,1 or 1@2,2@1 (not given: even)
//	-stagger  refresh dispatcher i's board at T (n + i/M) instead of all at the multiples of T
//	-view  what a dispatcher sees of job counts: live (the servers', or the board with -refresh) or own (its own jobs still at each server: a proxy counting its connections; no messages) (default live)
//	-delay  how long after a departure a dispatcher reading job counts learns of it (live or own view; 0 = at once), as a proxy sees a response late (default 0)
//	-jobs  measured jobs N per replication (a trace: 0 = all its jobs) (default 2000000)
//	-warmup  jobs simulated before measuring, or auto (MSER truncation per replication) (default 0)
//	-warmup-auto  choose each replication's warm-up by MSER (the same as -warmup auto)
//	-reps  independent replications R (CIs over replications; R=1 uses batch means) (default 1)
//	-seed  base seed: replication r draws from streams derived from (seed, r) (default 1)
//	-batches  batch means for the CI when R=1 (0 = 20) (default 0)
//	-precision  run until the 95% half-width of the mean wait (PS, SRPT: response) is at most this fraction of it, e.g. 0.05 (0 = fixed length) (default 0)
//	-max-jobs  with -precision: at most this many jobs in all (0 = 1e10) (default 0)
//	-max-seconds  with -precision: stop after this many seconds (0 = no limit; makes the result machine-dependent) (default 0)
//	-control-variates  narrow the intervals by control variates: the sizes drawn and the interarrival gaps, of known means (Poisson or det arrivals)
//	-overload  allow load >= 1 (unstable: results depend on N)
//	-sample-every  record the jobs at every server every this many time units in replication 0 (0 = no time series) (default 0)
//	-workers  parallel workers (0 = all cores); the results do not depend on it (default 0)
//	-skip-invalid  skip the grid's invalid configurations (listed with their reasons) instead of stopping at the first; sweep and slurm only
//
// run and compare add:
//
//	-json  print exactly one JSON object on stdout

// compare adds:
//
//	-metric  the metric to compare: mean_wait (default; under PS and SRPT mean_response),
//	         mean_response, mean_slowdown, p50_wait, p50_response, ..., p999_response
//	-a, -b   side A's and side B's own settings over the flags, name=value separated by
//	         spaces (see Comparing two set-ups)
//
// sweep and slurm add:
//
//	-spec  read the sweep from a JSON file (see Sweep files)
//	-shard  run only part i of n (i/n, i from 0) and write it into -out
//	-out  directory for the shard files
//	-quiet  no progress on stderr
//	-id  print the sweep's id and number of configurations, and run nothing (sweep only)
//
// slurm adds:
//
//	-shards  number n of array tasks (shards), n >= 1
//	-bin  path of the lbsim binary the tasks run (default: this binary)
//	-cpus-per-task  CPUs per task; the task's sweep runs that many workers (default 1)
//	-time  sbatch --time of each task, e.g. 2:00:00
//	-partition  sbatch --partition
//
// merge takes one directory and:
//
//	-o  write the merged CSV to this file instead of stdout
//
// Details:
//
//   - -speeds: 5@2,5@1 is five servers of speed 2, then five of speed 1;
//     mixes like 2,3@1 work too. Rows, CSV files and Config.Key write the
//     speeds back in this notation (lbsim.ParseSpeeds, lbsim.SpeedsText).
//   - -policy and -sizes take the specs of the lbsim package's registries
//     (lbsim.ParsePolicy, lbsim.ParseSizes; the built-in policies and size
//     laws are described in the lbsim package documentation). A policy of
//     your own registered with lbsim.RegisterPolicy is a -policy spec too.
//   - -trace: the reported load is the trace's, (n-1)/(t_n - t_1) E[X] /
//     sum(mu_k); with -load X (also a sweep's list of loads) the arrival
//     times are multiplied by the trace's load over X, so the load is X, the
//     sizes unchanged, and the column trace_scale is that factor (1 at the
//     trace's own load). A trace has exactly two columns; its first row is a header
//     only when every field is an ASCII name (a mistyped number such as O.5
//     is an error, not a lost job); a UTF-8 byte order mark is ignored; at
//     most lbsim.MaxTraceJobs jobs. The trace column names it BASE#HASH, by
//     its jobs' values: two traces at one path are two names.
//   - -sizes file:PATH: the sizes in a file (a request log) resampled
//     uniformly, with any arrivals, load, speeds and policy: the size column
//     of a trace CSV (arrival,size), of a CSV whose header names a column
//     size, or one size a line (whose header, if any, has a letter other
//     than O, o, I and l: a mistyped 0 on line 1 is an error, not a
//     header). Keys and sweep ids know it by the SHA-256 of
//     its content; the sizes column names it file:BASE#HASH. A trace or a
//     size file of 1 MiB or more is parsed once per machine: the parse is
//     kept under the cache folder (LBSIM_CACHE_DIR, else ~/.cache/lbsim)
//     by its content's hash; LBSIM_NO_CACHE=1 turns that off.
//   - -arrivals ramp: the ramp sets the load; the row reports its final one.
//   - -refresh on a policy that reads no server state (rnd, rr, sita) is an
//     error; a sweep that crosses such policies with T > 0 says how to split
//     it in two.
//   - -dispatchers, -dispatcher-weights, -stagger, -tally: see "Several
//     dispatchers" in the lbsim package documentation.
//   - -warmup auto: each replication's initial transient is found by MSER
//     (White 1997) and discarded.
//   - -precision, -max-jobs, -max-seconds: -max-jobs and -max-seconds need
//     -precision and must hold its first round; a run whose projected length
//     is long or over the budget prints its rounds on stderr. -max-seconds
//     makes the result depend on the machine.
//   - -control-variates: Poisson or det arrivals; traces and ramps are refused.
//   - -skip-invalid: invalid points are, for example, SITA's c beyond K-1 or a
//     refresh period for a policy that reads no state. Without it a sweep
//     stops at the first, whose error names it ("configuration 7 (ll:d=2,
//     K=10, load 0.95, sizes exp:mean=1, refresh 3): ..."). It is part of the
//     sweep's id, and every machine skips the same points (judged on one
//     worker: a point too large for all cores still fails when it runs).
//
// # Sweep files
//
// lbsim sweep -spec sweep.json (and slurm -spec) reads the grid from a JSON
// file instead of the flags:
//
//	{"servers": [50], "sizes": ["h2:mean=1,scv=30"], "policy": ["ll:d=2"],
//	 "refresh": [1, 10, 100], "load": [0.5, 0.7, 0.9, 0.95], "reps": 10, "jobs": 2000000}
//
// The keys are the settings' columns (lbsim.Field.Column: the flag names
// with _ for -), exactly so and each once; the grid's axes are JSON lists
// (or one value, as on the command line: "dispatchers": 4);
// keys left out keep the flag defaults; giving a flag that the file sets
// beside -spec is an error. The keys, from lbsim's table:
//
// keys list:
//
//	policy  dispatching policy (a list)
//	servers  number of servers K (a list)
//	speeds  server speeds mu_k: one value for all, K comma-separated values, or runs COUNT@SPEED (5@2,5@1: five of speed 2, then five of speed 1)
//	load  load rho = lambda E[X] / sum(mu_k), in (0,1); with -trace, the load its arrival times are scaled to (0 or not given: the trace's own) (a list)
//	sizes  job size law (a list)
//	arrivals  arrival process
//	trace  replay a trace CSV of arrival_time,size (replaces -arrivals and -sizes; -load scales its arrival times)
//	discipline  service discipline: fcfs, ps or srpt (a list)
//	refresh  board refresh period T (0 = live state) (a list)
//	tally  each dispatcher adds its own sends since the last refresh to its board
//	dispatchers  dispatchers M: each arrival goes to one, which decides on its own stream, policy state and tally (a list)
//	dispatcher_weights  the dispatchers' shares of the arrivals, M comma-separated weights or runs COUNT@WEIGHT, e.g. 2,1,1 or 1@2,2@1 (not given: even)
//	stagger  refresh dispatcher i's board at T (n + i/M) instead of all at the multiples of T
//	view  what a dispatcher sees of job counts: live (the servers', or the board with -refresh) or own (its own jobs still at each server: a proxy counting its connections; no messages) (a list)
//	delay  how long after a departure a dispatcher reading job counts learns of it (live or own view; 0 = at once), as a proxy sees a response late (a list)
//	jobs  measured jobs N per replication (a trace: 0 = all its jobs)
//	warmup  jobs simulated before measuring, or auto (MSER truncation per replication)
//	warmup_auto  choose each replication's warm-up by MSER (the same as -warmup auto)
//	reps  independent replications R (CIs over replications; R=1 uses batch means)
//	seed  base seed: replication r draws from streams derived from (seed, r)
//	batches  batch means for the CI when R=1 (0 = 20)
//	precision  run until the 95% half-width of the mean wait (PS, SRPT: response) is at most this fraction of it, e.g. 0.05 (0 = fixed length)
//	max_jobs  with -precision: at most this many jobs in all (0 = 1e10)
//	max_seconds  with -precision: stop after this many seconds (0 = no limit; makes the result machine-dependent)
//	control_variates  narrow the intervals by control variates: the sizes drawn and the interarrival gaps, of known means (Poisson or det arrivals)
//	overload  allow load >= 1 (unstable: results depend on N)
//	sample_every  record the jobs at every server every this many time units in replication 0 (0 = no time series)
//	skip_invalid  skip the grid's invalid configurations (listed with their reasons) instead of stopping at the first
//
// The file is one object and nothing else; numbers follow the command line's
// rules ("jobs": 1e6 is refused: write 1000000). "policy": ["rnd,rr"] and
// ["rnd", "rr"] are the same grid. Spec files, like shard files, are read only
// if they are regular files of bounded size (16 MiB), so a FIFO or /dev/zero
// is an error, not a hang.
//
// The sweep id, in every shard file's first line, is the SHA-256 of the
// grid's canonical text (lbsim.Grid.Canonical): the code version
// (lbsim.CodeVersion) and every setting of the sweep with its values, a
// trace by its length and a hash of its values and a size file by its
// SHA-256 rather than their paths. The rules between settings are applied
// first: a trace replaces sizes and arrivals (giving them beside it is an
// error), a ramp sets the load. The
// same grid given as flags or as a file has the same id. How a sweep runs
// (-workers, -shard, -out) is not part of it.
//
// # Output
//
// lbsim run prints a readable summary: the mean wait and response with their
// 95% intervals, the exact value or limit when theory knows one, and a line
// "WARNING rule: message" per warning. lbsim sweep prints CSV, one row per
// configuration, with the columns of lbsim.Row (lbsim.RowHeader): a column
// for every setting of lbsim's table, then the result's. The list, checked
// by a test against lbsim.RowHeader:
//
// columns list:
//
//	policy  dispatching policy
//	servers  number of servers K
//	speeds  server speeds mu_k: one value for all, K comma-separated values, or runs COUNT@SPEED (5@2,5@1: five of speed 2, then five of speed 1)
//	load  load rho = lambda E[X] / sum(mu_k), in (0,1); with -trace, the load its arrival times are scaled to (0 or not given: the trace's own)
//	sizes  job size law
//	arrivals  arrival process
//	trace  replay a trace CSV of arrival_time,size (replaces -arrivals and -sizes; -load scales its arrival times)
//	discipline  service discipline: fcfs, ps or srpt
//	refresh  board refresh period T (0 = live state)
//	tally  each dispatcher adds its own sends since the last refresh to its board
//	dispatchers  dispatchers M: each arrival goes to one, which decides on its own stream, policy state and tally
//	dispatcher_weights  the dispatchers' shares of the arrivals, M comma-separated weights or runs COUNT@WEIGHT, e.g. 2,1,1 or 1@2,2@1 (not given: even)
//	stagger  refresh dispatcher i's board at T (n + i/M) instead of all at the multiples of T
//	view  what a dispatcher sees of job counts: live (the servers', or the board with -refresh) or own (its own jobs still at each server: a proxy counting its connections; no messages)
//	delay  how long after a departure a dispatcher reading job counts learns of it (live or own view; 0 = at once), as a proxy sees a response late
//	jobs  measured jobs N per replication (a trace: 0 = all its jobs)
//	warmup  jobs simulated before measuring, or auto (MSER truncation per replication)
//	warmup_auto  choose each replication's warm-up by MSER (the same as -warmup auto)
//	reps  independent replications R (CIs over replications; R=1 uses batch means)
//	seed  base seed: replication r draws from streams derived from (seed, r)
//	batches  batch means for the CI when R=1 (0 = 20)
//	precision  run until the 95% half-width of the mean wait (PS, SRPT: response) is at most this fraction of it, e.g. 0.05 (0 = fixed length)
//	max_jobs  with -precision: at most this many jobs in all (0 = 1e10)
//	max_seconds  with -precision: stop after this many seconds (0 = no limit; makes the result machine-dependent)
//	control_variates  narrow the intervals by control variates: the sizes drawn and the interarrival gaps, of known means (Poisson or det arrivals)
//	overload  allow load >= 1 (unstable: results depend on N)
//	sample_every  record the jobs at every server every this many time units in replication 0 (0 = no time series)
//	label  the policy's name, e.g. LL-2
//	d  servers sampled per job (LL-d, JSQ-d; K for LWL and JSQ), else 0
//	c  SITA's servers for its shortest jobs (its first group), else 0
//	size_mean  E[X]
//	scv  the size law's squared coefficient of variation
//	trace_scale  the factor a trace's arrival times are multiplied by to give the load (1 at the trace's own load), NaN without a trace
//	mean_wait  mean waiting time
//	mean_wait_ci95  half-width of its 95% interval (so every _ci95)
//	mean_response  mean response time, wait and service
//	mean_response_ci95  its half-width
//	mean_slowdown  mean slowdown: response over the job's own service time x/mu (Result.Slowdown)
//	mean_slowdown_ci95  its half-width
//	p50_wait  median wait
//	p50_wait_ci95  its half-width
//	p90_wait  90th percentile of the wait
//	p90_wait_ci95  its half-width
//	p99_wait  99th percentile of the wait
//	p99_wait_ci95  its half-width
//	p999_wait  99.9th percentile of the wait
//	p999_wait_ci95  its half-width
//	p50_response  median response
//	p50_response_ci95  its half-width
//	p90_response  90th percentile of the response
//	p90_response_ci95  its half-width
//	p99_response  99th percentile of the response
//	p99_response_ci95  its half-width
//	p999_response  99.9th percentile of the response
//	p999_response_ci95  its half-width
//	handout_wait  the course handout's quantity (FCFS only)
//	handout_wait_ci95  its half-width
//	mean_wait_short  mean wait of short jobs (two-point sizes, SITA)
//	mean_wait_short_ci95  its half-width
//	mean_wait_long  mean wait of long jobs (two-point sizes, SITA)
//	mean_wait_long_ci95  its half-width
//	load_on_capacity  the measured load: the work sent per unit time over sum(mu_k), what the load setting sets (see Result.LoadOnCapacity)
//	utilization  plain mean of the servers' utilisations, work over each one's speed
//	max_server_utilization  the busiest server's utilisation: with unequal speeds or an unbalanced policy it can near 1 while the mean is low
//	max_server_load  the highest configured server load, rho_k = lambda p_k E[X | k] / mu_k under a policy that splits jobs without reading the servers (at a ramp's final load, a trace's own), else NaN
//	ci_method  how the intervals were made: replications, or batch means, and the control variates used
//	messages_per_job  the messages the dispatchers' knowledge costs per job (Result.MessagesPerJob): probes and replies, idle tokens, board refreshes
//	warmup_truncated  the jobs discarded per replication: the warm-up, or with auto warm-up the mean MSER truncation
//	total_jobs  jobs simulated, warm-ups and precision rounds included
//	precision_met  a precision target was reached (false without one)
//	exact_wait  the exact mean wait when theory knows it (see Exact), else NaN
//	exact_response  the exact mean response, else NaN
//	exact_slowdown  the exact mean slowdown (Reference.Slowdown), +Inf when infinite (JSON null; the mean slowdown then has no interval), else NaN
//	exact_method  its formula, or "none: " and why a promised exact chain is out of reach
//	exact_p50_wait  exact median wait when theory knows it, else NaN
//	exact_p90_wait  exact 90th percentile of the wait when theory knows it, else NaN
//	exact_p99_wait  exact 99th percentile of the wait when theory knows it, else NaN
//	exact_p999_wait  exact 99.9th percentile of the wait when theory knows it, else NaN
//	exact_p50_response  exact median response when theory knows it, else NaN
//	exact_p90_response  exact 90th percentile of the response when theory knows it, else NaN
//	exact_p99_response  exact 99th percentile of the response when theory knows it, else NaN
//	exact_p999_response  exact 99.9th percentile of the response when theory knows it, else NaN
//	limit_wait  a K -> infinity limit or a lower bound of the mean wait (see Limit), else NaN
//	limit_response  the same of the mean response, else NaN
//	limit_method  its formula
//	limit_kind  limit or lower bound
//	warnings  the reasons not to trust a number (see Warnings), "rule: message" joined by "; " in CSV
//
// A quantity that does not apply is NaN. Numbers are written in the shortest
// form that reads back to the same float64, floats always with a decimal
// point or exponent (0.0, 1e+21), so frame.ReadCSV gives every column the type
// frame.FromStructs gives the rows. The CSV holds no wall-clock column: the
// same sweep always gives the same bytes. A sweep writes each row as soon as
// it and every row before it are done, so its memory does not grow with the
// number of configurations (2,000 configurations at K = 20,000: 29 MB, where
// holding the table took 614 MB); if the output fails (a full disk) it stops
// at once and says after how many rows.
//
// lbsim run -json prints one object whose keys are these columns, in this
// order, with values that do not exist (NaN) as null and the warnings as a
// list of {"rule", "message"} objects; and, for one release, "exact" and
// "limit", the former names of exact_wait and limit_wait. Every _ci95 is the
// half-width of a 95% interval: Student t over the R replications, or over
// 20 batch means when R = 1. The percentiles of the wait and the response
// (p50, p90, p99, p999) come from fixed-memory histograms with 64 bins per
// octave, interpolated within their bin; each is the quantile of all
// measured jobs, its _ci95 Student t over the quantiles of the R
// replications, or with R = 1 of the 20 batches (sectioning). exact_p99_wait
// and the like are the exact quantiles where theory has them (random or
// round robin dispatching with exponential sizes under FCFS: M/M/1 and
// E_K/M/1 servers; LWL: the central M/M/K queue), else null.
//
// lbsim compare -json prints a, b, metric (-metric: mean_wait by default,
// mean_response under PS and SRPT; or mean_response, mean_slowdown, p50_wait, ..., p999_response),
// load, pairs, ci_method, mean_wait_a, mean_wait_a_ci95, mean_wait_b,
// mean_wait_b_ci95, diff_mean_wait, diff_mean_wait_ci95 (paired),
// ratio_mean_wait, ratio_mean_wait_ci95 (paired), unpaired_diff_ci95,
// unpaired_ratio_ci95, exact_diff (null unless theory knows both) and runs,
// both runs as run -json gives them; the keys carry the metric's name
// (p99_response_a, diff_p99_response, ...). A percentile is paired unit by
// unit as a mean is: each replication's quantile, or with R = 1 each batch's
// (batch b of both runs holds the same arrivals under FCFS). What
// the paired intervals are, and when runs are paired, is in
// `go doc ./lbsim/compare`. With -a and -b, a and b name the sides by their
// set-ups where these differ in more than the policy (see Comparing two
// set-ups).
//
// # Comparing two set-ups
//
// lbsim compare -policy A,B pairs two policies; every other flag applies to
// both runs. -a and -b give each side its own settings over the flags:
// name=value separated by spaces, the names of the flags (or of the
// sweep-file keys) without the dash, a switch also bare ("tally"); each is
// set by its flag's own setter, so a side takes every setting a flag takes,
// with the flag's errors ("-a: view: ..."). -policy may give both sides one
// policy, or A,B their own, beside -a and -b:
//
//	lbsim compare -servers 10 -load 0.8 -a 'policy=jsq view=own dispatchers=4' -b 'policy=rr'
//	lbsim compare -servers 10 -load 0.8 -policy jsq,rr -a 'view=own dispatchers=4'
//	lbsim compare -servers 10 -load 0.8 -a 'policy=jsq:d=2 discipline=ps' -b 'policy=sita:c=2'
//
// Both sides keep the seed and so the same arrivals and sizes (common random
// numbers): they may differ only in the settings compare.MayDiffer lists
// (policy, view, delay, refresh, tally, dispatchers, dispatcher_weights,
// stagger, discipline, overload, sample_every: how jobs are dispatched and
// served).
// A side whose load, servers, speeds, sizes, arrivals, trace, seed, jobs,
// warm-up, reps or batches differ from the other's is refused before
// anything runs, naming the setting, both values and the fix:
//
//	$ lbsim compare -load 0.8 -a 'policy=jsq load=0.9' -b 'policy=rr'
//	lbsim compare: A and B are not paired: load is 0.9 in A and 0.8 in B; common random numbers need the same load on both sides (only policy, view, delay, refresh, tally, dispatchers, dispatcher_weights, stagger, discipline, overload, sample_every may differ): give -load once, for both sides, and not in -a or -b
//
// Where the sides differ in more than the policy (or their policies share a
// label), the output calls them A and B and names each by its policy and
// what else differs (compare.Setups), in the text's first lines and in the
// JSON's a and b:
//
//	A: jsq, dispatchers 4, view own
//	B: rr, dispatchers 1, view live
//	A - B: mean wait difference ...
//
// The same set-up on both sides is refused, as -policy rnd,rnd is: on the
// same random numbers it runs alike.
//
// # Shards
//
// A sweep splits into n deterministic parts: lbsim sweep FLAGS -shard i/n -out
// DIR runs part i (configurations i, i+n, i+2n, ...) and writes
// DIR/shard-<i>-of-<n>.csv; lbsim merge DIR joins the parts into the CSV that
// lbsim sweep prints for the whole sweep on one machine, byte for byte. Every
// configuration's seeds are derived from the base seed and its replication
// number only, so the results do not depend on how the sweep is split, in
// what order the parts run, or on how many cores. The file format and what
// makes a file complete are in package shard's documentation.
//
// A part whose file is already complete stops at once ("skipping shard
// i/n"); a missing, truncated or corrupt file is run again. A directory that
// holds a complete shard of another sweep, or of the same sweep computed by
// another build of lbsim, is an error and is never overwritten: after a bug
// fix, use a new directory. Two processes never compute one shard at once: a
// task claims its shard with flock on DIR/.shard-<i>-of-<n>.lock (released by
// the kernel however the task ends), and a second one fails at once saying
// so. A complete shard is recognised before the lock file is created, so
// resubmitting a finished sweep into a read-only folder stops at once; a
// symlink or special file at a shard's name is refused before anything is
// computed.
//
// lbsim merge checks that every file belongs to the same sweep, computed by
// the same build, and that every configuration appears exactly once. If not,
// it names the foreign file, the missing shard (with the command to run it)
// or the duplicated configuration. Then it writes the table in configuration
// order. -o replaces a regular file atomically; through a symlink it writes
// the link's target (the link stays); a device or FIFO (/dev/stdout) is
// written into, never renamed over; a shard file, or a name of the form
// shard-<i>-of-<n>.csv, is refused. Files are written with mode 0644.
//
// # Slurm
//
// A sweep that outgrows one machine runs as a Slurm job array. Build the
// binary once, on a file system the compute nodes can read, and let
// lbsim slurm write the batch script:
//
//	go build -o ~/bin/lbsim ./lbsim/cmd/lbsim
//	~/bin/lbsim slurm -shards 8 -out ~/runs/stale -cpus-per-task 4 -time 2:00:00 \
//	    -servers 50 -sizes h2:mean=1,scv=30 -policy ll:d=2 -refresh 1,10,100 \
//	    -load 0.5,0.7,0.9,0.95 -reps 10 -jobs 2000000 > stale.sbatch
//	sbatch stale.sbatch                      # then squeue --me
//	~/bin/lbsim merge ~/runs/stale -o stale.csv
//
// The script uses --array=0-(n-1); task $SLURM_ARRAY_TASK_ID runs lbsim sweep
// ... -shard $SLURM_ARRAY_TASK_ID/n -out DIR with $SLURM_CPUS_PER_TASK
// workers and logs to DIR/slurm-<job>_<task>.out, with plain progress lines
// and an ETA. If a task fails or is killed, submit the same script again:
// complete shards are skipped. The tasks' command line is generated from the
// same normalized spec as the sweep id in the script's header, and with -bin
// the header's id is asked of that binary (lbsim sweep ... -id), so header,
// tasks and merge always agree. slurm refuses more shards than
// configurations, -workers (use -cpus-per-task), -shard, -id, and a trace that
// is not a regular file (the tasks read it again); -quiet is passed on to the
// tasks, and a % in -out reaches Slurm as %%.
//
// go test ./lbsim/internal/slurmtest ./lbsim/cmd/lbsim starts a real
// single-node Slurm (Debian packages slurmctld, slurmd, slurm-client and
// munge, installed if missing; daemons run without systemd in a temporary
// directory), runs a sweep as a 3-task array and compares the merged table
// with a local unsharded run; then it deletes one shard, resubmits, and checks
// that only that shard ran. Without root or Debian the tests skip and say
// why; with CI=true or LBSIM_REQUIRE_SLURM=1 they fail instead.
package main
