package lbsim

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Validate refuses a load that some server cannot carry, wherever the
// configuration alone proves it (unless AllowOverload); the unstable warning
// (result_diagnose.go) catches the rest after the run.
//
// The model of the servers' loads, one for Validate, StabilityLimit, the
// theory of random splits, the run-length analysis, the unstable warning
// and Row.MaxServerLoad: under a policy that splits the jobs without
// reading the servers (splitter), server k receives the share p_k of the
// jobs, with sizes of moments E[X | k] and E[X^2 | k], and carries
//
//	rho_k = lambda p_k E[X | k] / mu_k,   lambda = rho sum(mu) / E[X],
//
// rho the offered load (offeredLoad). A policy that reads the servers sets
// the shares as it runs: no model (nil).

// serverLoad is a run of alike servers, from..to-1, in the model.
type serverLoad struct {
	from, to int
	share    float64 // p_k, the fraction of all jobs each receives
	m1, m2   float64 // E[X | k], E[X^2 | k] of the sizes it receives
	speed    float64 // mu_k
	rho      float64 // its load rho_k
}

// scv is the SCV of the sizes the server receives.
func (q serverLoad) scv() float64 { return q.m2/(q.m1*q.m1) - 1 }

// offeredLoad is rho: a trace's own (Load 0) or the one it is scaled to,
// a ramp's final one, else the configured one.
func (c *Config) offeredLoad() float64 {
	if c.Trace != nil && c.Load == 0 {
		return c.Trace.Load(c.Capacity())
	}
	if r, ramp := c.arrivals().(Ramp); ramp {
		return r.To
	}
	return c.Load
}

// serverLoads is the model at the offered load, nil without one.
func (c *Config) serverLoads() []serverLoad { return c.loadsAt(c.offeredLoad()) }

// loadsAt is the model at offered load rho, a run computed once: it ends
// where a speed, a class's servers or share changes (O(classes), not O(K)).
func (c *Config) loadsAt(rho float64) []serverLoad {
	if c.Policy == nil || c.sizes() == nil {
		return nil
	}
	desc := describe(c.Policy, c)
	split := desc.jobSplit()
	if split == nil {
		return nil
	}
	lambda := rho * c.Capacity() / c.sizes().Mean()
	// The classes sent to server k are those with from <= k < to: a sweep
	// in order of from keeps them (summed in split's order), so that K
	// classes of one server each (SITA-E) cost O(K log K), not O(K^2).
	byFrom := make([]int, len(split))
	for i := range byFrom {
		byFrom[i] = i
	}
	slices.SortStableFunc(byFrom, func(a, b int) int { return cmp.Compare(split[a].from, split[b].from) })
	var active []int
	next := 0
	var out []serverLoad
	for k := 0; k < c.Servers; {
		for next < len(byFrom) && split[byFrom[next]].from <= k {
			active, next = append(active, byFrom[next]), next+1
		}
		active = slices.DeleteFunc(active, func(i int) bool { return split[i].to <= k })
		slices.Sort(active)
		q := serverLoad{from: k, to: c.speedRunEnd(k), speed: c.speed(k)}
		if next < len(byFrom) { // a run ends where the next class begins
			q.to = min(q.to, split[byFrom[next]].from)
		}
		for _, i := range active {
			cl := split[i]
			q.to = cl.alikeEnd(k, q.to)
			if p := cl.Prob * cl.share(k); p > 0 {
				q.share, q.m1, q.m2 = q.share+p, q.m1+p*cl.M1, q.m2+p*cl.M2
			}
		}
		k = q.to
		q.rho = lambda * q.m1 / q.speed // p_k E[X | k] = sum of p E[X | class]
		if q.share > 0 {
			q.m1, q.m2 = q.m1/q.share, q.m2/q.share
		}
		if last := len(out) - 1; last >= 0 && out[last].share == q.share && out[last].m1 == q.m1 &&
			out[last].m2 == q.m2 && out[last].speed == q.speed {
			out[last].to = q.to
			continue
		}
		out = append(out, q)
	}
	return out
}

// speedRunEnd is the end of the run of equal speeds that starts at k.
func (c *Config) speedRunEnd(k int) int {
	if len(c.Speeds) <= 1 {
		return c.Servers
	}
	j := k + 1
	for j < c.Servers && c.Speeds[j] == c.Speeds[k] {
		j++
	}
	return j
}

// loadClass is n alike servers of the model (same share, sizes and speed),
// wherever they stand: speeds 2,1,2,1 are two classes of four runs. Theory
// that holds server by server is computed once a class and weighed by n.
type loadClass struct {
	serverLoad // the class's first run
	n          int
}

// loadClasses groups the model's runs into loadClasses, in server order.
func loadClasses(loads []serverLoad) []loadClass {
	type alike struct{ share, m1, m2, speed float64 }
	at := map[alike]int{}
	var out []loadClass
	for _, q := range loads {
		key := alike{q.share, q.m1, q.m2, q.speed}
		if i, ok := at[key]; ok {
			out[i].n += q.to - q.from
			continue
		}
		at[key] = len(out)
		out = append(out, loadClass{serverLoad: q, n: q.to - q.from})
	}
	return out
}

// serversText names the servers of q, and the class sent to exactly them
// if there is one: "server 3 (speed 1)", "servers 1..5 (short jobs)".
func (c *Config) serversText(q serverLoad) string {
	what := fmt.Sprintf("speed %v", q.speed)
	for _, cl := range c.classes() {
		if cl.From == q.from && cl.To == q.to && cl.To-cl.From < c.Servers {
			what = cl.Name + " jobs"
		}
	}
	if q.to-q.from == 1 {
		return fmt.Sprintf("server %d (%s)", q.from+1, what)
	}
	return fmt.Sprintf("servers %d..%d (%s)", q.from+1, q.to, what)
}

// loadAdvice is the policy's advice for an overloaded server, "" if none.
func (c *Config) loadAdvice() string {
	if a := describe(c.Policy, c).advice; a != nil {
		return a()
	}
	return ""
}

// checkServerLoads rejects a server of the model at load >= 1 (RND and RR
// send 1/K of the jobs to every server whatever its speed), unless overload
// is allowed; a trace is warned about instead, a ramp overloads on purpose.
func (c *Config) checkServerLoads() error {
	if _, ramp := c.arrivals().(Ramp); ramp || c.AllowOverload || c.Trace != nil {
		return nil
	}
	for _, q := range c.serverLoads() {
		if q.rho < 1 {
			continue
		}
		have := "has"
		if q.to-q.from > 1 {
			have = "have"
		}
		return fmt.Errorf("%s %s load %s under %s, which splits jobs without reading the servers: need each server's load < 1; %slower the load below %s, raise the speeds, weigh the split by speed (rnd:weights=speed, rr:weights=speed), or use a policy that reads the servers (sed, jsq, lwl)",
			c.serversText(q), have, loadText(q.rho), c.Policy, c.loadAdvice(), belowText(c.Load/q.rho))
	}
	return nil
}

// checkSampling is the d-sampling bound: under a policy that samples d of
// the K servers uniformly, the m slowest servers receive at least the jobs
// whose d samples all fall among them, a fraction
//
//	q_m = C(m, d) / C(K, d)   (distinct samples; (m/K)^d with replacement),
//
// whatever the policy then chooses. Their work lambda E[X] q_m must stay
// below their capacity (the sum of their speeds) for every m: with equal
// speeds q_m <= m/K and load < 1 suffices; with unequal speeds the highest
// stable load is min over m of cap_m / (q_m sum(mu)).
func (c *Config) checkSampling() error {
	desc := describe(c.Policy, c)
	d, replace := desc.sampled, desc.replace
	if _, ramp := c.arrivals().(Ramp); ramp || c.AllowOverload || c.Trace != nil || d == 0 {
		return nil
	}
	b, k := c.samplingBound(d, replace), c.Servers
	if b.worst == 0 || c.Load < b.maxLoad {
		return nil // no m binds (equal speeds: load < 1), or below the bound
	}
	var names []string
	for _, i := range b.order[:min(b.worst, 6)] {
		names = append(names, fmt.Sprintf("%d (speed %v)", i+1, c.speed(i)))
	}
	if b.worst > 6 {
		names = append(names, "...")
	}
	how := fmt.Sprintf("C(%d,%d)/C(%d,%d)", b.worst, d, k, d)
	if replace {
		how = fmt.Sprintf("(%d/%d)^%d", b.worst, k, d)
	}
	return fmt.Errorf("load %v is unstable under %s with these speeds: it samples %d of the %d servers uniformly, so the %d slowest (servers %s) receive at least %s = %.4g of the jobs (all %d samples among them), work %.4g per time unit against their capacity %.4g; need load < %.4g (the d-sampling bound); lower the load, sample more servers, or use a policy that reads all servers (sed, jsq, lwl) or weighs by speed (rnd:weights=speed)",
		c.Load, c.Policy, d, k, b.worst, strings.Join(names, ", "), how, b.q, d, c.Load*c.Capacity()*b.q, b.capacity, b.maxLoad)
}

// samplingLimit is checkSampling's bound maxLoad and the m where it is
// reached (worst; 0 if no m binds below load 1), with its q_m and cap_m.
type samplingLimit struct {
	maxLoad, q, capacity float64
	worst                int
	order                []int // servers, slowest first
}

// samplingBound finds that bound. Within a run of equal speeds cap_m is
// linear in m and q_m convex where positive (m >= d), so q_m / cap_m is
// quasi-convex and only the run's ends (and m = d) are evaluated.
func (c *Config) samplingBound(d int, replace bool) samplingLimit {
	b := samplingLimit{maxLoad: 1}
	if allEqual(c.Speeds) {
		return b // equal speeds: the bound is load < 1
	}
	speeds := c.speeds()
	order := slowestFirst(speeds)
	b.order = order
	k, total := len(speeds), c.Capacity()
	capM := 0.0
	for m := 1; m <= k; m++ {
		mu := speeds[order[m-1]]
		capM += mu
		if m > 1 && m < k && m != d && speeds[order[m-2]] == mu && speeds[order[m]] == mu {
			continue // inside a run of equal speeds
		}
		q := math.Pow(float64(m)/float64(k), float64(d)) // with replacement: O(1), d may be 64 K
		if !replace {
			q = 1.0
			for i := range min(d, m+1) { // zero from i = m on
				q *= float64(m-i) / float64(k-i)
			}
		}
		if q <= 0 {
			continue
		}
		if l := capM / (q * total); l < b.maxLoad {
			b.maxLoad, b.worst, b.q, b.capacity = l, m, q, capM
		}
	}
	return b
}

// slowestFirst is the servers sorted by speed, slowest first, in server
// order among equal speeds: a counting sort over the speedGroups.
func slowestFirst(speeds []float64) []int {
	g := newSpeedGroups(speeds)
	last := len(g.mu) - 1
	start := make([]int, len(g.mu)+1) // where each group's servers start in the order
	for _, i := range g.of {
		start[last-int(i)+1]++
	}
	for i := range g.mu {
		start[i+1] += start[i]
	}
	order := make([]int, len(speeds))
	for k, i := range g.of {
		j := last - int(i)
		order[start[j]] = k
		start[j]++
	}
	return order
}

// StabilityLimit is the highest load below which c's policy keeps every
// server stable, as far as the configuration proves it (the limit Validate
// refuses loads beyond, without AllowOverload):
//
//   - a split that reads no server (RND, RR, SITA, their weighted
//     variants): min_k rho / rho_k of the model, 1 for weights=speed;
//   - uniform sampling of d servers (LL-d, JSQ-d, SED-d): the d-sampling
//     bound (checkSampling);
//   - otherwise 1, the capacity: for policies that read every server (LWL,
//     JSQ, SED) the true limit, for others (one's own, memory, JIQ) the most
//     any policy can carry.
func (c Config) StabilityLimit() float64 {
	if loads := c.loadsAt(1); loads != nil {
		limit := math.Inf(1)
		for _, q := range loads {
			if q.rho > 0 {
				limit = min(limit, 1/q.rho)
			}
		}
		return limit
	}
	if d := describe(c.Policy, &c); d.sampled > 0 {
		return c.samplingBound(d.sampled, d.replace).maxLoad
	}
	return 1
}

// allEqual reports whether the values are all equal (none or one: true).
func allEqual(xs []float64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// traceScale is the factor a trace's arrival times are multiplied by so
// that its load is Load: its own load over Load (1 for Load 0).
func (c *Config) traceScale() float64 {
	if c.Trace == nil || c.Load == 0 {
		return 1
	}
	return c.Trace.Load(c.Capacity()) / c.Load
}
