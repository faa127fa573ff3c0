package lbsim

import "strings"

// WeightedLeastConn is nginx's least_conn with server weights (nginx,
// src/http/modules/ngx_http_upstream_least_conn_module.c,
// ngx_http_upstream_get_least_conn_peer), on the job counts the View gives:
// with -view own each dispatcher's own, which is what one nginx worker
// without a shared zone counts. A job goes to the server of least
// n_k / w_k, compared as nginx does by cross products (n_k w_b < n_b w_k);
// if several tie, nginx's smooth weighted round robin among them, from the
// first tied server on: each tied server's current weight c_k grows by w_k,
// the largest wins (the first of equal ones), and the winner's c_k drops by
// the tied servers' total weight. A job without a tie changes no c_k. All
// c_k start at 0 (ngx_http_upstream_init_round_robin). The weights are the
// speeds (wlc:weights=speed), given (wlc:weights=2/1/1), or all 1 (wlc).
type WeightedLeastConn struct{ Weights Weights }

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "wlc", Params: []string{"weights"}, Lists: []string{"weights"}, Example: "wlc:weights=speed",
		Summary: "nginx's least_conn: least jobs/weight over all K servers, ties by smooth weighted round robin among the tied (weights=speed or 2/1/1; none: equal)",
		New: func(p Params) (Policy, error) {
			w, _, err := weightsParam("wlc", p)
			return WeightedLeastConn{Weights: w}, err
		}})
}

func (p WeightedLeastConn) String() string {
	return strings.TrimSuffix("wlc:weights="+p.Weights.String(), ":weights=")
}

// describe: every count read a job; the current weights are a history; with
// equal weights it treats the servers alike and joins a shortest queue.
func (p WeightedLeastConn) describe(c *Config) Description {
	label, equal := "WLC", allEqual(p.Weights.of(c.speeds()))
	if p.Weights.given() {
		label += "-" + p.Weights.label()
	}
	return Description{Label: label, Reads: Count, D: c.Servers, Probes: c.Servers, builtinFacts: builtinFacts{
		history: true, symmetric: equal, balances: equal, stateBytes: indexBytes * int64(c.Servers)}}
}

func (p WeightedLeastConn) validate(c *Config) error { return p.Weights.validate("wlc", c.Servers) }

// start gives each replication and dispatcher its own current weights.
func (p WeightedLeastConn) start(v *View) Policy {
	w := p.Weights.of(viewSpeeds(v))
	return &nginxLeastConn{spec: p, w: w, cur: make([]float64, len(w))}
}

// Pick is only valid on the value Start returns.
func (p WeightedLeastConn) Pick(*View, float64) int { return unstarted(p) }

func (p WeightedLeastConn) newDispatcher(s *sim) dispatcher {
	d := &viewDispatcher{v: View{s: s}}
	d.p = p.start(&d.v)
	return d
}

// theory: with equal weights and equal speeds which tied server gets the
// job does not change the counts' law: JSQ's exact chain (K <= 8,
// exponential sizes, FCFS or PS).
func (p WeightedLeastConn) theory(c Config) (Reference, bool) {
	if !allEqual(p.Weights.of(c.speeds())) || !allEqual(c.speeds()) {
		return Reference{}, false
	}
	return JSQ{}.theory(c)
}

// nginxLeastConn is one dispatcher's least_conn and its current weights: a
// scan of the K counts a job (two on a tie), as nginx's loop.
type nginxLeastConn struct {
	spec   WeightedLeastConn
	w, cur []float64
	tied   []int
}

func (d *nginxLeastConn) String() string { return d.spec.String() }

func (d *nginxLeastConn) Pick(v *View, _ float64) int {
	best, many := 0, false
	nb := float64(v.Count(0))
	for k := 1; k < len(d.w); k++ {
		n := float64(v.Count(k))
		switch {
		case n*d.w[best] < nb*d.w[k]:
			best, nb, many = k, n, false
		case n*d.w[best] == nb*d.w[k]:
			many = true
		}
	}
	if !many {
		return best
	}
	d.tied = d.tied[:0]
	for k := best; k < len(d.w); k++ {
		if n := float64(v.Count(k)); n*d.w[best] == nb*d.w[k] {
			d.tied = append(d.tied, k)
		}
	}
	return swrrTied(d.tied, d.w, d.cur)
}
