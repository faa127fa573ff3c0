package lbsim

// What a dispatcher learns, and when. A dispatcher picks on what it knows
// of the servers; it knows what reaches it by one of these paths, each
// with one home:
//
//	its sends         sim.learnSent, after the server takes the job: the
//	                  board's tally (board.sent), the counts it reads
//	                  (ownView.sent: the own view, or the live view with a
//	                  delay), its index (observer.sent: under the own view
//	                  or a board its own sends, live every send), and what
//	                  the dispatchers share (JIQ's I-queues, LSQ's estimates)
//	departures        FCFS: known at the send, kept until seen; PS and SRPT:
//	                  the server's departureWatch, when the server finds
//	                  them (its counts, late departures, completionWatcher
//	                  for a dispatcher's own jobs with their response times)
//	the delay D       a departure at d is seen at t once d <= t - D
//	                  (Config.Delay): ownView.count, leastCount's index,
//	                  EWMA's completions
//	snapshots         sim.learnBefore, before the arrival's dispatcher picks:
//	                  the boards due refreshed (board.refresh every T,
//	                  sim_board.go; dispatcherSet.refresh for M), then
//	                  refresher.refreshed
//	reports, tokens   LSQ's servers' reports (policy_lsq.go), JIQ's idle
//	                  tokens (sim_iqueues.go), counted as messages
//	live state        View.Workload and View.Count at the instant (no delay)
//
// A dispatcher says what it learns by the methods it has (observer,
// refresher, completionWatcher); enlist wires each, for one dispatcher
// or for each of M.

// enlist builds the dispatcher at hand, f (s points at its stream, board
// and index among the M), and wires what it learns beyond its picks: the counts it
// reads (ownView), its index told of sends (observer), its board's
// refreshes (refresher), its jobs' departures from preemptive servers
// (completionWatcher, through told, which the servers share: made on
// first need). Under the live view with a delay, every dispatcher reads
// the one view made first (shared).
func (s *sim) enlist(f *front, told *[]completionWatcher, shared *ownView) {
	f.disp = newDispatcher(s.policy, s)
	if w, ok := f.disp.(completionWatcher); ok && s.srv.preemptive() {
		if *told == nil {
			*told = s.srv.watchCompletions(s.cfg.dispatchers())
		}
		(*told)[s.front] = w
	}
	if f.own = newOwnView(s, f.disp); f.own != nil && f.own.i < 0 && shared != nil {
		f.own = shared // the live view with a delay: one, told of every send
	}
	f.obs, _ = f.disp.(observer)
	f.ref, _ = f.disp.(refresher)
}

// learnBefore brings what the dispatchers know up to the arrival of job n
// at t, before one picks: the boards due are refreshed, and with M
// dispatchers the arrival's is entered (drawn, or the trace's).
func (s *sim) learnBefore(t float64, n int64) {
	if s.many != nil {
		s.many.arrive(s, t, n)
		return
	}
	if s.board != nil && s.board.due(t) {
		s.board.refresh(t, s.srv, s.m)
		if s.ref != nil {
			s.ref.refreshed(s.board.r0)
		}
	}
}

// learnSent tells the dispatchers of the job of size x sent to server k at
// t (service time service): the sender's board and counts, and the indexes
// (sim_dispatchers.go: dispatcherSet.sent for M).
func (s *sim) learnSent(k int, t, x, service float64, fcfs bool) {
	if s.board != nil {
		s.board.sent(k, service)
	}
	if s.own != nil && fcfs {
		s.own.sent(k, t)
	}
	if s.many != nil {
		s.many.sent(s, k, t, x)
	} else if s.obs != nil {
		s.obs.sent(k, t, x)
	}
}
