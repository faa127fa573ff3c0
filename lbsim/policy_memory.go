package lbsim

import "fmt"

// Memory for the power-of-d policies (Mitzenmacher, Prabhakar and Shah,
// "Load balancing with memory", FOCS 2002; Shah and Prabhakar 2002): each
// job samples d servers uniformly and also considers the m remembered from
// the previous job; it joins the least loaded of these (ties uniformly at
// random), and the dispatcher then remembers the m least loaded of them,
// the chosen one with its new job. LeastLoaded and JSQ take it as their Mem
// field ("ll:d=2,mem=1", "jsq:d=2,mem=1"), a memory per replication (Start).

// memory is one replication's state of a power-of-d policy with memory.
type memory struct {
	d, m    int
	replace bool
	kind    State // Workload (LL) or Count (JSQ)
	kept    []int // remembered servers, least loaded first; at most m
	cand    []candidate
}

// candidate is a server considered for a job: its load, and its place in a random order for ties.
type candidate struct {
	k    int
	load float64
	rank int
}

func (a candidate) before(b candidate) bool {
	return a.load < b.load || (a.load == b.load && a.rank < b.rank)
}

func newMemory(d, m int, replace bool, kind State) *memory {
	return &memory{d: d, m: m, replace: replace, kind: kind, kept: make([]int, 0, m)} // cand grows to the distinct candidates: at most min(d, K) + m
}

// pick chooses the server for a job of size x and updates the memory.
func (mm *memory) pick(v *View, x float64) int {
	c := mm.cand[:0]
	if mm.replace { // drawn one at a time, as Sample would: d may exceed K
		for range mm.d {
			c = addCandidate(c, v.Rand().IntN(v.K()))
		}
	} else {
		for _, k := range v.Sample(mm.d, false) {
			c = addCandidate(c, k)
		}
	}
	for _, k := range mm.kept {
		c = addCandidate(c, k)
	}
	r := v.Rand()
	for i := len(c) - 1; i > 0; i-- { // uniformly random order: Fisher-Yates
		j := r.IntN(i + 1)
		c[i], c[j] = c[j], c[i]
	}
	for i := range c { // few candidates: read loads, insertion sort
		c[i].load, c[i].rank = v.value(c[i].k, mm.kind), i
		for j := i; j > 0 && c[j].before(c[j-1]); j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
	best := c[0].k
	if mm.kind == Workload { // the chosen server after the job joined
		c[0].load += x / v.Speed(best)
	} else {
		c[0].load++
	}
	for j := 0; j+1 < len(c) && c[j+1].before(c[j]); j++ {
		c[j], c[j+1] = c[j+1], c[j]
	}
	mm.kept = mm.kept[:0]
	for _, e := range c[:min(mm.m, len(c))] {
		mm.kept = append(mm.kept, e.k)
	}
	mm.cand = c
	return best
}

// addCandidate appends server k unless it is already there (a remembered
// server sampled again, or a repeat draw with replacement).
func addCandidate(c []candidate, k int) []candidate {
	for _, e := range c {
		if e.k == k {
			return c
		}
	}
	return append(c, candidate{k: k})
}

// memoryDispatcher is the run's dispatcher of a policy with memory.
type memoryDispatcher struct {
	v   View
	mem *memory
}

func (p *memoryDispatcher) pick(t, x float64) int {
	p.v.t = t
	k := p.mem.pick(&p.v, x)
	p.v.n++
	return k
}

// remembering is a policy with memory started for one replication.
type remembering struct {
	Policy // the spec's value, for String
	mem    *memory
}

func (r remembering) Pick(v *View, x float64) int { return r.mem.pick(v, x) }

// start gives each replication of LL(d,m) and JSQ(d,m) its own memory, and
// under a tie rule its tieBreaker (startSampled).
func (p LeastLoaded) start(v *View) Policy {
	return startSampled(p, v, p.D, p.Mem, p.Replace, Workload, p.Ties)
}

func (p JSQ) start(v *View) Policy { return startSampled(p, v, p.D, p.Mem, p.Replace, Count, p.Ties) }

func startSampled(p Policy, v *View, d, m int, replace bool, kind State, t Ties) Policy {
	switch {
	case t != TiesRandom:
		return newTieBreaker(p, d, kind, t, v.K())
	case m == 0:
		return p
	}
	return remembering{p, newMemory(d, m, replace, kind)}
}

func newMemoryDispatcher(s *sim, d, m int, replace bool, kind State) dispatcher {
	return &memoryDispatcher{v: View{s: s}, mem: newMemory(d, m, replace, kind)}
}

// memoryParam reads mem, the number of remembered servers (0: none; needs d).
func memoryParam(name string, p Params, d int) (int, error) {
	m, err := p.Int("mem", 0)
	if err != nil {
		return 0, fmt.Errorf("%s: %w (servers remembered from the previous job); e.g. %s:d=2,mem=1", name, err, name)
	}
	if m > 0 && d == 0 {
		return 0, fmt.Errorf("%s: mem=%d needs a sample size d (without d every server is looked at); e.g. %s:d=2,mem=%d", name, m, name, m)
	}
	return m, nil
}

// withMemory appends ",mem=M" to a power-of-d spec when M > 0.
func withMemory(spec string, m int) string {
	if m == 0 {
		return spec
	}
	return fmt.Sprintf("%s,mem=%d", spec, m)
}

// memoryLabel is the label of a power-of-d policy with memory: "JSQ(2,1)",
// "LL(2r,1)" with replacement; without memory the usual "JSQ-2".
func memoryLabel(name string, d int, replace bool, m int) string {
	if m == 0 {
		return sampledLabel(name, d, replace)
	}
	r := ""
	if replace {
		r = "r"
	}
	return fmt.Sprintf("%s(%d%s,%d)", name, d, r, m)
}

// unstarted reports a policy with memory picked without its Start: its
// memory would be shared by parallel replications.
func unstarted(p Policy) int {
	panic(policyError{fmt.Errorf("policy %s keeps memory between jobs and was picked without Start: start it once per replication and dispatcher with lbsim.Start(p, v) (a wrapper policy must forward Start)", p)})
}
