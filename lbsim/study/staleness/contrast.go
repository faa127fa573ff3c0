package staleness

import (
	"fmt"

	"github.com/perfeval/lbsim/lbsim"
)

// ContrastRow is one measure of the value of information at one SCV under two disciplines
// (FCFS and PS), as a ratio of mean times in system: above 1 means the first-named policy is
// slower, i.e. the second one gains that factor.
type ContrastRow struct {
	SCV     float64 `json:"scv"`
	Measure string  `json:"measure"`
	FCFS    float64 `json:"fcfs"`
	FCFSCI  float64 `json:"fcfs_ci95"`
	PS      float64 `json:"ps"`
	PSCI    float64 `json:"ps_ci95"`
}

// contrastRatio is one measure: policy A at board age TA over policy B at board age TB.
type contrastRatio struct {
	a, b   string
	ta, tb float64
}

// Contrast tabulates, at every SCV of fcfs.Setup, how much round robin loses to random and to the
// board policies (live and with boards 10 and 100 service times old) under each discipline:
// the part of round robin's handicap and of the value of stale information that survives PS.
func Contrast(fcfs, ps Evidence) ([]ContrastRow, error) {
	measures := []contrastRatio{
		{"random", "round robin", 0, 0},
		{"round robin", "best of two", 0, 0},
		{"round robin", "best of two", 0, 10},
		{"round robin", "best of two", 0, 100},
		{"round robin", "least loaded", 0, 10},
		{"round robin", "oracle", 0, 0},
	}
	var out []ContrastRow
	for _, scv := range fcfs.Setup.SCVs {
		for _, m := range measures {
			a, err := checkPolicy(m.a)
			if err != nil {
				return nil, err
			}
			b, err := checkPolicy(m.b)
			if err != nil {
				return nil, err
			}
			f := lbsim.Ratio(fcfs.Results.Mean(a, scv, m.ta, false), fcfs.Results.Mean(b, scv, m.tb, false))
			p := lbsim.Ratio(ps.Results.Mean(a, scv, m.ta, false), ps.Results.Mean(b, scv, m.tb, false))
			out = append(out, ContrastRow{SCV: scv, Measure: m.name(), FCFS: f.Mean, FCFSCI: f.CI95, PS: p.Mean, PSCI: p.CI95})
		}
	}
	return out, nil
}

func (m contrastRatio) name() string {
	age := func(p string, t float64) string {
		if t == 0 {
			if p == "best of two" || p == "least loaded" {
				return p + " (live)"
			}
			return p
		}
		return fmt.Sprintf("%s (T=%g)", p, t)
	}
	return age(m.a, m.ta) + " / " + age(m.b, m.tb)
}
