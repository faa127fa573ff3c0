package lbsim

import "math"

// Messages per job (Result.MessagesPerJob) is the cost of what the
// dispatchers know, beside the mean wait it buys, counted as Lu, Xie,
// Kliot, Geller, Larus and Greenberg, "Join-Idle-Queue: a novel load
// balancing algorithm for dynamically scalable web services", Performance
// Evaluation 68(11), 2011, count it (power-of-d against JIQ), and van der
// Boor, Borst and van Leeuwaarden, "Hyper-scalable JSQ with sparse
// feedback", 2019, per job: a probe and its reply are two messages, an idle
// server's report one. Per measured job:
//
//   - live state, a policy probing d servers a job (JSQ-d, LL-d, SED-d;
//     d = K for JSQ, LWL and SED; d + m with a memory of m servers): 2d;
//   - JIQ, live, one dispatcher: one idle token per server that becomes
//     idle, counted as the jobs that find their server idle: at most 1;
//   - JIQ, live, several dispatchers (I-queues, sim_iqueues.go): one per
//     token a newly idle server sends (2d + 1 for JIQ-SQ(d): d queries, d
//     replies, the token) and one per token withdrawn;
//   - LSQ: each departure is reported with probability p: p a job; with
//     d probes a job (lsq:d=D), 2d more;
//   - a board: every server to every dispatcher at each refresh, K M per
//     refresh instant (K per staggered refresh): K M / (lambda T) a job;
//   - RND, RR, SITA, the weighted splits and the own view: 0.

// messages is the number of messages the run has counted so far: K per
// board snapshot, and the servers' own reports (s.reports: idle tokens,
// LSQ's updates). (Probes are not counted: 2d a job.)
func (s *sim) messages() float64 {
	var snaps int64
	if s.many != nil {
		snaps = s.many.refreshes()
	} else if s.board != nil {
		snaps = s.board.refreshes
	}
	return float64(snaps)*float64(s.k) + float64(s.reports)
}

// messagesPerJob is Result.MessagesPerJob over the replications' measured
// jobs.
func messagesPerJob(cfg *Config, reps []replication) float64 {
	var msgs, jobs float64
	for _, r := range reps {
		msgs += r.messages
		jobs += r.m.sum(0, r.m.batches, -1, jobsIn) // whole numbers: exact in any order
	}
	perJob := 0.0
	if cfg.Refresh == 0 && cfg.View == LiveView {
		if perJob = 2 * float64(describe(cfg.Policy, cfg).Probes); perJob < 0 {
			return math.NaN() // a policy of one's own that does not say how many servers it asks
		}
	}
	if jobs == 0 {
		return perJob
	}
	return perJob + msgs/jobs
}
