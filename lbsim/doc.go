// Package lbsim simulates the dispatching of jobs among K parallel servers.
//
// Jobs arrive (Poisson, deterministic, a linear ramp of the rate, or a replayed
// trace), each is sent at once by a dispatching policy (RND, RR, LL-d, LWL,
// JSQ-d, JSQ, SITA) to one of K servers with speeds mu_k, and waits in that
// server's own infinite queue, served FCFS or by processor sharing (PS).
// Policies that read server state read it live or from a board refreshed every
// T time units (stale information).
//
// The simulator is event-free on the FCFS paths: a FCFS server is described by
// the time its workload reaches zero, so a job's waiting time is known when it
// is dispatched (Lindley's recursion without the O(K) update of the course's R
// code). Policies cost O(1) (RND, RR, SITA), O(d) (LL-d, JSQ-d) or O(log K)
// (LWL, JSQ) per job, and memory does not grow with the number of jobs.
//
// Arrival times, job sizes and dispatch decisions use three separate random
// streams derived from (seed, replication) only, so two policies run with the
// same seed see the same jobs (common random numbers), and a replication gives
// the same numbers on any machine and with any number of workers.
//
// The package imports no notebook, dataframe or plotting library; those live
// in the sub-packages frame, plots and nb.
package lbsim
