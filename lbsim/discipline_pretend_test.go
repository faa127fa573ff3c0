package lbsim

import (
	"math"
	"strings"
	"testing"
)

// A discipline theory does not know gets no exact value and no limit, for
// every policy: each formula names the disciplines it covers, and none
// falls back to another's. The pretend discipline is processor sharing
// under another name (so it runs), which no formula lists.
func TestUnknownDisciplineGetsNoTheory(t *testing.T) {
	pretend := Discipline(len(disciplines))
	disciplines = append(disciplines, disciplines[PS])
	disciplines[pretend].name = "pretend"
	t.Cleanup(func() { disciplines = disciplines[:pretend] })

	var specs []string
	for _, f := range policyRegistry.families() {
		specs = append(specs, f.Example)
	}
	specs = append(specs, "rnd:weights=speed", "rr:weights=2/1", "jsq", "sed", "lwl", "jiq:withdraw=1", "lsq:d=2", "sita:groups=2", "sita:cut=1,c=1")
	for _, spec := range specs {
		p, err := ParsePolicy(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 3, 1000} {
			for _, sizes := range []SizeLaw{Exponential{M: 1}, H2{P1: 0.9, Rate1: 1.8, Rate2: 0.2}, Deterministic{X0: 1}} {
				for _, m := range []int{1, 10} {
					for _, arr := range []ArrivalProcess{nil, DeterministicArrivals{}} {
						c := Config{Servers: k, Load: 0.5, Sizes: sizes, Policy: p, Discipline: pretend, Dispatchers: m, Arrivals: arr, Jobs: 1}
						if c.Validate() != nil {
							continue
						}
						c.Discipline = PS // the same system under a known discipline: theory there, none under pretend
						_, known := Theory(c)
						c.Discipline = pretend
						if ref, ok := Theory(c); ok {
							t.Errorf("%s K=%d %v M=%d arrivals %v: %s %q (%v) under an unknown discipline", spec, k, sizes, m, arr, ref.Kind, ref.Method, ref.Wait)
						} else if known && ref.NoExact != "" {
							t.Errorf("%s K=%d: says why no exact value (%s), as if one were promised", spec, k, ref.NoExact)
						}
					}
				}
			}
		}
	}
	// It runs, as PS; its row has no exact value, and its warnings speak of
	// it, not of FCFS servers.
	r, err := Run(Config{Servers: 4, Load: 0.5, Sizes: Pareto{Alpha: 1.5, L: 1, H: math.Inf(1)}, Policy: Random{}, Discipline: pretend, Jobs: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if row := NewRow(r); !math.IsNaN(row.ExactWait) || row.Discipline != "pretend" || !strings.Contains(r.Warnings.String(), "under pretend a job's response") {
		t.Errorf("pretend discipline: exact %v, discipline %q, warnings %v", row.ExactWait, row.Discipline, r.Warnings)
	}
}
