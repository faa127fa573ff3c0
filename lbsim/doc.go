// Package lbsim simulates the dispatching of jobs among K parallel servers.
//
// Jobs arrive (Poisson, deterministic, a linear ramp of the rate, or a
// replayed [Trace]), each is sent at once by a dispatching [Policy] to one of
// K servers of speeds mu_k, and waits in that server's own infinite queue,
// served FCFS, by processor sharing (PS) or shortest remaining processing
// time first (SRPT, preemptive; ties in arrival order). The built-in policies are
// registered by their spec word: rnd and rr (with weights), ll (LL-d, and
// LWL as lwl), jsq (JSQ-d and JSQ), sed (shortest expected delay), jiq
// (join the idle queue), lsq (local shortest queue) and sita; or a policy
// of your own. Policies that read server state read it live or from a
// board refreshed every T time units (stale information), with one or
// several dispatchers.
//
// # The pipeline
//
// A [Config] is one system and how to measure it; its settings are the rows
// of one table ([Fields]: the flags, sweep-file keys, [Config.Key] and
// [Row]'s columns come from it). [Run] validates a Config
// ([Config.Validate]: each setting's own check, then the limits of memory
// and arithmetic, then what the policy and the servers' loads need) and
// runs its replications in parallel ([RunEach]); each replication, in the
// files a reader of Run meets in this order:
//
//   - sim.go builds it (newSim) and runs it: arrivals, sizes and dispatch
//     decisions come from separate random streams (rng.go: arrivals, sizes,
//     the dispatch stream of dispatcher 0 and one more per further
//     dispatcher, the route of an arrival to its dispatcher, and the
//     dispatchers' shared state), the policy picks a server (its own
//     dispatcher, policy_*.go with the indexes index_*.go, or its Pick
//     through a [View], policy_view.go) and the job joins that server
//     (sim_servers.go). Under FCFS a server is the time its work runs out,
//     so a job's wait is known when it is dispatched (Lindley's recursion,
//     without the O(K) update of the course's R code); the common case runs
//     in lean blocks (sim_lean.go) with the same numbers to the last bit.
//     Under PS and SRPT (sim_srpt.go) each server keeps its jobs in a heap
//     and records each when it leaves; its work runs out at the same time.
//     Stale boards are sim_board.go, several dispatchers sim_dispatchers.go
//     (JIQ's I-queues sim_iqueues.go), the bound on a growing backlog
//     sim_backlog.go, the control variates' sums sim_control.go;
//   - each job is recorded in fixed memory (stat_metrics.go: batch sums, a
//     waiting-time histogram, stat_histogram.go); with WarmupAuto the
//     transient is cut by MSER (stat_mser.go);
//   - the replications are combined into a [Result] (result.go: means with
//     95% intervals, stat_estimate.go; control variates, result_control.go
//     and stat_control.go), with what theory knows ([Exact], exact.go), the
//     messages the dispatchers' knowledge costs (result_messages.go) and
//     the warnings that apply ([Warnings], result_diagnose.go; the run
//     length, result_runlength.go, from the servers' loads,
//     config_stability.go);
//   - [NewRow] (result_row.go) flattens a Result for tables, CSV, JSON and
//     dataframes.
//
// A [Grid] (run_sweep.go) is a sweep, and its text forms (run_sweep_spec.go)
// are the command line's and sweep files'; precision targets are
// run_precision.go. Policies cost O(1) (RND, RR, SITA), O(d) (LL-d, JSQ-d,
// SED-d) or O(log K) (LWL, JSQ, SED, JIQ, LSQ) per job, and memory does not
// grow with the number of jobs.
//
// # Policies, size laws, arrival processes
//
// A policy is one file (policy_*.go): its type, its registration (the spec
// word, parameters, example and summary that parsing, help texts and the
// explorer's menus come from, registry.go), its Pick, its [Description]
// (what it reads, the servers it asks a job, its label, its size classes,
// how it splits the jobs: one value, which the rest of lbsim reads), and
// its behaviour beyond Pick: its checks, its theory, its per-run state, and
// for built-ins their own dispatcher and lean fast path. A policy of your
// own is a type with String and Pick, and a Describe method for its facts
// (see ExamplePolicy and [Policy]); with a Theory method it gets the exact
// columns, the exact-outside-ci warning and the theory curve of
// plots.TheoryCurve like a built-in one.
//
// A size law is one file too (size_*.go: the law's formulas, its
// registration, and a String that [ParseSizes] reads back as the same law),
// and so is an arrival process (arrival_*.go).
//
// # Reproducibility
//
// Every stream of a replication is derived from (seed, replication, stream)
// only, so two policies run with the same seed see the same jobs (common
// random numbers), and a replication gives the same numbers on any machine
// and with any number of workers. [CodeVersion] names the code that
// computed a result (this package, lbsim/theory and how a row's numbers are
// written), for caches and sweep files. [Config.Key] names a configuration
// for a cache: every setting, a built-in policy by its spec, and a policy
// of your own by what it does, a fingerprint of its exported fields and of
// the servers Pick chooses in short probe runs with the configuration's
// dispatchers (up to 8), on four small systems and on its own servers when
// K <= 1000. An edit the probe does not exercise keeps the key (see
// nb.Fresh, which notices when the numbers then differ). The probe is
// bounded: a Pick that makes more than 10^6 View calls for one job (one
// that loops until some server has fewer than 3 jobs, on a loaded probe
// system) or does not return within 10 s gives a key that says so
// ([KeyUnfinished]), which nb never caches.
//
// # Around the core
//
// The package imports no notebook, dataframe or plotting library; those
// live in the sub-packages: theory (closed forms, mean-field limits and
// exactly solved chains, and which of them the tests check), compare
// (paired comparisons of two policies), frame (gota tables), plots
// (gonum/plot figures), nb (GoNB notebook helpers, the cache and the
// explorer), shard (sweeps split into files), study/course,
// study/staleness, study/finite and study/loadmoments (the studies behind
// the notebooks), cmd/lbsim (the command line), cmd/nbreports (notebooks to
// reports) and cmd/tracegen (the load-moment traces).
//
// # Built-in policies
//
// Each is a spec that [ParsePolicy], the -policy flag, sweep files and the
// explorer's menu read (lbsim run -h lists them, with an example each), and
// a type whose doc gives its rule and theory:
//
//   - rnd, rnd:weights=speed or =2/1/1: [Random], [WeightedRandom];
//   - rr, rr:weights=speed: [RoundRobin], [WeightedRoundRobin] (nginx's
//     smooth weighted round robin);
//   - ll:d=D and lwl: [LeastLoaded] (LL-d, least work left); jsq:d=D and
//     jsq: [JSQ]; both take replace=1 (sampling with replacement) and mem=M
//     (JSQ(d,m), LL(d,m): memory of the M least loaded, Mitzenmacher,
//     Prabhakar and Shah 2002);
//   - sed, sed:d=D: [SED], shortest expected delay (n_k+1)/mu_k;
//   - jiq, jiq:d=D,withdraw=1: [JIQ], join the idle queue, with I-queues
//     for several dispatchers (Lu et al. 2011);
//   - lsq:p=P, lsq:d=D: [LSQ], local shortest queue on each dispatcher's
//     own estimates (Vargaftik, Keslassy and Orda 2020);
//   - sita:c=C, sita:cut=X,c=C, sita:cuts=X1/X2,servers=C1/C2/C3,
//     sita:groups=G: [SITA], size intervals, SITA-E with equal-load cutoffs.
//
// A policy of your own is a type with String and Pick (see [Policy] for the
// optional methods and ExamplePolicy, whose IdleOfD is registered as
// idle:d=2); [RegisterPolicy] makes it a spec. Its value is the spec every
// replication and dispatcher starts from: a run whose Pick changes it (a
// counter in a pointer receiver, a map it fills, a random source of its
// own) is refused with an error; state kept from job to job belongs in the
// value its Start method gives each replication and dispatcher.
//
// # Size laws and arrivals
//
// Size specs ([ParseSizes]): exp:mean=M, det:x=X,
// erlang:k=K,mean=M, twopoint:xm=A,xM=B,beta=BETA (P(long) = x_M^-beta, the
// course handout's law) or twopoint:xm=A,xM=B,p=P, h2:mean=M,scv=C (balanced
// means) or h2:p1=P,rate1=A,rate2=B, pareto:alpha=A,mean=M[,max=X] or
// pareto:alpha=A,min=L[,max=X], modal:V1,V2,... and empirical:V1,V2,...
// (uniform choice among the values), and file:PATH ([SizesFromFile]): the
// sizes in a file, a request log, resampled uniformly with any arrivals,
// load, speeds and policy: the size column of a trace CSV, of a CSV whose
// header names a column size, or one size a line. A file's law is known in
// Config.Key and sweep ids by the SHA-256 of its content, not its path, and
// in columns as file:BASE#HASH; an empirical law's moments, conditional
// moments (SITA's cuts: a binary search) and exact values are computed
// once, and a draw is O(1). Every law's String is a spec that reads
// back as the same law, also for a law built by hand in Go
// (FuzzSizeRoundTrip). Arrival specs (the arrivals setting): poisson, det (one
// arrival every 1/lambda) and ramp:from=RHO0,to=RHO1,over=T (Poisson, the
// load rising linearly from RHO0 to RHO1 over the first T time units); a
// [Trace] replays recorded arrival times and sizes instead, at its own load
// (Config.Load 0), or at Config.Load, its arrival times multiplied by its
// own load over Load (the column trace_scale). A trace or size file of
// 1 MiB or more is parsed once per machine: the parse is kept in the cache
// folder (LBSIM_CACHE_DIR, else $XDG_CACHE_HOME/lbsim or ~/.cache/lbsim,
// as nb's) under its content's SHA-256, checked when read; LBSIM_NO_CACHE=1
// turns it off. So a notebook cell, a new program, reads a 10^6-line log
// in about 0.1 s instead of parsing it again. The replications
// of a trace replay its jobs, differing only in the dispatcher's draws: the
// interval is from batch means over the trace, the replays summed batch by
// batch (Result.CIMethod "20 batch means of the trace, its 4 replays
// summed"), not from the replays' spread, which says nothing of the
// workload's.
//
// # Several dispatchers
//
// With [Config].Dispatchers = M, each arrival goes to one of M dispatchers
// (evenly, or in the shares DispatcherWeights), and that dispatcher alone
// decides: with its own random stream (dispatcher 0 draws the one-dispatcher
// stream, so M = 1 gives the numbers of one dispatcher to the bit), its own
// round-robin pointer or memory, and on a board its own copy: the shared
// snapshot plus its tally of its own sends only. All copies are refreshed at
// the multiples of T, or with Stagger dispatcher i's at T (n + i/M). A policy
// of your own sees which dispatcher decides ([View.Dispatcher]). Notebook 10
// compares what each kind of knowledge buys.
//
//   - With live state a policy without history (RND, LL-d, JSQ-d, LWL) gives
//     the same system at any M; RR and the policies with memory do not, and
//     get no theory value for M > 1.
//   - With View = OwnView (-view own) each dispatcher counts only its own
//     jobs at each server, as a proxy counting its own connections: no
//     messages, and JSQ and SED read those counts, under FCFS, PS or SRPT.
//     With M = 1 it is live JSQ to the bit.
//   - On a stale board private tallies bring herding back.
//   - JIQ with several dispatchers and live state keeps Lu et al.'s
//     I-queues (sim_iqueues.go): an idle server's token goes to one
//     dispatcher's I-queue (the shortest of d with jiq:d=D); with
//     jiq:withdraw=1 a server that gets a job withdraws it, and theory has
//     the mean-field limit K, M -> infinity ([theory.JIQWithdrawals]).
//   - LSQ keeps each dispatcher's own estimates of the servers' job counts,
//     from its sends, the servers' reports and its probes.
//
// Every result has MessagesPerJob, what the dispatchers' knowledge costs,
// counted as Lu et al. count them: 2 a server probed (a probe and its
// reply), idle tokens, reports and board snapshots (result_messages.go).
//
// # What is measured
//
// The waiting time runs from a job's arrival to the start of its service
// (under PS and SRPT: its response time minus its own service time x/mu); the
// response time adds the service time. The course's R code accumulates, for
// job n sent to server U, max(V_U + X_n - A_{n+1}, 0): the workload just
// after the job joined minus the time to the next arrival. That is not job
// n's waiting time V_U; at low load it adds about E[(X - A)^+] (about 4 for
// the handout's sizes). lbsim reports the true waiting time and, under FCFS,
// the handout's quantity beside it ([Row].HandoutWait, column handout_wait),
// so students can check their numbers: a test reproduces the handout's whole
// printed table with it (within the noise of both runs) up to rho = 0.85. At
// rho = 0.95 a 2e6-job run cannot resolve the heavy tail (SCV 160): the
// handout's RND value is 42% below the exact Pollaczek-Khinchine value.
//
// # Can I trust this number?
//
// A heavy-tailed or heavily loaded simulation can be confidently wrong: a
// tight interval around a value far from the truth. lbsim guards against
// that in three ways.
//
// Before running, [Config.Validate] refuses a configuration it can prove
// unstable (unless AllowOverload), naming the servers and the highest stable
// load, [Config.StabilityLimit]: a server that RND, RR or SITA overloads, or
// the m slowest servers under d-sampling (LL-d, JSQ-d, SED-d) on unequal
// speeds.
//
// After running, every result carries the warnings that apply to it
// ([Result].Warnings, [Row].Warnings, the JSON's warnings, printed by lbsim
// run); a benign run (exponential sizes, moderate load, enough jobs) carries
// none. Each [Warning] names its rule ([Rules] lists them) and says, with the
// numbers of the run, what to do. "The mean" is the mean wait under FCFS and
// the mean response under PS and SRPT. The rules:
//
//   - unstable ([RuleUnstable]): the load, or a server's load as the
//     configuration fixes it, reached 1 (allowed by -overload, a trace's own
//     load, a ramp past the stability limit), or a server's measured
//     utilisation reached 1 where the configuration does not fix the loads (a
//     trace, a policy of your own, JIQ, JSQ, LL-d or LSQ on unequal speeds),
//     or far above 1 beyond sampling error where it does: the queues grow,
//     every mean depends on the run length. Fix: lower the load or send that
//     server less work; no warm-up helps. Under -precision, the run stops: no
//     run length cures it.
//   - infinite-second-moment ([RuleInfiniteSecondMoment]): E[X²] = ∞
//     (Pareto α <= 2): under FCFS the mean wait is infinite and a simulated
//     one only grows with the run; under PS and SRPT the mean response
//     exists, but the response time has infinite variance, so its interval is
//     not valid. Fix: read the percentiles, or use PS or SRPT and compare
//     runs of 10x the length. Under -precision, the run stops: no run length
//     cures it.
//   - infinite-third-moment ([RuleInfiniteThirdMoment]): E[X³] = ∞ (Pareto
//     α <= 3), FCFS: the wait has infinite variance, so the interval is too
//     narrow and the mean converges slower than 1/sqrt(N). Fix: compare runs
//     of 10x the length, or use PS or SRPT. Under -precision, the run stops:
//     no run length cures it.
//   - tail-undersampled ([RuleTailUndersampled]): the sizes drawn have E[X²]
//     below half or above twice the law's: the run has not seen the tail that
//     sets the mean. Fix: run at least 10x more jobs and compare. Under
//     -precision, N doubles: longer replications cure it.
//   - initial-transient ([RuleInitialTransient]): the run started empty and
//     is biased low by more than a quarter of its interval's half-width. Fix:
//     use -warmup auto (WarmupAuto: true) or the jobs the message names.
//     Under -precision, N doubles: longer replications cure it.
//   - correlated-batches ([RuleCorrelatedBatches]): one replication whose
//     batch means are not independent: the interval is too narrow. Fix: use
//     replications (-reps 5) or longer runs. Under -precision, N doubles:
//     longer replications cure it.
//   - drift ([RuleDrift]): the two halves of the run differ beyond chance and
//     by more than the half-width: not in steady state. Fix: use -warmup auto
//     or longer runs. Under -precision, N doubles: longer replications cure
//     it.
//   - exact-outside-ci ([RuleExactOutsideCI]): the exact value is more than 2
//     half-widths from the mean (a correct run: probability about 6e-5): the
//     interval is confidently wrong. Fix: trust the exact value; run longer.
//     Under -precision, N doubles: longer replications cure it.
//   - below-lower-bound ([RuleBelowLowerBound]): the mean is more than 2
//     half-widths below a lower bound theory gives (LowerBound): the interval
//     is confidently wrong. Fix: run longer. Under -precision, N doubles:
//     longer replications cure it.
//   - few-refreshes ([RuleFewRefreshes]): the board was refreshed fewer than
//     10 times in a replication: the policy mostly saw the empty board of the
//     start, not the steady state of its refresh period. Fix: run more jobs
//     (the message says how many).
//   - ramp-not-reached ([RuleRampNotReached]): the run ended before the ramp
//     reached its final load: the result is not at the load it is reported
//     at. Fix: shorten the ramp or run more jobs.
//   - precision-not-met ([RulePrecisionNotMet]): a -precision target was not
//     reached within the budget, or cannot be. Fix: raise -max-jobs /
//     -max-seconds, or see the other warnings.
//
// Their thresholds and references are documented beside their constants.
// The thresholds of initial-transient and correlated-batches come from a
// coverage study kept as a test (coverage_test.go, 200 seeds per family):
// over 52 families with exact values (RND and RR with H2 sizes of SCV 10 to
// 50 at loads 0.9 to 0.98, R = 1 and R = 5, PS with Pareto sizes, SITA, LWL,
// and families held out of the choice: chains, size cuts, unequal speeds),
// the unwarned 95% intervals of every family hold the exact value at least
// 90% of the time (pooled over the hard families: 82% before these rules).
// Where a hard family is warned on every run, the warning says what would
// make it trustworthy.
//
// Exact and limit. [Exact] ([Result].Exact, [Row].ExactWait, the JSON's
// exact) is only ever the exact steady-state mean of the configured system;
// exact-outside-ci checks it. [Limit] ([Result].Limit, [Row].LimitWait, the
// JSON's limit and limit_kind) holds what theory knows short of that: a K ->
// infinity mean-field limit (kind limit: JSQ-d, LL-d, JSQ(d,1), JIQ at large
// K), which a finite system differs from, or a lower bound a policy of your
// own may give. Figures label them ("LL-2 limit K→∞"). One lookup,
// [Theory], asks the policy's Theory method; each built-in policy states its
// formulas in its own file. No value is given on a board: a board refreshed
// rarely is random dispatching for a while, not the steady state of its
// period. The exact Markov chains of JSQ(-d), SED(-d) and JIQ with
// exponential sizes at K <= 8 and any speeds (theory.DispatchExact) are
// solved within a budget of states; where a chain is beyond it, HasExact
// is false and [Result].Exact.Method ([Row].ExactMethod, exact_method)
// says "none: " and why.
//
// Third, two remedies are built in: Config.WarmupAuto (-warmup auto: MSER, White
// 1997, on each replication's 100 batch means: a pilot run chooses the
// truncation, the replication is rerun with it) and Config.Precision
// (-precision: more replications until the half-width is that fraction of
// the mean, or longer ones while a warning says they are too short, within
// MaxJobs and MaxSeconds; reproducible, as decisions depend only on
// results). For example (handout sizes, K = 50, RND; lines of the summary
// left out):
//
//	$ lbsim run -load 0.95 -reps 4
//	  mean waiting time   4329.4 ± 873
//	  exact (M/G/1 per server (Pollaczek-Khinchine)): mean wait 7600.75, mean response 7605.73
//	  WARNING initial-transient: started empty, a queue at load 0.95 relaxes in about 2.9e+04 jobs (tau): the mean is biased low by about 73% (tau/n, first order), over a quarter of the ±20% half-width; use a warm-up (-warmup auto, or about 4.4e+06 jobs) or about 4.1e+08 jobs per replication
//	  WARNING exact-outside-ci: the exact mean wait is 7600.75 (M/G/1 per server (Pollaczek-Khinchine); mean response 7605.73), 3.7 half-widths from the simulated mean wait 4329.4 ± 873; mean response 4334.37: the interval is confidently wrong (too short a run for this load and size law); trust the exact value
//	$ lbsim run -load 0.95 -precision 0.05 -max-jobs 300000000
//	32000000 jobs x 4 replication(s), seed 1, 95% CI from replications
//	  mean waiting time   7063.88 ± 418
//	  WARNING initial-transient: started empty, a queue at load 0.95 relaxes in about 2.9e+04 jobs (tau): the mean is biased low by about 4.5% (tau/n, first order), over a quarter of the ±5.9% half-width; use a warm-up (-warmup auto, or about 4.4e+06 jobs) or about 3e+08 jobs per replication
//	  WARNING precision-not-met: the 95% half-width is 5.92% of the mean, above the target 5%, after 248000000 jobs (4 replications of 32000000): the next round needs 256000000 more jobs, over the budget of 300000000 (-max-jobs)
//
// # Control variates
//
// Config.ControlVariates (-control-variates) adjusts every mean by quantities
// whose means are known exactly: the mean size drawn (E[X]), the mean
// interarrival gap (1/lambda, Poisson arrivals) and the mean squared size
// (E[X^2]), per CI unit (batch, or replication), by least squares (Lavenberg
// and Welch 1981; the formulas are in stat_control.go). The interval then has
// n-1-q degrees of freedom for q controls. CIMethod names the controls used
// and why others were dropped: constant (deterministic sizes or arrivals),
// collinear (a two-point law's X^2 is a linear function of X), infinite
// variance (Pareto alpha <= 2 for X, <= 4 for X^2), or too few units (a
// control needs n-1-q >= 8: with the default 20 batch means all three are
// used, with fewer than 10 replications none). Traces and ramps are refused.
// The sample path is the same with and without the option (same seeds, same
// jobs); only the estimate and its interval change.
//
// Where it applies (Poisson arrivals, one replication of batch means, or
// 10+ replications) it is worth 1.4 to 1.8 times the run length for a few
// percent more CPU, and coverage stays at 95% (control_study_test.go). It
// does not help where it drops every control (fewer than 10 replications,
// deterministic arrivals with deterministic sizes), and it does not remove
// bias: a run too short for its load (an initial-transient warning) gets a
// narrower interval around the same biased value.
//
// # Limits
//
// Each limit is stated in its error ([MinMagnitude] and the constants beside
// it, [MaxGridConfigs], [MaxTraceJobs]; M <= 10^4 dispatchers): every scale
// parameter (sizes and the square root of E[X^2], speeds, loads, refresh and
// sampling periods, ramp durations) lies in [1e-100, 1e100], so that products
// and squares stay finite; the run's expected span (warm-up + N)/lambda is at
// most 1e250 time units; N + warm-up <= 2^53; K <= 10^7; R <= 10^4; batches
// <= 10^5 and <= N; h2 scv <= 1e12; a grid has at most 10^6 configurations
// (counted before they are listed); and a memory estimate
// (made by Validate before allocating: the state of the
// replications running at once plus every replication's histogram until they
// are combined, the combination, the trace, and a reserve for max(10^5, K)
// jobs of per-job state per running replication) of at most 2 GiB. The
// per-job state (FCFS departure queues, the indexes of JSQ, JIQ's I-queues,
// LWL and JIQ beyond 24 servers, PS and SRPT queues) is charged to one account for all replications running at once;
// an unstable run that fills it ends with "the backlog reached N jobs ...:
// the system is unstable at this load". LL-d and JSQ-d with replacement take
// d <= 64 K (beyond, every server is sampled anyway: use lwl or jsq). A trace
// holds at most 5 10^7 jobs. A Precision run stops with a warning at its
// MaxJobs and MaxSeconds budget.
//
// Every number a user writes (flags, lists, specs, -spec files, trace fields,
// LBSIM_ overrides) is read by one parser (lbsim/internal/number): plain
// decimals only (an optional leading -, digits, an optional . and exponent
// such as 2e-3); Go's 0x1p-1, 1_000 and +5, Inf and NaN, Unicode digits, and
// values beyond float64 (1e400, or 1e-400, which would be read as 0) are
// errors; whole numbers take digits only (1e6 is refused: write 1000000).
//
// # Speed
//
// Under FCFS a server is the time its work runs out, so a job's wait is
// known when it is dispatched: no event list, no O(K) update a job.
// Dispatching costs O(1) a job for RND, RR and weighted random; O(log G)
// for SITA and weighted round robin over G groups; O(d) for LL-d, JSQ-d and
// SED-d; O((d+m)^2) for JSQ(d,m) and LL(d,m); O(G) for SED over G distinct
// speeds; O(1) amortized for LWL, JSQ, JIQ and LSQ on live state under FCFS
// (a monotone radix heap; up to 24 servers LWL and JIQ scan the free
// times), and O(log K) on a board or under PS and SRPT (a heap). A PS or
// SRPT server keeps its jobs in a heap too, O(log n) an arrival and a
// departure with n jobs at it: the same system runs several times slower
// than under FCFS. Memory does not grow with the number of jobs at a stable
// load (the per-job state follows the backlog, and is bounded: see Limits).
//
// At large K the sampling policies (RND, RR, LL-d, JSQ-d) cost about the
// same as at small K; LWL, JSQ and JIQ slow down slowly, PS and SRPT most,
// for the cache misses of reading a server's state. Beyond 4,096 servers
// RND and the pairs of LL-2 and JSQ-2 are drawn a block ahead and their
// servers' state loaded first, so that those misses overlap (sim_lean.go,
// sim_ahead.go). A replication's setup is O(K): give a run at large K enough
// jobs that it is a small part. A replication runs on one core; a run's
// replications and a sweep's configurations spread over Workers cores.
//
// The speed comes from lean blocks of 256 jobs for the common case
// (measured FCFS jobs of RND, RR, SITA, LL-2, JSQ-2 and SED-2: sim_lean.go)
// with the same numbers to the last bit as the general loop, which runs the
// rest (TestLeanBlocks); a policy of your own, picking through a View, is
// the slowest (see Adding a policy). Nothing is allocated a job beyond a
// queue's growth to its peak. go test -bench . ./lbsim/ measures jobs per
// second on your machine: every policy and discipline (BenchmarkPolicies),
// against K (BenchmarkScaling), and against the leanest hand-written loop
// (BenchmarkFloor).
//
// # Code version
//
// [CodeVersion] is a hash of the source files that determine a result row:
// this package, lbsim/theory (the exact values), lbsim/internal/floats
// (how a row's numbers are written) and lbsim/internal/number (how a
// number a user writes is read), as compiled into the binary (the sources
// are embedded with //go:embed, so it cannot go stale: the go command embeds
// the same files it compiles; a test follows the package's imports to check
// the patterns), the Go toolchain, the gonum version, and an optional
// link-time tag (go build -ldflags "-X
// github.com/perfeval/lbsim/lbsim.buildTag=NAME"). nb.Cached files results
// under it, and shard files name it: after a bug fix, results of the old
// build are recomputed, and a sweep resubmitted into the old directory fails
// naming both versions.
//
// # Adding a policy or a size law
//
// A built-in policy is one file and its test: policy_NAME.go registers the
// family (mustRegister(policyRegistry, PolicyType{Name, Params, Example,
// Summary, New}), from which [ParsePolicy], -policy, lbsim run -h, sweep
// files and the explorer's menu take it) and defines its Pick and the
// methods of a built-in policy (policy.go's builtin): describe, its
// Description with the unexported facts only built-ins have (its split,
// sampling, symmetry, per-job indexes, ...); validate; start; theory, whose
// formulas name the disciplines they cover; and newDispatcher, its own
// dispatcher (or a viewDispatcher on its Pick). An inline case in
// sim_lean.go is optional speed. A
// size law is one file and its test too (size_erlang.go and
// size_erlang_test.go were added this way): mustRegister(sizeRegistry,
// Family[SizeLaw]{...}), the law's Rand, Mean, SecondMoment, Validate and a String
// that [ParseSizes] reads back (add a case to FuzzSizeRoundTrip); WithSCV
// puts it under the explorer's SCV slider and fill draws a block at a time.
// RND's exact value (Pollaczek-Khinchine) then holds for it with no other
// code.
package lbsim
