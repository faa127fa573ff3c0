package lbsim

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Every server stable, before running: Validate refuses a load that some
// server cannot carry, wherever that can be proven from the configuration
// alone (unless AllowOverload). After running, the unstable warning
// (result_diagnose.go) catches what cannot be proven here: a policy of
// one's own, JIQ, memory, boards.

// checkServerLoads rejects an overloaded server under a policy that splits
// jobs without reading the servers (RND and RR send 1/K of the jobs to every
// server whatever its speed; SITA sends each class uniformly to its group):
// server k's load is rho sum(mu) share_k / mu_k (see Policy's WorkShares),
// unless overload is allowed.
func (c *Config) checkServerLoads() error {
	if c.AllowOverload || c.Trace != nil {
		return nil
	}
	if _, ramp := c.arrivals().(Ramp); ramp {
		return nil
	}
	shares := workShares(c.Policy, *c)
	if shares == nil {
		return nil
	}
	work := c.Load * c.Capacity() // work per time unit
	load := func(k int) float64 { return work * shares[k] / c.speed(k) }
	for k := range c.Servers {
		rho := load(k)
		if rho < 1 {
			continue
		}
		// The servers k..last with the same load and speed, named by the
		// class sent to exactly them, if any.
		last := k
		for last+1 < c.Servers && load(last+1) == rho && c.speed(last+1) == c.speed(k) {
			last++
		}
		who := fmt.Sprintf("server %d (speed %v) has", k+1, c.speed(k))
		if last > k {
			who = fmt.Sprintf("servers %d..%d (speed %v) have", k+1, last+1, c.speed(k))
		}
		for _, cl := range c.classes() {
			switch {
			case cl.From != k || cl.To != last+1 || cl.To-cl.From == c.Servers:
			case last == k:
				who = fmt.Sprintf("server %d (%s jobs) has", k+1, cl.Name)
			default:
				who = fmt.Sprintf("servers %d..%d (%s jobs) have", k+1, last+1, cl.Name)
			}
		}
		advice := ""
		if a, ok := c.Policy.(interface{ loadAdvice(*Config) string }); ok {
			advice = a.loadAdvice(c)
		}
		return fmt.Errorf("%s load %s under %s, which splits jobs without reading the servers: need each server's load < 1; %slower the load below %s, raise the speeds, weigh the split by speed (rnd:weights=speed, rr:weights=speed), or use a policy that reads the servers (sed, jsq, lwl)",
			who, loadText(rho), c.Policy, advice, loadText(c.Load/rho))
	}
	return nil
}

// sampler is a policy that sends each job to one of d servers sampled
// uniformly (LL-d, JSQ-d without memory; see policy_sample.go).
type sampler interface {
	sampling(k int) (d int, replace, ok bool)
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
	s, ok := c.Policy.(sampler)
	if c.AllowOverload || c.Trace != nil || !ok {
		return nil
	}
	d, replace, ok := s.sampling(c.Servers)
	if !ok {
		return nil
	}
	if _, ramp := c.arrivals().(Ramp); ramp {
		return nil
	}
	b := c.samplingBound(d, replace)
	if b.worst == 0 || c.Load < b.maxLoad {
		return nil // no m binds (equal speeds: load < 1), or below the bound
	}
	speeds, order, k, total := b.speeds, b.order, len(b.speeds), c.Capacity()
	maxLoad, worst, worstQ, capWorst := b.maxLoad, b.worst, b.q, b.capacity
	var names []string
	for _, i := range order[:min(worst, 6)] {
		names = append(names, fmt.Sprintf("%d (speed %v)", i+1, speeds[i]))
	}
	if worst > 6 {
		names = append(names, "...")
	}
	how := fmt.Sprintf("C(%d,%d)/C(%d,%d)", worst, d, k, d)
	if replace {
		how = fmt.Sprintf("(%d/%d)^%d", worst, k, d)
	}
	return fmt.Errorf("load %v is unstable under %s with these speeds: it samples %d of the %d servers uniformly, so the %d slowest (servers %s) receive at least %s = %.4g of the jobs (all %d samples among them), work %.4g per time unit against their capacity %.4g; need load < %.4g (the d-sampling bound); lower the load, sample more servers, or use a policy that reads all servers (sed, jsq, lwl) or weighs by speed (rnd:weights=speed)",
		c.Load, c.Policy, d, k, worst, strings.Join(names, ", "), how, worstQ, d, c.Load*total*worstQ, capWorst, maxLoad)
}

// samplingLimit is the d-sampling bound of checkSampling: the highest
// load, min over m of cap_m / (q_m sum(mu)), and the m (worst, 0 if no m
// binds below load 1) where it is reached, with its q_m and capacity.
type samplingLimit struct {
	maxLoad, q, capacity float64
	worst                int
	speeds               []float64
	order                []int // servers, slowest first
}

func (c *Config) samplingBound(d int, replace bool) samplingLimit {
	speeds := c.speeds()
	order := make([]int, len(speeds)) // servers, slowest first
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(speeds[a], speeds[b]) })
	b := samplingLimit{maxLoad: 1, speeds: speeds, order: order}
	if speeds[order[0]] == speeds[order[len(order)-1]] {
		return b // equal speeds: the bound is load < 1
	}
	k, total := len(speeds), c.Capacity()
	capM := 0.0
	for m := 1; m <= k; m++ {
		capM += speeds[order[m-1]]
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

// StabilityLimit is the highest load (rho = lambda E[X] / sum(mu)) below
// which c's policy keeps every server stable, as far as the configuration
// proves it, the limit Validate refuses loads beyond (without
// AllowOverload):
//
//   - a policy that splits jobs without reading the servers (RND, RR,
//     SITA, their weighted variants): server k, of speed mu_k, gets the
//     share s_k of the work, so the limit is min_k mu_k / (s_k sum(mu)),
//     1 for weights=speed;
//   - uniform sampling of d servers (LL-d, JSQ-d, SED-d): the d-sampling
//     bound, min over m of the m slowest servers' capacity over the work
//     they get at least, C(m,d)/C(K,d) of it (see checkSampling);
//   - otherwise 1, the capacity: for the policies that read every server
//     (LWL, JSQ, SED) the true limit, for others (a policy of one's own,
//     memory, JIQ) only the most any policy can carry.
func (c Config) StabilityLimit() float64 {
	if shares := workShares(c.Policy, c); shares != nil {
		limit, total := math.Inf(1), c.Capacity()
		for k, s := range shares {
			if s > 0 {
				limit = min(limit, c.speed(k)/(s*total))
			}
		}
		return limit
	}
	if s, ok := c.Policy.(sampler); ok {
		if d, replace, ok := s.sampling(c.Servers); ok {
			return c.samplingBound(d, replace).maxLoad
		}
	}
	return 1
}

// symmetric is a built-in policy that treats the servers alike (LL-d,
// JSQ-d, LWL, JSQ, JIQ): with equal speeds every server carries the load rho.
type symmetric interface{ symmetric() }

func isSymmetric(p Policy) bool {
	_, ok := p.(symmetric)
	return ok
}

// equalSpeeds reports whether every server has the same speed.
func (c *Config) equalSpeeds() bool { return allEqual(c.Speeds) }

// allEqual reports whether the values are all equal (none or one: true).
func allEqual(xs []float64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}
