// Package lbsim simulates the dispatching of jobs among K parallel servers.
//
// Jobs arrive (Poisson, deterministic, a linear ramp of the rate, or a
// replayed [Trace]), each is sent at once by a dispatching [Policy] to one of
// K servers of speeds mu_k, and waits in that server's own infinite queue,
// served FCFS, by processor sharing (PS) or shortest remaining processing
// time first (SRPT, preemptive; ties in arrival order). The built-in policies are
// registered by their spec word: rnd and rr (with weights), ll (LL-d, and
// LWL as lwl), jsq (JSQ-d and JSQ), sed (shortest expected delay), jiq
// (join the idle queue), lsq (local shortest queue), ewma (peak-EWMA P2C),
// sita, lr (Envoy's least request) and wlc (nginx's weighted least_conn);
// or a policy of your own. Policies that read server state read it live or from a
// board refreshed every T time units (stale information), with one or
// several dispatchers.
//
// # The pipeline
//
// A [Config] is one system and how to measure it; its settings are the rows
// of one table ([Fields]: the flags, sweep-file keys, [Config.Key] and
// [Row]'s columns come from it). [Run] validates a Config
// ([Config.Validate]: each setting's own check, the limits of memory and
// arithmetic, then what the policy and the servers' loads need) and runs its
// replications in parallel ([RunEach]). A replication (sim.go) draws
// arrivals, sizes and dispatch decisions from separate random streams
// (rng.go), lets the policy pick a server (its own dispatcher, policy_*.go
// with the indexes index_*.go, or its Pick through a [View]) and joins the
// job there (sim_servers.go). Under FCFS a server is the time its work runs
// out, so a job's wait is known when it is dispatched (Lindley's
// recursion); the common case runs in lean blocks (sim_lean.go) with the
// same numbers to the last bit. Under PS and SRPT each server keeps its jobs
// in a heap (sim_preemptive.go), and the arrivals go on, unmeasured, until
// the last measured job has left: later arrivals slow it down (sim.go's
// hasTail). Boards are sim_board.go, several
// dispatchers sim_dispatchers.go, the bound on a growing backlog
// sim_backlog.go. Each job is recorded in fixed memory (stat_metrics.go);
// the replications are combined into a [Result] (result.go) with what
// theory knows ([Theory], exact.go), the messages the dispatchers'
// knowledge costs (result_messages.go) and the warnings that apply
// (result_rules.go); [NewRow] flattens it for tables, CSV, JSON and
// dataframes. A [Grid] (run_sweep.go) is a sweep; run_sweep_spec.go reads
// its text forms, run_precision.go runs to a precision target.
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
// and with any number of workers. [Config.Key] names a configuration for a
// cache (a policy of your own by what it does: a fingerprint of its fields
// and of its choices in short probe runs), and [CodeVersion] the code that
// computed a result.
//
// # Around the core
//
// The package imports no notebook, dataframe or plotting library: theory,
// compare, frame, plots, nb, shard, the studies and the commands are its
// sub-packages, each with its own doc.
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
//   - sed, sed:d=D: [SED], shortest expected delay (n_k+1)/mu_k; these
//     and ll, lwl and jsq take ties=first|oldest|rr: [Ties], the tie rules
//     of published simulators, HAProxy's leastconn and nginx's least_conn;
//   - jiq, jiq:d=D,withdraw=1: [JIQ], join the idle queue, with I-queues
//     for several dispatchers (Lu et al. 2011);
//   - lsq:p=P, lsq:d=D: [LSQ], local shortest queue on each dispatcher's
//     own estimates (Vargaftik, Keslassy and Orda 2020);
//   - ewma:decay=TAU, ewma:d=D,decay=TAU,start=S: [EWMA], peak-EWMA power
//     of d choices (Finagle, Linkerd) on each dispatcher's own responses;
//   - sita:c=C, sita:cut=X,c=C, sita:cuts=X1/X2,servers=C1/C2/C3,
//     sita:groups=G: [SITA], size intervals, SITA-E with equal-load cutoffs.
//   - lr, lr:d=D, lr:weights=speed,bias=B: [LeastRequest], Envoy's least
//     request (equal weights: jsq:d=D,replace=1; unequal: Envoy's EDF
//     schedule on w_k/(n_k+1)^B); wlc, wlc:weights=speed: [WeightedLeastConn],
//     nginx's least_conn, least n_k/w_k, ties by smooth weighted round
//     robin; both on a proxy's own counts with -view own (Config.View).
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
// Size specs ([ParseSizes]; lbsim run -h lists them): exponential, det,
// Erlang, two-point (the course handout's law), H2 with balanced means,
// Pareto (bounded or not), modal and empirical laws, and file:PATH
// ([SizesFromFile]): the sizes of a request log, resampled uniformly, known
// in keys by the SHA-256 of its content. Every law's String is a spec that
// reads back as the same law (FuzzSizeRoundTrip). Arrivals are Poisson,
// deterministic or a linear ramp of the load; a [Trace] replays recorded
// arrival times and sizes, at its own load or scaled to Config.Load (the
// column trace_scale). A trace or size file of 1 MiB or more is parsed once
// per machine (parse_cache.go). The replications of a trace replay its jobs,
// differing only in the dispatcher's draws: the interval is from batch means
// over the trace, the replays summed batch by batch, not from the replays'
// spread, which says nothing of the workload's.
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
//   - With Delay = D (-delay D) a dispatcher learns of a departure D after
//     it happens, in the own view's counts and in live ones alike (a proxy
//     sees a response late); D = 0 is the counts of old, to the bit, and
//     the cost grows with D (JSQ on departures never seen is round robin).
//     sim_learn.go lists what a dispatcher learns, and by which path.
//   - On a stale board private tallies bring herding back.
//   - JIQ with several dispatchers and live state keeps Lu et al.'s
//     I-queues (sim_iqueues.go): an idle server's token goes to one
//     dispatcher's I-queue (the shortest of d with jiq:d=D); with
//     jiq:withdraw=1 a server that gets a job withdraws it, and theory has
//     the mean-field limit K, M -> infinity ([theory.JIQWithdrawals]).
//     With one dispatcher, or on a board, there are no I-queues, and d and
//     withdraw are refused, as are dispatcher weights with one dispatcher.
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
// so students can check their numbers (handout_test.go reproduces the
// handout's printed table with it).
//
// The slowdown of a job is its response time over its own service time
// x/mu on the server it went to, the measure of size-based dispatching
// (SITA-E, SRPT): [Result].Slowdown, column mean_slowdown, the metric
// mean_slowdown, with its exact value where theory knows it
// ([Reference].Slowdown). Under FCFS sizes with E[1/X] = inf (exponential,
// H2) make the mean slowdown infinite: it is then reported without an
// interval.
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
//     server less work; no warm-up helps.
//   - infinite-second-moment ([RuleInfiniteSecondMoment]): E[X²] = ∞
//     (Pareto α <= 2): under FCFS the mean wait is infinite and a simulated
//     one only grows with the run; under PS and SRPT the mean response
//     exists, but the response time has infinite variance, so its interval is
//     not valid. Fix: read the percentiles, or use PS or SRPT and compare
//     runs of 10x the length.
//   - infinite-third-moment ([RuleInfiniteThirdMoment]): E[X³] = ∞ (Pareto
//     α <= 3), FCFS: the wait has infinite variance, so the interval is too
//     narrow and the mean converges slower than 1/sqrt(N). Fix: compare runs
//     of 10x the length, or use PS or SRPT.
//   - tail-undersampled ([RuleTailUndersampled]): the sizes drawn have E[X²]
//     below half or above twice the law's: the run has not seen the tail that
//     sets the mean. Fix: run at least 10x more jobs and compare.
//   - initial-transient ([RuleInitialTransient]): the run started empty and
//     is biased low by more than a quarter of its interval's half-width. Fix:
//     use -warmup auto (WarmupAuto: true) or the jobs the message names.
//   - cut-short ([RuleCutShort]): under PS or SRPT, measured jobs were still
//     present after the run went on for four times as many unmeasured
//     arrivals as it simulated: they were served with no further arrivals, so
//     their responses are too short, by up to more than a quarter of the
//     half-width of the mean. Fix: run more jobs (the tail grows with the
//     run), or lower the load.
//   - correlated-batches ([RuleCorrelatedBatches]): one replication whose
//     batch means are not independent: the interval is too narrow. Fix: use
//     replications (-reps 5) or longer runs.
//   - drift ([RuleDrift]): the two halves of the run differ beyond chance and
//     by more than the half-width: not in steady state. Fix: use -warmup auto
//     or longer runs.
//   - exact-outside-ci ([RuleExactOutsideCI]): the exact mean is more than 2
//     half-widths from the simulated one (a correct run: probability about
//     6e-5), or an exact percentile so far from its interval that a correct
//     run would be there with probability below 1e-5: the interval is
//     confidently wrong. Fix: trust the exact value; run longer.
//   - below-lower-bound ([RuleBelowLowerBound]): the mean is more than 2
//     half-widths below a lower bound theory gives (LowerBound): the interval
//     is confidently wrong. Fix: run longer.
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
// Which of them a longer run cures (what -precision does) is in the rules
// table (result_rules.go). Their thresholds and references are documented
// beside their constants;
// those of initial-transient and correlated-batches come from a coverage
// study kept as a test (coverage_test.go): over 52 families with exact
// values, the unwarned 95% intervals of every family hold the exact value
// at least 90% of the time.
//
// [Exact] is only ever the exact steady-state mean of the configured system
// (exact-outside-ci checks it); [Limit] holds what theory knows short of
// that, a K -> infinity limit or a lower bound, which figures label as such.
// Both come from one lookup, [Theory]. No value is given on a board, and
// none under a discipline a formula does not name.
//
// Two remedies are built in: Config.WarmupAuto (-warmup auto: MSER, White
// 1997, on each replication's batch means) and Config.Precision
// (-precision: more or longer replications until the half-width is that
// fraction of the mean, within MaxJobs and MaxSeconds).
//
// # Control variates
//
// Config.ControlVariates (-control-variates) adjusts every mean by
// quantities whose means are known exactly (the mean size drawn, the mean
// interarrival gap, the mean squared size), per CI unit, by least squares
// (Lavenberg and Welch 1981; stat_control.go); CIMethod names the controls
// used and why others were dropped. Where it applies (Poisson arrivals, one
// replication of batch means, or 10+ replications) it is worth 1.4 to 1.8
// times the run length (control_study_test.go); it does not remove bias.
//
// # Limits
//
// Each limit is stated in its error ([MinMagnitude] and the constants beside
// it, [MaxGridConfigs], [MaxTraceJobs], [MaxMemory]): scale parameters lie
// in [1e-100, 1e100], K <= 10^7, R <= 10^4, M <= 10^4, and a memory
// estimate made by Validate before allocating (the replications running at
// once, their results, and a reserve for the per-job state of a backlog) is
// at most MaxMemory. An unstable run that fills the per-job state ends with
// "the backlog reached N jobs ...: the system is unstable at this load".
// Every number a user writes is read by one parser (lbsim/internal/number):
// plain decimals, no hex, '_', '+', Inf or NaN, nothing beyond float64.
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
// [CodeVersion] hashes the sources that determine a result row (this
// package, lbsim/theory, lbsim/internal/floats and lbsim/internal/number,
// embedded as compiled), the toolchain, the gonum version and an optional
// link-time tag (-ldflags "-X github.com/perfeval/lbsim/lbsim.buildTag=NAME"):
// nb's cache and shard files name it, so a fix never serves the numbers of
// the code it fixed.
//
// # Adding a policy or a size law
//
// A built-in policy is one file and its test: policy_NAME.go registers the
// family (mustRegister(policyRegistry, PolicyType{...}): the spec, -policy,
// help texts and menus come from it) and defines Pick and the methods of
// policy.go's builtin: describe (its Description, with the facts only
// built-ins give), validate, start, theory (whose formulas name the
// disciplines they cover) and newDispatcher. An inline case in sim_lean.go
// is optional speed. A size law is one file and its test too:
// mustRegister(sizeRegistry, ...), Rand, Mean, SecondMoment, Validate and a
// String that [ParseSizes] reads back (add it to FuzzSizeRoundTrip); RND's
// exact value then holds for it with no other code.
package lbsim
