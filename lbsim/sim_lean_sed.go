package lbsim

import "math"

// sedOfPair is SED's choice between the servers a and b, drawn in that
// order, with na and nb jobs: b if its expected delay (n + 1)/mu is less
// than a's, or the same on a faster server; else a (pickSED's rule and
// numbers: mu is 1/inv, as View.Speed gives it).
func (srv *servers) sedOfPair(a, b int, na, nb int64) int {
	muA, muB := 1/srv.inv[a], 1/srv.inv[b]
	xa, xb := float64(na+1)/muA, float64(nb+1)/muB
	if xb < xa || xb == xa && muB > muA {
		return b
	}
	return a
}

// touchSpeeds loads the speeds of a lean block's pairs for drawServers (far servers).
func (srv *servers) touchSpeeds(ka, kb []int32) uint64 {
	var sum uint64
	for j, a := range ka {
		sum += math.Float64bits(srv.inv[a]) + math.Float64bits(srv.inv[kb[j]])
	}
	return sum
}

// sedPair is SED-2's dispatcher: JSQ-2's pair and counts, sedOfPair's
// choice; inline where JSQ-2 is (leanSED2).
type sedPair struct{ v View }

func (p *sedPair) pick(t, _ float64) int {
	p.v.t = t
	a, b := samplePair(p.v.s.rDispatch, p.v.s.k)
	na := p.v.Count(a) // a first, as pickSED reads them
	return p.v.s.srv.sedOfPair(a, b, int64(na), int64(p.v.Count(b)))
}

func (p *sedPair) lean(s *sim) leanPolicy {
	if s.srv.deps != nil || s.board != nil {
		return leanSED2
	}
	return notLean
}
