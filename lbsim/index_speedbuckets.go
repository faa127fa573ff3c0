package lbsim

// speedBuckets keeps K servers' job counts grouped by speed, for SED over
// all servers in O(G) a job, G the number of distinct speeds: within a
// group the fewest jobs is the least delay, so each group is a countBuckets
// and pick compares the groups' minima (n + 1)/mu.
type speedBuckets struct {
	groups []speedGroup // fastest first (speedGroups)
	group  []int32      // per server: its group
	at     []bucketSlot // per server: its count and place, for its group's buckets
}

type speedGroup struct {
	mu float64
	b  *countBuckets // over the group's servers, by their index among the K
}

func newSpeedBuckets(speeds []float64) *speedBuckets {
	g := newSpeedGroups(speeds)
	sb := &speedBuckets{groups: make([]speedGroup, len(g.mu)), group: g.of, at: make([]bucketSlot, len(speeds))}
	members := make([][]int32, len(g.mu))
	for k, i := range g.of {
		members[i] = append(members[i], int32(k))
	}
	for i, mu := range g.mu {
		sb.groups[i] = speedGroup{mu: mu, b: newCountBucketsOf(sb.at, members[i])}
	}
	return sb
}

// of is server k's group's buckets: the group is a read of 4 bytes a
// server, beside (not before) the read of k's record in them.
func (sb *speedBuckets) of(k int) *countBuckets { return sb.groups[sb.group[k]].b }

func (sb *speedBuckets) inc(k int)          { sb.of(k).inc(k) }
func (sb *speedBuckets) dec(k int)          { sb.of(k).dec(k) }
func (sb *speedBuckets) set(k int, c int32) { sb.of(k).set(k, c) }

// touch loads server k's group and record.
func (sb *speedBuckets) touch(k int) uint64 { return uint64(sb.group[k]) + uint64(sb.at[k].cnt) }

func (sb *speedBuckets) reset(counts []int32) {
	for _, g := range sb.groups {
		g.b.reset(counts)
	}
}

// pick is the server of the shortest expected delay (n + 1)/mu: uniformly
// among the least loaded of the fastest group whose least delay is least.
func (sb *speedBuckets) pick(r *Stream) int {
	best, bestV := 0, 0.0
	for g, grp := range sb.groups {
		v := float64(grp.b.least()+1) / grp.mu
		if g == 0 || v < bestV { // groups are fastest first: ties stay with the faster
			best, bestV = g, v
		}
	}
	return sb.groups[best].b.pick(r)
}
