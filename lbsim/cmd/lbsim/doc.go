// Command lbsim runs the dispatching simulator from the command line.
//
//	lbsim run [flags]      one configuration: a readable summary, or one JSON object with -json
//	lbsim compare [flags]  -policy A,B: A - B and A / B of the mean wait on the same
//	                       random numbers, paired 95% intervals beside the unpaired ones
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
// replaces: -load beside a ramp (the ramp's to is the reported load), -load,
// -sizes or -arrivals beside -trace. A load >= 1 (allowed by -overload, or
// reached by a ramp) prints a warning on stderr. Numbers are read by
// lbsim.ParseFloat and lbsim.ParseInt, as everywhere in lbsim: plain decimals
// only, whole numbers in digits only (-jobs 1e6 is refused: write 1000000);
// the limits on every value are in the lbsim package documentation (Limits).
//
// # Flags
//
// run, compare, sweep and slurm share these flags, in this order in
// newFlagSet (flags.go); in a sweep, -servers, -load, -sizes, -policy,
// -refresh and -discipline take comma-separated lists, and the sweep runs
// every combination.
//
//	-servers  number of servers K (default 50)
//	-speeds  server speeds mu_k: one value for all, K comma-separated values, or runs COUNT@SPEED (default 1)
//	-load  rho = lambda E[X] / sum(mu_k); must be < 1 unless -overload (default 0.5)
//	-sizes  job-size law, a registered spec (default twopoint:xm=1,xM=1000,beta=0.8, the course handout's)
//	-arrivals  poisson, det (constant rate) or ramp:from=RHO0,to=RHO1,over=T (default poisson)
//	-trace  replay a CSV file of arrival_time,size, in place of -load, -arrivals and -sizes
//	-policy  dispatching policy, a registered spec (default rnd)
//	-refresh  board refresh period T; 0 = the policy reads live state (default 0)
//	-tally  each dispatcher adds its own sends since the last refresh to its board (default false)
//	-dispatchers  number of dispatchers M, each deciding on its own knowledge (default 1)
//	-dispatcher-weights  the dispatchers' shares of the arrivals, M comma-separated weights; empty = even
//	-stagger  refresh dispatcher i's board at T (n + i/M) instead of every board at the multiples of T (default false)
//	-discipline  fcfs or ps (processor sharing) (default fcfs)
//	-jobs  measured jobs N per replication (default 2000000; with -trace, default the whole trace)
//	-warmup  jobs simulated before measuring, or auto: MSER truncation per replication (default 0)
//	-precision  run until the 95% half-width of the mean wait (PS: response) is at most this fraction of it; 0 = fixed length (default 0)
//	-max-jobs  with -precision: at most this many jobs in all; 0 = 1e10 (default 0)
//	-max-seconds  with -precision: stop after this many wall seconds; 0 = no limit (default 0)
//	-reps  independent replications R, run in parallel; R = 1 uses batch means (default 1)
//	-seed  base seed (default 1)
//	-workers  parallel workers; 0 = all cores (default 0)
//	-batches  batch means for the interval when R = 1; 0 = 20 (default 0)
//	-overload  allow load >= 1: unstable, the results depend on N (default false)
//	-control-variates  narrow the intervals by control variates of known means (default false)
//
// run and compare add:
//
//	-json  print exactly one JSON object on stdout
//
// sweep and slurm add:
//
//	-skip-invalid  leave out the grid's invalid configurations, each listed on stderr with its reason
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
//     sum(mu_k). A trace has exactly two columns; its first row is a header
//     only when every field is an ASCII name (a mistyped number such as O.5
//     is an error, not a lost job); a UTF-8 byte order mark is ignored; at
//     most lbsim.MaxTraceJobs jobs.
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
// The keys are the flag names with _ for -, exactly so and each once; grid
// axes are lists; keys left out keep the flag defaults; giving a flag that
// the file sets beside -spec is an error. The keys:
//
//	servers  list of K
//	speeds  list of speeds, or a string in -speeds notation ("5@2,5@1")
//	load  list of loads
//	sizes  list of size specs
//	arrivals  one arrivals spec
//	trace  path of a trace file
//	policy  list of policy specs
//	refresh  list of refresh periods
//	tally  true or false
//	dispatchers  M
//	dispatcher_weights  list of M weights
//	stagger  true or false
//	discipline  list of fcfs, ps
//	jobs  measured jobs per replication
//	warmup  warm-up jobs
//	warmup_auto  true for -warmup auto (with "warmup" beside it an error)
//	precision  the -precision target
//	max_jobs  the -max-jobs budget
//	max_seconds  the -max-seconds budget
//	reps  replications
//	seed  base seed
//	batches  batch means when R = 1
//	overload  true for -overload
//	control_variates  true for -control-variates
//	skip_invalid  true for -skip-invalid
//
// The file is one object and nothing else; numbers follow the command line's
// rules ("jobs": 1e6 is refused: write 1000000). "policy": ["rnd,rr"] and
// ["rnd", "rr"] are the same grid. Spec files, like shard files, are read only
// if they are regular files of bounded size (16 MiB), so a FIFO or /dev/zero
// is an error, not a hang.
//
// The sweep id, in every shard file's first line, is the SHA-256 of the
// spec's canonical JSON encoding together with the code version
// (lbsim.CodeVersion) and a trace's hash. The spec is normalized first: a trace replaces load,
// sizes and arrivals (giving them beside it is an error), a ramp sets the
// load, an automatic warm-up has no count, one dispatcher is no dispatchers
// field. A trace is identified by the SHA-256 of the bytes it was parsed from,
// read once, so -trace /dev/stdin works and two different piped traces never
// share an id. The same grid given as flags or as a file has the same id. How
// a sweep runs (-workers, -shard, -out) is not part of it.
//
// # Output
//
// lbsim run prints a readable summary: the mean wait and response with their
// 95% intervals, the exact value or limit when theory knows one, and a line
// "WARNING rule: message" per warning. lbsim sweep prints CSV, one row per
// configuration, with the columns of lbsim.Row in this order:
//
//	policy  the policy's spec, e.g. ll:d=2
//	label  its name, e.g. LL-2
//	d  servers sampled per job (LL-d, JSQ-d; K for LWL and JSQ), else 0
//	c  SITA's servers for short jobs, else 0
//	servers  K
//	speeds  the servers' speeds as runs, count@speed in server order: 50@1, 5@2,5@1
//	load  offered load rho; a trace's own
//	sizes  the size law's spec
//	size_mean  E[X]
//	scv  the law's squared coefficient of variation (h2:mean=1,scv=10 gives 10.0)
//	arrivals  the arrivals spec
//	discipline  fcfs or ps
//	refresh  board refresh period T
//	tally  true or false
//	dispatchers  M
//	jobs  measured jobs per replication
//	warmup  jobs discarded per replication; with -warmup auto the mean MSER truncation
//	reps  replications R
//	seed  base seed
//	mean_wait  mean waiting time
//	mean_wait_ci95  half-width of its 95% interval (so for every _ci95 column)
//	mean_response  mean response time
//	mean_response_ci95  its half-width
//	p50_wait  median wait
//	p95_wait  95th percentile of the wait
//	p99_wait  99th percentile of the wait
//	handout_wait  the course handout's quantity (FCFS only)
//	handout_wait_ci95  its half-width
//	mean_wait_short  mean wait of short jobs (two-point sizes, SITA)
//	mean_wait_short_ci95  its half-width
//	mean_wait_long  mean wait of long jobs (two-point sizes, SITA)
//	mean_wait_long_ci95  its half-width
//	load_on_capacity  measured load: work per unit time over sum(mu_k), what -load sets
//	utilization  plain mean of the servers' utilisations, work over each one's speed
//	max_server_utilization  the busiest server's utilisation
//	ci_method  how the intervals were made: replications, or 20 batch means, and the control variates used
//	messages_per_job  messages the dispatchers' knowledge costs per job
//	total_jobs  jobs simulated, warm-ups and precision rounds included
//	exact_wait  the exact mean wait when theory knows it
//	exact_response  the exact mean response
//	exact_method  its formula
//	limit_wait  a K -> infinity limit or a lower bound of the mean wait
//	limit_response  the same of the mean response
//	limit_method  its formula
//	limit_kind  limit or lower bound
//	warnings  the warnings, "rule: message" joined by "; "
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
// lbsim run -json prints one object with these keys, values that do not exist
// as null:
//
//	policy  as in the CSV
//	label  as in the CSV
//	servers  as in the CSV
//	load  as in the CSV
//	sizes  as in the CSV
//	arrivals  as in the CSV
//	discipline  as in the CSV
//	refresh  as in the CSV
//	tally  as in the CSV
//	dispatchers  as in the CSV
//	jobs  as in the CSV
//	reps  as in the CSV
//	seed  as in the CSV
//	mean_wait  as in the CSV
//	mean_wait_ci95  as in the CSV
//	mean_response  as in the CSV
//	mean_response_ci95  as in the CSV
//	p50_wait  as in the CSV
//	p95_wait  as in the CSV
//	p99_wait  as in the CSV
//	handout_wait  as in the CSV; FCFS only, absent under PS
//	handout_wait_ci95  as in the CSV; FCFS only
//	mean_wait_short  as in the CSV; only with short and long classes (so the four keys below)
//	mean_wait_short_ci95  as in the CSV
//	mean_wait_long  as in the CSV
//	mean_wait_long_ci95  as in the CSV
//	load_on_capacity  as in the CSV
//	utilization  as in the CSV
//	ci_method  as in the CSV
//	messages_per_job  as in the CSV
//	total_jobs  as in the CSV
//	exact  the CSV's exact_wait
//	exact_response  as in the CSV
//	exact_method  as in the CSV
//	limit  the CSV's limit_wait
//	limit_response  as in the CSV
//	limit_method  as in the CSV
//	limit_kind  as in the CSV
//	warnings  a list of {"rule", "message"} objects, [] when none
//	server_utilization  every server's utilisation, in server order
//	seconds  wall-clock time of the run
//	warmup_truncated  jobs discarded per replication
//	precision  the -precision target (only with -precision)
//	precision_met  whether it was reached (only with -precision)
//	mean_response_short  and _long, with _ci95: per class, as mean_wait_short
//	jobs_short  and jobs_long: measured jobs per class
//
// The JSON lacks the CSV's d, c, speeds, size_mean, scv, warmup and
// max_server_utilization. Every _ci95 is the half-width of a 95% interval:
// Student t over the R replications, or over 20 batch means when R = 1.
// Waiting-time percentiles come from a fixed-memory histogram with 64 bins
// per octave: within 0.8%.
//
// lbsim compare -json prints a, b, metric (wait, or response under PS), load,
// pairs, ci_method, mean_wait_a, mean_wait_a_ci95, mean_wait_b,
// mean_wait_b_ci95, diff_mean_wait, diff_mean_wait_ci95 (paired),
// ratio_mean_wait, ratio_mean_wait_ci95 (paired), unpaired_diff_ci95,
// unpaired_ratio_ci95, exact_diff (null unless theory knows both) and runs,
// both runs as run -json gives them; under PS the keys say mean_response. What
// the paired intervals are, and when runs are paired, is in the lbsim package
// documentation (Paired comparisons).
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
