package lbsim

import (
	"errors"
	"fmt"

	"github.com/perfeval/lbsim/lbsim/theory"
)

// SED is shortest expected delay: each job goes to the server with the
// least (n_k + 1)/mu_k, n_k its jobs and mu_k its speed (the delay the job
// expects there with exponential sizes under FCFS), among D servers sampled
// uniformly without replacement (D = 0: all K); ties go to the faster
// server, then uniformly at random (Ties: by another rule). With equal
// speeds it is JSQ-d.
type SED struct {
	D    int
	Ties Ties
}

func init() {
	mustRegister(policyRegistry, PolicyType{Name: "sed", Params: []string{"d", "ties"}, Lists: []string{"ties"}, Example: "sed",
		Summary: "shortest expected delay: least (n_k+1)/mu_k among all K servers, ties to the faster (d=2: among 2 sampled; ties=first|oldest|rr: then by that rule)",
		New: func(p Params) (Policy, error) {
			d, _, err := sampleParams("sed", p)
			ties, terr := tiesParam("sed", p)
			return SED{D: d, Ties: ties}, errors.Join(err, terr)
		}})
}

func (p SED) String() string {
	if p.D == 0 {
		return p.Ties.spec("sed")
	}
	return p.Ties.spec(sampledSpec("sed", p.D, false))
}

// describe: a power-of-d policy (sampledFacts) on job counts; over all
// servers, speed buckets (a countBuckets per distinct speed).
func (p SED) describe(c *Config) Description {
	d := sampledFacts(p.D, 0, false, c)
	d.Label, d.Reads = "SED", Count
	if p.D != 0 {
		d.Label = sampledLabel("SED", p.D, false)
	}
	if allServers(p.D, c.Servers, false) && len(c.Speeds) > 1 {
		d.stateBytes = (indexBytes + groupBytes) * int64(c.Servers)
	}
	p.Ties.describe(&d, c.Servers)
	return d
}

func (p SED) validate(c *Config) error {
	if k := c.Servers; p.D < 0 || p.D > k {
		return fmt.Errorf("sed d=%d is invalid: need 1 <= d <= K = %d (sampled servers are distinct); lower d, or use sed for all servers", p.D, k)
	}
	return p.Ties.check(p, 0, false, c)
}

func (p SED) start(v *View) Policy { return startSampled(p, v, p.D, 0, false, Count, p.Ties) }

// Pick samples D servers (all K for D = 0) and takes the least expected delay.
func (p SED) Pick(v *View, _ float64) int {
	if p.Ties != TiesRandom {
		return pickTied(p, p.Ties, v)
	}
	if allServers(p.D, v.K(), false) {
		return pickSED(v, nil)
	}
	return pickSED(v, v.Sample(p.D, false))
}

// pickSED is the SED choice among ks (nil: all servers, ties drawn by
// reservoir sampling; else ks in random order and the first tie kept).
func pickSED(v *View, ks []int) int {
	n := v.K()
	if ks != nil {
		n = len(ks)
	}
	server := func(i int) int {
		if ks == nil {
			return i
		}
		return ks[i]
	}
	best := server(0)
	bestV, bestMu, ties := float64(v.Count(best)+1)/v.Speed(best), v.Speed(best), 1
	for i := 1; i < n; i++ {
		k := server(i)
		mu := v.Speed(k)
		x := float64(v.Count(k)+1) / mu
		switch {
		case x < bestV || x == bestV && mu > bestMu:
			best, bestV, bestMu, ties = k, x, mu, 1
		case x == bestV && mu == bestMu && ks == nil:
			if ties++; v.Rand().IntN(ties) == 0 {
				best = k
			}
		}
	}
	return best
}

// newDispatcher: over all servers speedBuckets, O(distinct speeds) a job;
// SED-2 sedPair (sim_lean_sed.go); SED-d through the View.
func (p SED) newDispatcher(s *sim) dispatcher {
	switch {
	case p.Ties != TiesRandom:
		return tiedDispatcher(p, s)
	case allServers(p.D, s.k, false) && !s.departuresLate():
		return newLeastCount(s, newSpeedBuckets(s.cfg.speeds()))
	case p.D == 2:
		return &sedPair{v: View{s: s}}
	}
	return &viewDispatcher{p: p, v: View{s: s}}
}

// theory: for exponential sizes at small K (theory.DispatchMaxServers, any
// speeds, FCFS or PS), the exact Markov chain of SED-d; under a tie rule
// as JSQ's (see JSQ.theory).
func (p SED) theory(c Config) (Reference, bool) {
	s := systemOf(c)
	d := p.D
	if allServers(d, s.k, false) {
		d = 0
	}
	if p.Ties > TiesFirst && !s.equal {
		return Reference{}, false
	}
	return smallChain(s, theory.DispatchRule{D: d, SED: true, First: p.Ties == TiesFirst && !s.equal})
}
