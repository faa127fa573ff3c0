package lbsim

import (
	"fmt"
	"math"
	"os"
	"testing"
)

// goldenSpecs are the policies of the golden runs: every built-in policy
// and the variants with their own dispatchers (memory, replacement,
// weights, SED, SITA), each live and on a board (with and without tally)
// where it reads state, under FCFS and PS.
var goldenSpecs = []string{"rnd", "rnd:weights=1.2/1/1/1/1/1/1/1/1/1", "rr", "rr:weights=1.2/1/1/1/1/1/1/1/1/1",
	"ll:d=2", "ll:d=3", "ll:d=2,replace=1", "ll:d=2,mem=1", "lwl", "jsq:d=2", "jsq:d=3", "jsq:d=2,mem=1", "jsq",
	"sed", "sed:d=2", "sita:cut=3,c=6", "jiq"}

// goldenConfigs are the golden runs: K = 10 at load 0.8, H2 sizes of SCV 4.
func goldenConfigs(t *testing.T) []Config {
	h2, err := NewH2Balanced(1, 4)
	if err != nil {
		t.Fatal(err)
	}
	var out []Config
	for _, spec := range goldenSpecs {
		p, err := ParsePolicy(spec)
		if err != nil {
			t.Fatal(err)
		}
		boards := []struct {
			refresh float64
			tally   bool
		}{{0, false}}
		if Describe(p, Config{}).Reads != NoState {
			boards = append(boards, struct {
				refresh float64
				tally   bool
			}{5, false}, struct {
				refresh float64
				tally   bool
			}{5, true})
		}
		for _, disc := range []Discipline{FCFS, PS} {
			for _, b := range boards {
				out = append(out, Config{Servers: 10, Load: 0.8, Sizes: h2, Policy: p, Refresh: b.refresh, Tally: b.tally,
					Discipline: disc, Jobs: 3000, Warmup: 500, Reps: 2, Seed: 24, Workers: 1})
			}
		}
	}
	return out
}

func goldenName(c Config) string {
	return fmt.Sprintf("%s/%s/T=%g/tally=%v", c.Policy, c.Discipline, c.Refresh, c.Tally)
}

// goldenValues are the bits of the mean wait and mean response of each
// golden run, as printed by TestPrintGolden on commit e73d20f, the parent
// of the dispatchers (before Config.Dispatchers existed); under PS
// reprinted when the preemptive run's end changed (sim.hasTail).
var goldenValues = map[string][2]uint64{
	"rnd/fcfs/T=0/tally=false":                   {0x4022f89c6c2db80b, 0x4024fbea1370e0bc},
	"rnd/ps/T=0/tally=false":                     {0x400ffcae7c3be2f2, 0x401404f28ca442df},
	"rnd:weights=1@1.2/9@1/fcfs/T=0/tally=false": {0x40239bdbc1a32182, 0x40259f2968e64a35},
	"rnd:weights=1@1.2/9@1/ps/T=0/tally=false":   {0x4010f2313f274e5e, 0x4014f8cc8dad9fc6},
	"rr/fcfs/T=0/tally=false":                    {0x401842b67cb7e8da, 0x401c4951cb3e3a40},
	"rr/ps/T=0/tally=false":                      {0x40031747c4045d03, 0x400b247e6110ffcc},
	"rr:weights=1@1.2/9@1/fcfs/T=0/tally=false":  {0x401ed6aa1b0b1a22, 0x40216ea2b4c8b5c5},
	"rr:weights=1@1.2/9@1/ps/T=0/tally=false":    {0x40089e04db0d2372, 0x4010559dbc0ce31f},
	"ll:d=2/fcfs/T=0/tally=false":                {0x3ff624b38ca972ac, 0x40031f9063615c22},
	"ll:d=2/fcfs/T=5/tally=false":                {0x400446693d788d39, 0x400c539fda853001},
	"ll:d=2/fcfs/T=5/tally=true":                 {0x3ff65ece85c4b52a, 0x40033c9ddfeefd60},
	"ll:d=2/ps/T=0/tally=false":                  {0x3ff02287c640fe75, 0x40001e7a802d2209},
	"ll:d=2/ps/T=5/tally=false":                  {0x3ff733bdaf026429, 0x4003a715748dd4e1},
	"ll:d=2/ps/T=5/tally=true":                   {0x3ff0b8b145972068, 0x4000698f3fd83300},
	"ll:d=3/fcfs/T=0/tally=false":                {0x3fe938679bd3dae1, 0x3ffcb6a108033309},
	"ll:d=3/fcfs/T=5/tally=false":                {0x400650f50a3520bf, 0x400e5e2ba741c38b},
	"ll:d=3/fcfs/T=5/tally=true":                 {0x3feac1cb58494a0c, 0x3ffd7b52e63deaa0},
	"ll:d=3/ps/T=0/tally=false":                  {0x3fe788afcfb5ff82, 0x3ffbdec521f44558},
	"ll:d=3/ps/T=5/tally=false":                  {0x3ffa5ed7240cf130, 0x40053ca22f131b66},
	"ll:d=3/ps/T=5/tally=true":                   {0x3fe88cd51f79f699, 0x3ffc60d7c9d640e3},
	"ll:d=2,replace=1/fcfs/T=0/tally=false":      {0x3ffadde53b924541, 0x40057c293ad5c56d},
	"ll:d=2,replace=1/fcfs/T=5/tally=false":      {0x4006a85eb864f7ab, 0x400eb59555719a74},
	"ll:d=2,replace=1/fcfs/T=5/tally=true":       {0x3ffb7824a9f244e3, 0x4005c948f205c53b},
	"ll:d=2,replace=1/ps/T=0/tally=false":        {0x3ff1e4eff97b821a, 0x4000ffae99ca63d8},
	"ll:d=2,replace=1/ps/T=5/tally=false":        {0x3ff944166fcc0d8b, 0x4004af41d4f2a992},
	"ll:d=2,replace=1/ps/T=5/tally=true":         {0x3ff22d830517a82e, 0x400123f81f9876e4},
	"ll:d=2,mem=1/fcfs/T=0/tally=false":          {0x3fe6ba924b0c6553, 0x3ffb77b65f9f7843},
	"ll:d=2,mem=1/fcfs/T=5/tally=false":          {0x4013eab83ea48996, 0x4017f1538d2adafa},
	"ll:d=2,mem=1/fcfs/T=5/tally=true":           {0x3fe9f633f473d434, 0x3ffd158734532fb2},
	"ll:d=2,mem=1/ps/T=0/tally=false":            {0x3fe7587821886604, 0x3ffbc6a94add789c},
	"ll:d=2,mem=1/ps/T=5/tally=false":            {0x400a8f6a5700af4c, 0x40114e507a06a90c},
	"ll:d=2,mem=1/ps/T=5/tally=true":             {0x3feac786085bb44a, 0x3ffd7e303e471fba},
	"lwl/fcfs/T=0/tally=false":                   {0x3fdf955ee59eed9a, 0x3ff7ffc4f3810101},
	"lwl/fcfs/T=5/tally=false":                   {0x4019cb16732623bc, 0x401dd1b1c1ac7520},
	"lwl/fcfs/T=5/tally=true":                    {0x3fe0ca647570d570, 0x3ff87f9f74d1b052},
	"lwl/ps/T=0/tally=false":                     {0x3fe0818c5b1271a9, 0x3ff85b3367a27e6c},
	"lwl/ps/T=5/tally=false":                     {0x40100adf9b956684, 0x4014117aea1bb7ec},
	"lwl/ps/T=5/tally=true":                      {0x3fe19ba85a12c1e9, 0x3ff8e8416722a691},
	"jsq:d=2/fcfs/T=0/tally=false":               {0x400139a908e403fb, 0x400946dfa5f0a6c9},
	"jsq:d=2/fcfs/T=5/tally=false":               {0x400b64e377d0cdaa, 0x4011b90d0a6eb83c},
	"jsq:d=2/fcfs/T=5/tally=true":                {0x400876a4a911992c, 0x401041eda30f1dfd},
	"jsq:d=2/ps/T=0/tally=false":                 {0x3ff07411ddf94d55, 0x4000473f8c094975},
	"jsq:d=2/ps/T=5/tally=false":                 {0x3ffb21591721a563, 0x40059de3289d757d},
	"jsq:d=2/ps/T=5/tally=true":                  {0x3ff8b751d33c2be5, 0x400468df86aab8c2},
	"jsq:d=3/fcfs/T=0/tally=false":               {0x3ff6b57c61cab437, 0x400367f4cdf1fce8},
	"jsq:d=3/fcfs/T=5/tally=false":               {0x400bb484e962ab26, 0x4011e0ddc337a6f5},
	"jsq:d=3/fcfs/T=5/tally=true":                {0x4004d10be6436e1a, 0x400cde42835010e9},
	"jsq:d=3/ps/T=0/tally=false":                 {0x3fe76040ced13e83, 0x3ffbca8da181e4d8},
	"jsq:d=3/ps/T=5/tally=false":                 {0x3ffd2910063c5b8b, 0x4006a1bea02ad092},
	"jsq:d=3/ps/T=5/tally=true":                  {0x3ff5af22eeb9cf0d, 0x4002e4c814698a55},
	"jsq:d=2,mem=1/fcfs/T=0/tally=false":         {0x3ff718b493b56c00, 0x40039990e6e758cd},
	"jsq:d=2,mem=1/fcfs/T=5/tally=false":         {0x4019bcd35765f052, 0x401dc36ea5ec41b8},
	"jsq:d=2,mem=1/fcfs/T=5/tally=true":          {0x40059a7f8ab52e19, 0x400da7b627c1d0e5},
	"jsq:d=2,mem=1/ps/T=0/tally=false":           {0x3fe7b9f9cf743724, 0x3ffbf76a21d36128},
	"jsq:d=2,mem=1/ps/T=5/tally=false":           {0x4007d5700b991cf3, 0x400fe2a6a8a5bfc3},
	"jsq:d=2,mem=1/ps/T=5/tally=true":            {0x3ff633cd2f8f1819, 0x4003271d34d42ed9},
	"jsq/fcfs/T=0/tally=false":                   {0x3fec4bc79053f9e9, 0x3ffe40510243428a},
	"jsq/fcfs/T=5/tally=false":                   {0x40195342426346f7, 0x401d59dd90e99860},
	"jsq/fcfs/T=5/tally=true":                    {0x400361d5f61d6b45, 0x400b6f0c932a0e12},
	"jsq/ps/T=0/tally=false":                     {0x3fd73123c2269179, 0x3ff5e6b62aa2e9f6},
	"jsq/ps/T=5/tally=false":                     {0x40118b5b446f726e, 0x401591f692f5c3d5},
	"jsq/ps/T=5/tally=true":                      {0x3ff430e70dfa20d0, 0x400225aa2409b333},
	"sed/fcfs/T=0/tally=false":                   {0x3fec4bc79053f9e9, 0x3ffe40510243428a},
	"sed/fcfs/T=5/tally=false":                   {0x40195342426346f7, 0x401d59dd90e99860},
	"sed/fcfs/T=5/tally=true":                    {0x400361d5f61d6b45, 0x400b6f0c932a0e12},
	"sed/ps/T=0/tally=false":                     {0x3fd73123c2269179, 0x3ff5e6b62aa2e9f6},
	"sed/ps/T=5/tally=false":                     {0x40118b5b446f726e, 0x401591f692f5c3d5},
	"sed/ps/T=5/tally=true":                      {0x3ff430e70dfa20d0, 0x400225aa2409b333},
	"sed:d=2/fcfs/T=0/tally=false":               {0x400139a908e403fb, 0x400946dfa5f0a6c9},
	"sed:d=2/fcfs/T=5/tally=false":               {0x400b64e377d0cdaa, 0x4011b90d0a6eb83c},
	"sed:d=2/fcfs/T=5/tally=true":                {0x400876a4a911992c, 0x401041eda30f1dfd},
	"sed:d=2/ps/T=0/tally=false":                 {0x3ff07411ddf94d55, 0x4000473f8c094975},
	"sed:d=2/ps/T=5/tally=false":                 {0x3ffb21591721a563, 0x40059de3289d757d},
	"sed:d=2/ps/T=5/tally=true":                  {0x3ff8b751d33c2be5, 0x400468df86aab8c2},
	"sita:cut=3,c=6/fcfs/T=0/tally=false":        {0x400840a2e4001b96, 0x401026ecc0865f32},
	"sita:cut=3,c=6/ps/T=0/tally=false":          {0x400f2a591449615e, 0x40139bc7d8ab0216},
	"jiq/fcfs/T=0/tally=false":                   {0x3ff2d17c5c4a3aec, 0x400175f4cb31c042},
	"jiq/fcfs/T=5/tally=false":                   {0x40193358e246bb3f, 0x401d39f430cd0ca4},
	"jiq/fcfs/T=5/tally=true":                    {0x401f0d9bd3f006af, 0x40218a1b913b2c0b},
	"jiq/ps/T=0/tally=false":                     {0x3fde2eee1b7b4b1b, 0x3ff7a628c0f81860},
	"jiq/ps/T=5/tally=false":                     {0x400f521bf7f9cf88, 0x4013afa94a83392c},
	"jiq/ps/T=5/tally=true":                      {0x400a41cc54bc9638, 0x4011278178e49c82},
}

// TestOneDispatcherBitIdentical: one dispatcher (Dispatchers 0 or 1) gives
// the numbers of the code before several dispatchers, to the last bit, for
// every built-in policy, live and on a board, FCFS and PS.
func TestOneDispatcherBitIdentical(t *testing.T) {
	for _, c := range goldenConfigs(t) {
		want, ok := goldenValues[goldenName(c)]
		if !ok {
			t.Fatalf("%s: no golden value", goldenName(c))
		}
		for _, m := range []int{0, 1} {
			c.Dispatchers = m
			r, err := Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if got := [2]uint64{math.Float64bits(r.Wait.Mean), math.Float64bits(r.Response.Mean)}; got != want {
				t.Errorf("%s, %d dispatcher(s): wait %v, response %v; commit e73d20f gave %v, %v",
					goldenName(c), m, r.Wait.Mean, r.Response.Mean, math.Float64frombits(want[0]), math.Float64frombits(want[1]))
			}
		}
	}
}

// TestPrintGolden prints the golden values (LBSIM_PRINT_GOLDEN=1), to
// record them from a commit.
func TestPrintGolden(t *testing.T) {
	if os.Getenv("LBSIM_PRINT_GOLDEN") == "" {
		t.Skip("set LBSIM_PRINT_GOLDEN=1 to print the golden values")
	}
	for _, c := range goldenConfigs(t) {
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("\t%q: {%#x, %#x},\n", goldenName(c), math.Float64bits(r.Wait.Mean), math.Float64bits(r.Response.Mean))
	}
}
