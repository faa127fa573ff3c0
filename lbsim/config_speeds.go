package lbsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/perfeval/lbsim/lbsim/internal/number"
)

// Server speeds have one notation, read and written alike: a list of
// COUNT@SPEED runs in server order ("5@2,5@1": five servers of speed 2,
// then five of speed 1), where a bare number is one server ("2,1,1" is
// the same as "1@2,2@1"), or one bare number for all K servers ("1").
// ParseSpeeds reads it (-speeds, spec files, notebooks, the explorer);
// SpeedsText writes it (the speeds column of rows and CSV files, and
// Config.Key), so a written value reads back as the same servers.

// ParseSpeeds reads server speeds: "1" (one value for all servers),
// "2,2,1" (one value per server) or runs "5@2,5@1" (COUNT@SPEED), mixed
// freely ("2,3@1"). Config.Validate checks the count against K and each
// speed > 0.
func ParseSpeeds(s string) ([]float64, error) {
	var out []float64
	parts := strings.Split(s, ",")
	for i, part := range parts {
		count, speed, isRun := strings.Cut(strings.TrimSpace(part), "@")
		if !isRun {
			x, err := number.Float(part)
			if err != nil {
				if len(parts) > 1 {
					err = fmt.Errorf("item %d %w", i+1, err)
				}
				return nil, fmt.Errorf("speeds: %v; write speeds as 1, 2,2,1 or 5@2,5@1 (COUNT@SPEED)", err)
			}
			out = append(out, x)
			continue
		}
		n, err := number.Int(count)
		if err == nil && (n < 1 || n > maxServers) {
			err = fmt.Errorf("count %d is out of range 1..%d", n, maxServers)
		}
		if err != nil {
			return nil, fmt.Errorf("speeds: run %q: %v; write COUNT@SPEED with COUNT a whole number >= 1, e.g. 5@2", part, err)
		}
		x, err := number.Float(speed)
		if err != nil {
			return nil, fmt.Errorf("speeds: run %q: speed %v; write COUNT@SPEED, e.g. 5@2", part, err)
		}
		if len(out)+int(n) > maxServers {
			return nil, fmt.Errorf("speeds: %q gives more than %d servers: need at most K <= %d; lower the counts", s, maxServers, maxServers)
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
