package lbsim

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Ties is how a policy comparing job counts or work (jsq, sed, lwl, ll)
// chooses among servers that compare equal, spec key ties=:
//
//   - TiesRandom, "random" (the default): uniformly at random.
//   - TiesFirst, "first": the lowest-numbered, as a published simulator of
//     dispatching to SRPT servers does.
//   - TiesOldest, "oldest": HAProxy 2.6 leastconn's rule, the server that
//     changed longest ago, a change being a send to it or a departure from
//     it as the dispatcher sees it (at the departure on live state, D later
//     with a delay; under the own view its own sends and jobs, as each of
//     several HAProxy processes counts its own); never changed ones first by
//     number. src/lb_fwlc.c: fwlc_srv_reposition re-inserts a server into an
//     eb32 tree keyed by its connections at each change, after those of
//     equal key (ebtree keeps duplicates in insertion order), and
//     fwlc_get_next_server takes the first (later HAProxy spreads equal keys
//     over lists drawn at random). Under LWL and LL-d: the one idle longest.
//   - TiesRR, "rr": nginx least_conn's rule at equal weights (file
//     ngx_http_upstream_least_conn_module.c, ngx_http_upstream_get_least_conn_peer):
//     scanning from server 0, if several are least, each tied server's
//     current_weight grows by one, the largest wins (the first of equal
//     ones) and loses the number tied. Not a rotating pointer: a smooth
//     weighted round robin among the tied, counters kept from job to job;
//     round robin in index order while the tied set stays.
//
// Sampled servers are scanned by number, as the proxies scan theirs. At
// equal speeds with exponential sizes under FCFS or PS a server's future
// depends on its count alone, so a rule leaves the law of the sorted counts
// and the mean as under random ties (Theory is theirs); first still sends
// server 0 more jobs. Under SRPT, or with other sizes, tied servers hold
// different remaining work and a rule that follows the history weighs it:
// under first the server that took the last tied job, likely the one with
// more work left, takes the next (JSQ, K = 4, SRPT, H2 sizes of SCV 10,
// load 0.8: the mean +0.9%).
type Ties uint8

const (
	TiesRandom Ties = iota
	TiesFirst
	TiesOldest
	TiesRR
)

var tiesWords = []string{"random", "first", "oldest", "rr"}

func (t Ties) String() string { return tiesWords[t] }

// tiesParam reads the ties key of policy name's spec.
func tiesParam(name string, p Params) (Ties, error) {
	if i := slices.Index(tiesWords, p.Word("ties")); i >= 0 || !p.Has("ties") {
		return Ties(max(i, 0)), nil
	}
	return 0, fmt.Errorf("%s: ties=%s is invalid: use ties=%s (how servers that compare equal are chosen); e.g. %s:ties=first",
		name, spec(p, "ties"), strings.Join(tiesWords, ", "), name)
}

// spec appends the rule to a policy's spec s (none for random).
func (t Ties) spec(s string) string {
	switch {
	case t == TiesRandom:
		return s
	case strings.Contains(s, ":"):
		return s + ",ties=" + t.String()
	}
	return s + ":ties=" + t.String()
}

// describe adds the rule to a Description: its label, and that first
// treats the servers unlike, oldest and rr keep a history.
func (t Ties) describe(d *Description, k int) {
	if t != TiesRandom {
		d.Label += " (ties " + t.String() + ")"
		d.symmetric, d.history = d.symmetric && t != TiesFirst, d.history || t != TiesFirst
		d.stateBytes, d.jobIndexes = max(d.stateBytes, indexBytes*int64(k)), 0
		d.stamps = t == TiesOldest && d.Reads == Count
	}
}

// check refuses a rule where it is not built: with a memory or draws with
// replacement, and oldest, which needs each departure's time as the
// dispatcher sees it: on a board, and on live counts of several
// dispatchers or sampled at once (sim.sample pops the servers' departures),
// it has none. Under the own view, or with a delay, the dispatcher's view
// keeps them (ownView.countSeen).
func (t Ties) check(p Policy, mem int, replace bool, c *Config) error {
	name, _, _ := strings.Cut(p.String(), ":")
	switch {
	case t == TiesRandom:
	case mem > 0 || replace:
		return fmt.Errorf("%s: ties=%s is not supported with mem or replace (a memory's candidates and repeated draws keep random ties); drop ties= or use %s:d=2,ties=%s", name, t, name, t)
	case t == TiesOldest && (c.Refresh > 0 || c.View == LiveView && (c.dispatchers() > 1 || c.SampleEvery > 0 && c.Delay == 0)):
		return fmt.Errorf("%s: ties=oldest needs the time each count changed as each dispatcher sees it: the own view (-view own, a proxy counting its connections), or the live view of one dispatcher, without -sample-every unless with a delay; got view=%s, refresh=%g, %d dispatchers, sample-every=%g; use -view own for several proxies, or ties=first or ties=rr", name, c.View, c.Refresh, c.dispatchers(), c.SampleEvery)
	}
	return nil
}

// tieBreaker is Start's value and the run's policy under a rule other than
// random: the least jobs, expected delay (SED: (n+1)/mu, then the faster)
// or work among all K servers or d sampled, ties by the rule.
type tieBreaker struct {
	Policy       // the spec, for String
	d      int   // servers sampled; 0: all K
	kind   State // Count or Workload
	rule   Ties
	stamp  []float64 // oldest, on counts: when server k last changed, as seen
	weight []float64 // rr: nginx's current_weight of server k
	all    []int     // the K servers in order
	tied   []int
}

func newTieBreaker(p Policy, d int, kind State, rule Ties, k int) *tieBreaker {
	b := &tieBreaker{Policy: p, d: d, kind: kind, rule: rule, stamp: make([]float64, k), weight: make([]float64, k), all: make([]int, k)}
	for i := range b.all {
		b.all[i] = i
	}
	return b
}

// tiedDispatcher runs p's tieBreaker (its Start's value) through a View.
func tiedDispatcher(p builtin, s *sim) dispatcher {
	d := &viewDispatcher{v: View{s: s}}
	d.p = p.start(&d.v)
	return d
}

// pickTied is the Pick of a policy value with a memory or a tie rule other
// than random: only first keeps no state.
func pickTied(p builtin, rule Ties, v *View) int {
	if rule != TiesFirst {
		return unstarted(p)
	}
	return p.start(v).Pick(v, 0)
}

func (b *tieBreaker) Pick(v *View, _ float64) int {
	ks := b.all
	if b.d != 0 && b.d < len(ks) {
		ks = v.Sample(b.d, false)
		slices.Sort(ks)
	}
	b.tied = b.tied[:0]
	best, bestMu := math.Inf(1), 0.0
	for _, k := range ks {
		x, mu := b.value(v, k)
		switch {
		case x < best || x == best && mu > bestMu:
			b.tied, best, bestMu = append(b.tied[:0], k), x, mu
		case x == best && mu == bestMu:
			b.tied = append(b.tied, k)
		}
	}
	k := b.tied[0]
	switch {
	case len(b.tied) == 1 || b.rule == TiesFirst:
	case b.rule == TiesOldest:
		when := b.stamp // on work the tied are idle: changed when they went idle
		if b.kind == Workload {
			when = v.s.srv.free
		}
		for _, j := range b.tied[1:] {
			if when[j] < when[k] {
				k = j
			}
		}
	case b.rule == TiesRR:
		k = swrrTied(b.tied, nil, b.weight)
	}
	b.stamp[k] = v.t // the send
	return k
}

// swrrTied is nginx's choice among the tied servers (ngx_http_upstream_
// get_least_conn_peer): each one's current weight cur_k grows by its
// weight w_k (nil: all 1), the largest wins, the first of equal ones, and
// gives back the tied servers' total weight.
func swrrTied(tied []int, w, cur []float64) int {
	best, total := tied[0], 0.0
	for _, k := range tied {
		wk := 1.0
		if w != nil {
			wk = w[k]
		}
		cur[k] += wk
		total += wk
		if cur[k] > cur[best] {
			best = k
		}
	}
	cur[best] -= total
	return best
}

// value is server k's jobs, expected delay (with its speed, SED's second
// key) or work; under oldest, server k's departures due by now are seen
// first, one at a time, each a change at its time.
func (b *tieBreaker) value(v *View, k int) (float64, float64) {
	if b.kind == Workload {
		return v.Workload(k), 0
	}
	if o := v.s.own; o != nil && b.rule == TiesOldest { // the own view, or a delay: departures as seen
		n, last := o.countSeen(k, v.t, v.s.m, true)
		b.stamp[k] = max(b.stamp[k], last)
		if _, sed := b.Policy.(SED); sed {
			return float64(n+1) / v.Speed(k), v.Speed(k)
		}
		return float64(n), 0
	}
	for srv := v.s.srv; b.rule == TiesOldest; {
		next := srv.nextDeparture(k)
		if next > v.t {
			break
		}
		srv.count(k, next, v.s.m)
		if b.stamp[k] = next; srv.nextDeparture(k) <= next { // rounding: the View's count catches up
			break
		}
	}
	if _, sed := b.Policy.(SED); sed {
		return float64(v.Count(k)+1) / v.Speed(k), v.Speed(k)
	}
	return float64(v.Count(k)), 0
}
