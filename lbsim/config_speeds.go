package lbsim

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// ParseSpeeds reads server speeds as SpeedsText writes them: "1" (one value
// for all servers), "2,2,1" (one value per server) or runs "5@2,5@1"
// (COUNT@SPEED, in server order), mixed freely ("2,3@1"). Config.Validate
// checks the count against K and each speed > 0.
func ParseSpeeds(s string) ([]float64, error) { return parseRuns("speeds", "SPEED", maxServers, s) }

// parseRuns reads a list-valued setting (kindList: speeds, dispatcher
// weights) as ParseSpeeds, at most limit values; name and unit word errors.
func parseRuns(name, unit string, limit int, s string) ([]float64, error) {
	var out []float64
	parts := strings.Split(s, ",")
	for i, part := range parts {
		count, value, isRun := strings.Cut(strings.TrimSpace(part), "@")
		if !isRun {
			x, err := number.Float(part)
			if err != nil {
				if len(parts) > 1 {
					err = fmt.Errorf("item %d %w", i+1, err)
				}
				return nil, fmt.Errorf("%s: %v; write %s as 1, 2,2,1 or 5@2,5@1 (COUNT@%s)", name, err, name, unit)
			}
			out = append(out, x)
			continue
		}
		n, err := number.Int(count)
		if err == nil && (n < 1 || n > int64(limit)) {
			err = fmt.Errorf("count %d is out of range 1..%d", n, limit)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: run %q: %v; write COUNT@%s with COUNT a whole number >= 1, e.g. 5@2", name, part, err, unit)
		}
		x, err := number.Float(value)
		if err != nil {
			return nil, fmt.Errorf("%s: run %q: %s %v; write COUNT@%s, e.g. 5@2", name, part, strings.ToLower(unit), err, unit)
		}
		if len(out)+int(n) > limit {
			return nil, fmt.Errorf("%s: %q gives more than %d values: need at most %d; lower the counts", name, s, limit, limit)
		}
		for range n {
			out = append(out, x)
		}
	}
	return out, nil
}

// SpeedsText writes the speeds of k servers (given as Config.Speeds is:
// nil for all 1, one value for all, or k values) as runs COUNT@SPEED in
// server order: "10@1", "5@2,5@1". ParseSpeeds reads it back.
func SpeedsText(speeds []float64, k int) string {
	c := Config{Servers: k, Speeds: speeds}
	return speedRuns(c.speeds(), math.MaxInt)
}

// speedRuns writes sp as runs "5@2,5@1", or "" once the text would pass
// limit bytes.
func speedRuns(sp []float64, limit int) string {
	var b strings.Builder
	for i := 0; i < len(sp); {
		j := i + 1
		for j < len(sp) && sp[j] == sp[i] {
			j++
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(j - i))
		b.WriteByte('@')
		b.WriteString(fmtNum(sp[i]))
		if b.Len() > limit {
			return ""
		}
		i = j
	}
	return b.String()
}

// FastSlowSpeeds is k servers of which the first round(share k) have speed
// fast and the others speed 1: the explorer's two machine generations.
func FastSlowSpeeds(k int, share, fast float64) []float64 {
	nFast := int(math.Round(share * float64(k)))
	nFast = min(max(nFast, 0), k)
	out := make([]float64, k)
	for i := range out {
		out[i] = 1
		if i < nFast {
			out[i] = fast
		}
	}
	return out
}

// speedGroups numbers the distinct speeds of K servers, fastest first: the
// one numbering of the speed groups (SED's buckets, the servers' service
// times, slowestFirst), found by one binary search a run of equal speeds.
type speedGroups struct {
	mu []float64 // the distinct speeds, fastest first
	of []int32   // per server, its group: mu[of[k]] is speed k
}

func newSpeedGroups(speeds []float64) speedGroups {
	// cmp.Compare, not ==: a NaN (refused by Validate, but StabilityLimit
	// may look first) is a speed of its own, found by the search.
	newRun := func(k int) bool { return k == 0 || cmp.Compare(speeds[k], speeds[k-1]) != 0 }
	var mu []float64 // a value a run of equal speeds, then sorted and compacted
	for k, v := range speeds {
		if newRun(k) {
			mu = append(mu, v)
		}
	}
	fastestFirst := func(a, b float64) int { return cmp.Compare(b, a) }
	slices.SortFunc(mu, fastestFirst)
	mu = slices.CompactFunc(mu, func(a, b float64) bool { return cmp.Compare(a, b) == 0 })
	g := speedGroups{mu: mu, of: make([]int32, len(speeds))}
	for k, v := range speeds {
		if newRun(k) {
			i, _ := slices.BinarySearchFunc(mu, v, fastestFirst)
			g.of[k] = int32(i)
		} else {
			g.of[k] = g.of[k-1]
		}
	}
	return g
}
