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
//     Under PS and SRPT (sim_preemptive.go) each server keeps its jobs in a heap
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
// explorer's menus come from, registry.go), its Pick, and the optional
// methods that tell the rest of lbsim what it knows, each a named interface
// in policy.go (its theory, its row's d and c, how it splits the jobs, its
// size classes), and for built-ins an unexported dispatcher and lean fast
// path. A policy of your own is a type with String and Pick (see
// ExamplePolicy and [Policy]); with a Theory method it gets the exact
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
// explorer's menu read; lbsim run -h lists them from the registry
// ([Field.Choices] of the policy setting), with an example each.
//
//   - rnd: a server uniformly at random. rnd:weights=speed picks a server
//     with probability proportional to its speed; rnd:weights=2/1/1 or
//     rnd:weights=5@2/5@1 to the given weights.
//   - rr: round robin, job n to server n mod K. rr:weights=speed is smooth
//     weighted round robin (nginx's) in proportion to speed, or to given
//     weights.
//   - ll:d=D: least workload among D sampled servers; lwl: least work left
//     among all K (a central M/G/K queue under FCFS).
//   - jsq:d=D: fewest jobs among D sampled servers; jsq: among all K.
//   - ll and jsq take ,replace=1 to sample with replacement and ,mem=M for
//     JSQ(d,m) and LL(d,m), load balancing with memory (Mitzenmacher,
//     Prabhakar and Shah 2002): each job samples D servers and also considers
//     the M remembered from the previous job, joins the least loaded of them
//     (ties uniformly), and the dispatcher remembers the M least loaded of
//     them after the job joined; labels JSQ(2,1), LL(2,1).
//   - sed: shortest expected delay, least (n_k+1)/mu_k among all K servers,
//     ties to the faster; sed:d=D among D sampled.
//   - jiq: join the idle queue (Lu et al. 2011): an idle server drawn
//     uniformly if there is one, else any server uniformly. With several
//     dispatchers it uses I-queues, jiq:d=D and jiq:withdraw=1 (Several
//     dispatchers, below).
//   - lsq:p=P: local shortest queue (Vargaftik, Keslassy and Orda 2020):
//     each dispatcher sends to the server it estimates shortest, from its
//     own sends and from the servers' reports (a departure reports its
//     server's count, with probability P, to one dispatcher drawn uniformly:
//     P messages a job). lsq (P = 1) with one dispatcher is JSQ; lsq:p=0
//     deals each dispatcher's jobs in rounds of K. lsq:d=D samples as in
//     their paper: at each arrival its dispatcher asks D servers drawn at
//     random for their counts and sets its estimates of them (2D messages a
//     job; no reports unless lsq:d=D,p=P); lsq:d=K is JSQ at any M. Live
//     state only (a board every T is jsq with a refresh period and Tally).
//   - sita:c=C: size interval task assignment, short jobs to servers 1..C,
//     long ones to C+1..K; sita:cut=X,c=C makes long mean size > X.
//     sita:cuts=X1/X2,servers=C1/C2/C3 has several groups of servers, in
//     order, group g taking the sizes in (X_{g-1}, X_g]; sita:groups=G has
//     G groups as equal as possible and computes the cutoffs at which every
//     server carries the same load from the law's partial moments (SITA-E
//     when G = K); a law with an atom where a cutoff should be (two-point,
//     det, empirical) gets an error suggesting cutoffs. Results, exact
//     values and the row's columns name two groups short and long, more
//     group 1..group G; the row's c is the first group's servers.
//
// A policy of your own is a type with String and Pick (see [Policy] for the
// optional methods and ExamplePolicy); [RegisterPolicy] makes it a spec.
// Its value is the spec every replication and dispatcher starts from: each
// replication runs on its own copy, and a run whose Pick changes that copy
// (a counter in a pointer receiver, a map it fills, a random source of its
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
//     messages, and JSQ and SED read those counts, under FCFS, PS or SRPT
//     (under PS and SRPT a job carries its dispatcher, whose count drops at
//     its departure).
//     With M = 1 it is live JSQ to the bit; JSQ at K = 20, load 0.9
//     waits 0.45 live, 1.50 on own counts with 4 dispatchers, 3.29 with
//     16, 5.35 with 64 (random: 9).
//   - On a stale board private tallies bring herding back: JSQ at K = 100,
//     load 0.9, T = 10 waits 2.06 with one tallying dispatcher, 7.1 with 4,
//     17.1 with 16, 24 with 64 and 22 without tallies.
//   - JIQ with several dispatchers and live state is Lu et al.'s, with
//     I-queues: a server whose work runs out sends a token to the I-queue of
//     one dispatcher, drawn at random, or the shortest of d <= M distinct ones drawn, with
//     jiq:d=2 (JIQ-SQ(d)); a dispatcher sends a job to the first server of
//     its I-queue, or at random when it is empty. The token stays until its
//     dispatcher uses it (the server may be busy by then), or with
//     jiq:withdraw=1 a server that gets a job withdraws it. With withdrawals
//     the theory value is the mean-field limit K, M -> infinity at r = K/M
//     (Van Houdt 2024, [theory.JIQWithdrawals]): the M/G/1 queue at load
//     rho q0, q0 the share of jobs that find their I-queue empty (FCFS; under
//     PS the M/G/1-PS queue at that load). At K = 1000, M = 100, load 0.9 it
//     gives a wait of 0.7654 and the simulation 0.770 ± 0.021 (JIQ-SQ(2):
//     0.4362 and 0.446 ± 0.012), against JSQ-2's 1.62 at 4 messages a job;
//     with M = 10 JIQ waits 17 to 22 times less than JSQ-2.
//   - LSQ keeps each dispatcher's own estimates of the servers' job counts.
//     With every departure reported, at K = 20, load 0.9, it waits 0.47 with
//     one dispatcher (JSQ), 0.70 with 2, 1.00 with 4 and 1.90 with 16, each
//     hearing 1/M of the reports. Sampling keeps the estimates near the truth
//     at any M: at K = 100, load 0.9, lsq:d=1 waits 1.71 (M = 1) and 1.69
//     (M = 10) at 2 messages a job, lsq:d=2 0.92 and 1.10 at 4, against
//     JSQ-2's 1.63 at 4. Reports alone do worse with few messages (lsq:p=0.1:
//     61 and 34, above lsq:p=0's 4.3 and 5.0): an idle server's estimate
//     keeps its unreported departures.
//
// # Messages per job
//
// Every result has MessagesPerJob, what the dispatchers' knowledge costs (the
// counts of Lu et al. 2011): live, 2d per job for a policy probing d servers
// (d probes, d replies; 2K for JSQ and LWL, 2(d+m) with a memory of m); for
// JIQ with one dispatcher one idle server's report per job that finds its
// server idle (at most 1), with I-queues one per token (2d + 1 for
// JIQ-SQ(d): d queries, d replies, the token) and one per withdrawal; for LSQ
// 2d for its probes plus p, the departures reported; on a board K messages
// per refresh per dispatcher, K M / (lambda T) a job; 0 for RND, RR and SITA.
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
// unstable, naming the servers and the highest stable load (unless
// AllowOverload): a server that RND, RR or SITA overloads (SITA's group loads
// come from the law's moments below the cut), and the d-sampling bound for
// LL-d, JSQ-d and SED-d on unequal speeds: the m slowest servers receive at
// least C(m,d)/C(K,d) of the jobs (all d samples among them), so their
// capacity must exceed that work for every m. [Config.StabilityLimit] gives
// that highest load for any configuration: 1 (the capacity) for the policies
// that read every server or weigh by speed.
//
// After running, every result carries the warnings that apply to it
// ([Result].Warnings, [Row].Warnings, the JSON's warnings, printed by lbsim
// run); a benign run (exponential sizes, moderate load, enough jobs) carries
// none. Each [Warning] names its rule ([Rules] lists them) and says, with the
// numbers of the run, what to do. "The metric" is the mean wait under FCFS
// and the mean response under PS and SRPT. The rules:
//
//   - unstable ([RuleUnstable]): the load, or a server's load as the
//     configuration fixes it (the model of the servers' loads: the split of
//     RND, RR, SITA and their weighted variants, with speeds), reached 1:
//     allowed by AllowOverload, a trace's own offered load, or a ramp past
//     the stability limit during the run; or, where the configuration does
//     not fix the servers' loads (a trace, a policy of your own, JIQ, JSQ,
//     LL-d or LSQ on unequal speeds), a server's measured utilisation (work
//     sent per unit time over its speed) reached 1. (Under a built-in split
//     of generated arrivals the model is exact and Validate refuses an
//     overloaded server; a measured 1 there is the noise of a short run.)
//     The queues grow without bound: the means depend on N and no warm-up
//     helps, so the other warnings then give no warm-up advice.
//   - infinite-second-moment ([RuleInfiniteVariance]): E[X^2] = inf (Pareto
//     alpha <= 2). FCFS: the mean wait is infinite (Pollaczek-Khinchine), a
//     simulated mean only grows with N; the percentiles still mean
//     something. PS: the mean response E[X]/(1-rho) exists, but the response
//     time has infinite variance, so its interval is not valid. SRPT: the
//     mean response exists (at most PS's), and the response, at least the
//     job's service, has infinite variance: as under PS.
//   - infinite-third-moment ([RuleInfiniteThirdMoment]): E[X^3] = inf
//     (Pareto alpha <= 3) under FCFS: E[W^2] is infinite (Takacs), so the
//     normal interval is too narrow and the mean converges slower than
//     1/sqrt(N). Compare runs of 10x the length, or use PS or SRPT (their
//     response time's tail is the size's: a finite variance).
//   - tail-undersampled ([RuleSampleMoment]): the sizes drawn have a sample
//     E[X^2] below half (or above twice) the law's: the mean wait,
//     proportional to E[X^2], is set by a tail the run has not seen. Run at
//     least 10x more jobs and compare.
//   - initial-transient ([RuleInitialTransient]): the bias of a run started
//     empty, about tau/n, exceeds a quarter of the relative half-width, where
//     tau = rho^2 (c_a^2+c_s^2)/(2(1-rho)^2) jobs is a queue's relaxation
//     time (Whitt 1989) and n its jobs per replication. The interval sits
//     around a value biased low; the message gives the warm-up or the jobs
//     needed.
//   - correlated-batches ([RuleCorrelatedBatches]): one replication whose
//     batches are shorter than 12 relaxation times, or whose batch means
//     have lag-1 autocorrelation above max(0.3, 2.5/sqrt(B-1)): the batches
//     are not independent and the interval is too narrow (Law and Kelton
//     9.5.3). Use replications (-reps 5) or longer runs.
//   - drift ([RuleDrift]): the first and second half of the run differ beyond
//     chance (a t test at the 0.1% level) and by more than the half-width:
//     not in steady state. Use -warmup auto or longer runs.
//   - few-refreshes ([RuleFewRefreshes]): the board was refreshed fewer than
//     10 times in a replication: the policy saw mostly the empty board of the
//     start, so the result is not that of refresh period T. Run more jobs.
//   - ramp-not-reached ([RuleRampShort]): the run ends before a ramp reaches
//     its final load, so the result is not at the load it is reported at.
//   - exact-outside-ci ([RuleExactOutside]): the exact value is more than 2
//     half-widths from the mean (a correct run does this with probability
//     about 6e-5): the interval is confidently wrong; trust the exact value.
//   - below-lower-bound ([RuleBelowBound]): the mean is more than 2
//     half-widths below a lower bound a policy's theory gives: the interval
//     is confidently wrong.
//   - precision-not-met ([RulePrecision]): a Precision target was not
//     reached within the budget, or cannot be (the interval is not valid:
//     unstable, infinite moments); the message says how far it got.
//
// The rules' thresholds, references and the run-length analysis behind
// initial-transient and correlated-batches are documented beside their
// constants. The thresholds of those two come from a coverage study kept as
// a test (coverage_test.go, 200 seeds per family): over 52 families with
// exact values (RND and RR with H2 sizes of SCV 10 to 50 at loads 0.9 to
// 0.98, R = 1 and R = 5, PS with Pareto sizes, SITA, LWL, and families held
// out of the choice: chains, size cuts, unequal speeds), the unwarned 95%
// intervals of every family hold the exact value at least 90% of the time
// (pooled over the hard families: 82% before these rules). Where a hard
// family is warned on every run, the warning says what would make it
// trustworthy.
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
// Measured (control_study_test.go, LBSIM_CV_SEEDS=100: 100 seeds, one
// replication of 20 batch means; CPU seconds of the run's thread, not wall
// time; h^2 t is the work-normalised variance, its ratio below 1 a gain):
//
//	family (exact value)                                   jobs  half-width plain/CV  CPU s plain/CV  coverage plain/CV  h^2 t ratio
//	RND K=10, handout's two-point sizes, load 0.7 (M/G/1)  2e6   77.1 / 55.8          0.062 / 0.070   0.96 / 0.94        0.59
//	RND K=10, H2 SCV 10, load 0.9 (M/G/1)                  1e6   4.57 / 3.63          0.040 / 0.044   0.93 / 0.92        0.69
//	LWL K=4, exponential, load 0.9 (M/M/4)                 1e6   0.097 / 0.075        0.111 / 0.114   0.92 / 0.91        0.61
//	RR K=4, exponential, load 0.9 (E_4/M/1)                1e6   0.229 / 0.160        0.031 / 0.034   0.94 / 0.96        0.55
//
// So where it applies (Poisson arrivals, one replication of batch means, or
// 10+ replications) it is worth 1.4 to 1.8 times the run length for 3-13%
// more CPU, and coverage stays at 95%. It does not help where it drops every
// control (fewer than 10 replications, deterministic arrivals with
// deterministic sizes), and it does not remove bias: a run too short for its
// load (an initial-transient warning) gets a narrower interval around the
// same biased value.
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
// A FCFS server is fully described by the time its workload reaches zero, so
// a job's waiting time is known when it is dispatched: no event list and no
// O(K) update per job (the R code's cost). RND, RR and SITA cost O(1) a job,
// LL-d and JSQ-d O(d), JSQ(d,m) and LL(d,m) O((d+m)^2), LWL, JIQ and JSQ O(1)
// amortized live under FCFS (a radix heap: an entry moves down at most 64
// times, 16 beyond 4096 servers, where its buckets are 4-bit digits; LWL
// and JIQ on K <= 24 servers scan the K free times instead, 1.2-2
// times as fast there: BenchmarkJIQLWLSmallK, K = 2: JIQ 9-11 M -> 15-19 M
// jobs/s, busy machine) and O(log K) under PS and SRPT or on a board (a PS or SRPT server
// costs O(log n) an arrival and a departure, n its jobs); memory does not grow with N
// (for a stable load: the per-job state grows with the backlog, and is
// bounded, see Limits). go test -bench . ./lbsim/ reports jobs per second for
// every policy and discipline.
//
// Measured with go test -bench . -count 3 -cpu 1 ./lbsim/ (medians, one core
// of this project's 2-core machine when it was otherwise idle; K = 50,
// rho = 0.5, handout sizes, every metric on). BenchmarkMinimalLoop is the
// yardstick: bare hand-written RND, RR and LL-2 loops, PCG called directly,
// lazy free times, summing the waits only; BenchmarkFloor runs each policy
// and its loop side by side in one process and reports the ratio of their
// processor times, which holds better than two separate runs on a shared
// machine. BenchmarkScaling gives jobs per
// second against K = 100 .. 100,000, exponential sizes, load 0.9:
//
//	policy             FCFS jobs/s  PS jobs/s  yardstick  K=100  K=100,000
//	RR                 59 M         17 M       120 M      57 M   53 M
//	RND                53 M         15 M       104 M      51 M   41 M
//	SITA               52 M         16 M
//	LL-2               37 M         14 M       43 M       36 M   30 M
//	JSQ-2              23 M         12 M                  22 M   15 M
//	JIQ                13 M         9 M
//	LWL                13 M         9 M                   12 M   7.7 M
//	JSQ                12 M         7 M                   11 M   6.5 M
//	JSQ(2,1), LL(2,1)  10 M         7-8 M
//
// On a stale board (K = 100, H2 sizes of SCV 10, load 0.9,
// BenchmarkStaleBoard): JSQ-2 25 M jobs/s, JSQ 19 M. The handout's whole
// experiment (10 loads x RND, RR, LL-2 x 2e6 jobs, about 62 minutes in the
// course's R code) takes 1.3 s on one core (BenchmarkHandoutExperiment).
//
// The disciplines at scale (BenchmarkDisciplines: RND and LL-2, H2 sizes of
// SCV 10, load 0.9, 2^21 jobs, one core of the idle machine, three runs),
// jobs/s for RND / LL-2:
//
//	K          FCFS           PS                 SRPT
//	100        51 M / 38 M    9.2-10 M / 8-10 M  12-12.6 M / 9-11 M
//	100,000    33 M / 29 M    3.5-4.4 M / 3.6-4 M  4.1-4.7 M / 3.3-4.1 M
//
// At K = 100,000 a PS or SRPT arrival reads its server's heap, a cache
// miss away, where FCFS reads one free time: RND and the pairs of LL-2 and
// JSQ-2 name the servers of the next block from a copy of their stream, so
// that those misses overlap (sim_ahead.go). Nothing is allocated a job
// beyond a queue's growth to its peak.
//
// Where the time goes. The common case, measured FCFS jobs of RND, RR, SITA,
// LL-2, JSQ-2 or SED-2 (live or on a board), runs in lean blocks (sim_lean.go): one
// loop for 256 jobs, which draws each job's Poisson arrival gap (and RND's
// and SITA's server) as it goes, with the generators in local variables, so
// that the random draws (multiplications) overlap the queueing and the
// bookkeeping (loads and stores). Sizes, and the pairs of LL-2, JSQ-2 and
// SED-2, are drawn a block at a time. Everything else (the warm-up, PS, SRPT, traces,
// sampling, the index policies, your own policies) runs in the general loop,
// with the same numbers to the last bit (TestLeanBlocks). A job records
// seven things (batch and class sums, the handout's quantity, the waiting-
// and response-time histograms, the server's work, the sizes' second
// moment); the yardstick records one sum, which is most of the remaining
// factor (BenchmarkFloor, quiet machine: RND 1.8, RR 1.9, LL-2 1.0), close
// to the ratio of their instructions a job (callgrind, 2^20 jobs: RND 306
// against 178, RR 262 against 150): the lean loop has about twenty live
// values, and Go's register allocator keeps a third of them on the stack,
// where the yardstick's five stay in registers. Of the records, the
// waiting-time histogram costs most (about an eighth of a job, measured by
// leaving it out): its counter's address is known late, after the wait.
// At large K the cost is cache misses on the servers' state: the free times are one dense array (8 bytes a server), a server's
// departure FIFO is one cache line (short queues inline), and beyond 4,096
// servers the servers drawn for a block of 256 jobs are drawn, and their
// state loaded, before the block runs, so that the misses overlap. JSQ, LWL
// and JIQ keep their index of the servers in a monotone radix heap
// (departure or free times only grow): a push appends to a bucket, a pop
// moves one bucket's entries down, where a heap misses the cache at every
// level.
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
// files and the explorer's menu take it) and defines its Pick and whichever
// optional methods of [Policy] it has something to say in; a fast dispatcher
// (newDispatcher) and an inline case in sim_lean.go are optional speed. A
// size law is one file and its test too (size_erlang.go and
// size_erlang_test.go were added this way): mustRegister(sizeRegistry,
// Family[SizeLaw]{...}), the law's Rand, Mean, SecondMoment, Validate and a String
// that [ParseSizes] reads back (add a case to FuzzSizeRoundTrip); WithSCV
// puts it under the explorer's SCV slider and fill draws a block at a time.
// RND's exact value (Pollaczek-Khinchine) then holds for it with no other
// code.
package lbsim
