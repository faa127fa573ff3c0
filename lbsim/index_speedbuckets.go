package lbsim

import (
	"cmp"
	"slices"
)

// speedBuckets keeps K servers' job counts grouped by speed, for the
// shortest expected delay over all servers in O(G) a job, G the number of
// distinct speeds: within a group the fewest jobs is the least delay, so
// each group is a countBuckets over its own servers, and SED compares the
// groups' minima (n + 1)/mu, ties to the faster group, then uniformly
// within it.
type speedBuckets struct {
	groups []speedGroup // fastest first
	place  []groupPlace // per server
	buf    []int32      // reset's per-group counts
}

// groupPlace is a server's group and its index within the group: one
// record, read at every change of the server's count (one cache miss at
// large K, not two).
type groupPlace struct{ group, local int32 }

type speedGroup struct {
	mu      float64
	servers []int32 // local index -> server
	b       *countBuckets
}

func newSpeedBuckets(speeds []float64) *speedBuckets {
	distinct := slices.Clone(speeds)
	slices.SortFunc(distinct, func(a, b float64) int { return cmp.Compare(b, a) })
	distinct = slices.Compact(distinct)
	sb := &speedBuckets{groups: make([]speedGroup, len(distinct)), place: make([]groupPlace, len(speeds))}
	for g, mu := range distinct {
		sb.groups[g].mu = mu
	}
	for k, mu := range speeds {
		g, _ := slices.BinarySearchFunc(distinct, mu, func(a, b float64) int { return cmp.Compare(b, a) })
		sb.place[k] = groupPlace{int32(g), int32(len(sb.groups[g].servers))}
		sb.groups[g].servers = append(sb.groups[g].servers, int32(k))
	}
	for g := range sb.groups {
		sb.groups[g].b = newCountBuckets(len(sb.groups[g].servers))
	}
	return sb
}

func (sb *speedBuckets) at(k int) (*countBuckets, int) {
	p := sb.place[k]
	return sb.groups[p.group].b, int(p.local)
}

func (sb *speedBuckets) inc(k int)          { b, i := sb.at(k); b.inc(i) }
func (sb *speedBuckets) dec(k int)          { b, i := sb.at(k); b.dec(i) }
func (sb *speedBuckets) set(k int, c int32) { b, i := sb.at(k); b.set(i, c) }

func (sb *speedBuckets) reset(counts []int32) {
	for _, g := range sb.groups {
		if counts == nil {
			g.b.reset(nil)
			continue
		}
		sb.buf = sb.buf[:0]
		for _, k := range g.servers {
			sb.buf = append(sb.buf, counts[k])
		}
		g.b.reset(sb.buf)
	}
}

// pick is the server of the shortest expected delay (n + 1)/mu: the
// fastest group whose least count gives the least delay, and uniformly
// among that group's servers with that count.
func (sb *speedBuckets) pick(r *Stream) int {
	best, bestV := 0, 0.0
	for g, grp := range sb.groups {
		v := float64(grp.b.least()+1) / grp.mu
		if g == 0 || v < bestV { // groups are fastest first: ties stay with the faster
			best, bestV = g, v
		}
	}
	grp := sb.groups[best]
	return int(grp.servers[grp.b.pick(r)])
}
