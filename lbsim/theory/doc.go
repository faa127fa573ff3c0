// Package theory holds closed-form and exact results for the dispatching
// systems that lbsim simulates, so that every simulated curve can be checked
// against an independent value.
//
// Conventions (shared with the simulator): job sizes are in work units;
// server k has speed mu_k, so a job of size X occupies it for X/mu_k time
// units; lambda is the total arrival rate; rho is a per-server load; the
// waiting time W runs from arrival to start of service and the response time
// is R = W + X/mu.
//
// Every function states its formula and the conditions under which it holds,
// and returns an error, never NaN or Inf, outside them. Error texts name the
// offending value, the allowed range and a fix.
// Exact numerical results: DispatchExact (JSQ-d/JIQ chains, small K), MDc, GIM1 and GIH2.
//
// # Which lbsim uses, and the tests that check them
//
// Exact values: one server (M/G/1, D/M/1); RND (M/G/1 per server at any
// sizes and speeds, FCFS, PS and SRPT; GI/M/1 with geometric gaps under
// deterministic arrivals); RR (E_K/M/1 per server at any speeds, E_K/H2/1
// with H2 sizes, D/M/1 under deterministic arrivals); weighted RND (M/G/1
// per server at rate lambda w_k/sum(w)); weighted RR with equal weights (it
// is RR); SITA (M/G/1, M/G/1-PS and M/G/1-SRPT per group from the law below the
// cut, any speeds; M/D/1 per group for the two-point law); LWL (Erlang C,
// M/D/K); JSQ-d, JSQ, SED-d, SED and JIQ at K <= 8 with exponential sizes
// (the exact Markov chain, any speeds, within a state budget).
//
// Package theory holds them and the limits; each function documents its
// formula and conditions and returns an error (not NaN) outside them:
//
//   - M/G/1 FCFS (Pollaczek-Khinchine), M/G/1-PS, M/D/1, M/M/1:
//     [theory.MG1] (FCFS, PS), [theory.MD1], [theory.MM1]; RND, PS servers.
//   - M/G/1-SRPT (Schrage and Miller), from the law's partial moments,
//     with a rigorous error bound (exact sums for atomic laws), also per
//     size interval: [theory.MG1SRPT]; RND and SITA on SRPT servers.
//   - RND with speeds, each server M/G/1 at rate lambda/K (or lambda p_k):
//     [theory.RandomDispatch], [theory.WeightedRandomDispatch].
//   - SITA with random splitting, per class; equal-load c; optimal c; the
//     handout's c*: [theory.SITAClasses], [theory.SITATwoPoint],
//     [theory.SITAEqualLoadC], [theory.SITAOptimalC], [theory.HandoutCStar].
//   - E_K/M/1 via the GI/M/1 root (exact) and Kingman (approximation), for
//     RR: [theory.RoundRobinExp], [theory.RoundRobinKingmanApprox].
//   - GI/M/1 for any gaps (deterministic, thinned deterministic, Erlang), for
//     deterministic arrivals: [theory.GIM1], [theory.GIM1Root],
//     [theory.DetGaps], [theory.ThinnedDetGaps], [theory.ErlangGaps].
//   - GI/H2/1 (two roots; Cohen II.5.10), E_K/H2/1, for RR with H2 sizes:
//     [theory.GIH2], [theory.RoundRobinH2].
//   - central M/M/K (Erlang C), M/D/c (Franx's roots, Crommelin's series),
//     for LWL under FCFS: [theory.ErlangC], [theory.MMK], [theory.MDc].
//   - exact small-K chains of JSQ-d, JSQ, SED-d, SED and JIQ at any speeds
//     (memoised, within a state budget), K <= 8: [theory.DispatchExact].
//   - exact small-K chain of d draws with replacement (Envoy's least
//     request, equal weights), K <= 3: [theory.DrawnExact].
//   - mean-field limits, K -> infinity: [theory.JSQdMeanField]
//     (Mitzenmacher), [theory.LLdMeanField] (Hellemans and Van Houdt).
//   - JIQ with I-queues and withdrawals, K, M -> infinity at r = K/M (Van
//     Houdt 2024): [theory.JIQWithdrawals] (Delay, DelayPS).
//   - exact finite-K JSQ-d Markov chain (symmetric states, adaptive
//     truncation): [theory.JSQdExact].
//   - JSQ(d,1) mean-field fixed point: [theory.JSQdMemoryMeanField].
//   - generic truncated CTMC stationary solver (Gauss-Seidel with level
//     aggregation), for JIQ and JSQ(d,1) at small K: [theory.Chain].
//   - H2 with balanced means: [theory.HyperExpBalanced].
//   - delay laws and their quantiles ([theory.Tail], [theory.Quantile],
//     [theory.Mixture]): M/M/K wait and response [theory.MMKTails], GI/M/1
//     [theory.GIM1Tails], M/G/1 FCFS with a mixture of exponentials by the
//     roots of the Pollaczek-Khinchine transform [theory.MG1HyperExpTails],
//     with phase-type (Erlang) service by its matrix-exponential form
//     [theory.MPH1Tails], [theory.ErlangPhases].
//
// The tests (theory_test.go, handout_test.go) compare long simulations with
// these values, with a tolerance taken from the run's own interval: RND
// against Pollaczek-Khinchine (exponential, H2, deterministic and the
// handout's sizes, unequal speeds), SITA per class against M/D/1 and, with a
// size cut-off, against M/G/1 with conditional moments, RR against E_K/M/1
// (also at unequal speeds) and E_K/H2/1, deterministic arrivals against D/M/1
// and GI/M/1, LWL against Erlang C and M/D/K, small-K JSQ-d, JSQ and JIQ
// against their chains, PS against E[X]/(1-rho), JSQ and JSQ-d against the
// exact chain, JSQ-2 and LL-2 at K = 1000 against their limits, JIQ (K = 2)
// and JSQ(1,1), JSQ(2,1) (K = 3) against exactly solved chains, JSQ(d,1) at
// K = 1000 against its fixed point and JIQ at K = 1000 against E[X], a frozen
// stale board against RND, waiting-time quantiles against M/M/1, the
// handout's quantity against its M/M/1 closed form, and the handout's
// printed table.
package theory
