package lbsim

import (
	"fmt"
	"math"
	"os"
	"testing"
)

// farConfigs are runs beyond farServers, where the run looks ahead
// (sim_ahead.go), the departure indexes load what comes up next
// (radixHeap.soon) and SED's speed groups share one record array: the
// golden runs (dispatchers_golden_test.go) are at K = 10, where none of
// this is at work.
func farConfigs() []Config {
	k := farServers + 904
	var out []Config
	for _, tc := range []struct {
		spec string
		disc Discipline
		m    int
	}{{"rnd", PS, 1}, {"rnd", SRPT, 1}, {"ll:d=2", PS, 1}, {"jsq:d=2", SRPT, 1}, {"sed", FCFS, 1}, {"sed", PS, 1},
		{"jiq", FCFS, 1}, {"lwl", FCFS, 1}, {"jsq", FCFS, 1}, {"lsq:d=1", FCFS, 1}, {"lsq:p=0.1", FCFS, 10}, {"jiq:withdraw=1", FCFS, 10}} {
		p, err := ParsePolicy(tc.spec)
		if err != nil {
			panic(err)
		}
		var speeds []float64
		if tc.disc == FCFS || tc.spec == "sed" { // speed groups (RND, LL-2 and JSQ-2 need equal speeds at this load)
			speeds = FastSlowSpeeds(k, 0.5, 2)
		}
		out = append(out, Config{Servers: k, Speeds: speeds, Load: 0.9, Sizes: Exponential{M: 1}, Policy: p,
			Discipline: tc.disc, Dispatchers: tc.m, Jobs: 40_000, Warmup: 10_000, Seed: 8, Workers: 1})
	}
	return out
}

func farName(c Config) string {
	return fmt.Sprintf("%s/%s/M=%d", c.Policy, c.Discipline, c.Dispatchers)
}

// farValues are the bits of the mean wait and mean response of each far
// run, as printed by TestPrintFar on commit ffd3a5c, before the look-ahead;
// under PS and SRPT reprinted when the preemptive run's end changed
// (sim.hasTail).
var farValues = map[string][2]uint64{
	"rnd/ps/M=1":               {0x4004388eabfae4aa, 0x400c2caa937cd317},
	"rnd/srpt/M=1":             {0x3ff4aae97f58f791, 0x40024990a72e6a36},
	"ll:d=2/ps/M=1":            {0x3fed2037198b7427, 0x3ffe78535bc996f0},
	"jsq:d=2/srpt/M=1":         {0x3fdff5246b0b8400, 0x3ff7e580e9c6bdde},
	"sed/fcfs/M=1":             {0x3fd7e9609dea03c7, 0x3fef7bff2206c4d2},
	"sed/ps/M=1":               {0x3fd851eaca23c70e, 0x3fefb28fc1742eb0},
	"jiq/fcfs/M=1":             {0x0, 0x3fe5783aaff09eee},
	"lwl/fcfs/M=1":             {0x0, 0x3fe5783aaff09eee},
	"jsq/fcfs/M=1":             {0x0, 0x3fe5783aaff09eee},
	"lsq:d=1/fcfs/M=1":         {0x3fe57f1b45605074, 0x3ff5e40539d42ee2},
	"lsq:p=0.1/fcfs/M=10":      {0x3ff68c2085c234ee, 0x4001378af31b1d16},
	"jiq:withdraw=1/fcfs/M=10": {0x3f8306f8c59ea288, 0x3fe5c7ad9989fec6},
}

// TestFarServersSameNumbers: what is done at large K for speed changes no
// number.
func TestFarServersSameNumbers(t *testing.T) {
	for _, c := range farConfigs() {
		r, err := Run(c)
		if err != nil {
			t.Fatal(farName(c), err)
		}
		want, ok := farValues[farName(c)]
		if got := [2]uint64{math.Float64bits(r.Wait.Mean), math.Float64bits(r.Response.Mean)}; !ok || got != want {
			t.Errorf("%s: mean wait and response %v %v (bits %#x), want bits %#x", farName(c), r.Wait.Mean, r.Response.Mean, got, want)
		}
	}
}

// TestPrintFar prints farValues.
func TestPrintFar(t *testing.T) {
	if os.Getenv("LBSIM_PRINT_FAR") == "" {
		t.Skip("set LBSIM_PRINT_FAR=1 to print the far values")
	}
	for _, c := range farConfigs() {
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("\t%q: {%#x, %#x},\n", farName(c), math.Float64bits(r.Wait.Mean), math.Float64bits(r.Response.Mean))
	}
}
