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
// of the dispatchers (before Config.Dispatchers existed).
var goldenValues = map[string][2]uint64{
	"rnd/fcfs/T=0/tally=false":                   {0x4022f89c6c2db80b, 0x4024fbea1370e0bc},
	"rnd/ps/T=0/tally=false":                     {0x400f3c0a52f5d883, 0x4013a4a078013da7},
	"rnd:weights=1@1.2/9@1/fcfs/T=0/tally=false": {0x40239bdbc1a32182, 0x40259f2968e64a35},
	"rnd:weights=1@1.2/9@1/ps/T=0/tally=false":   {0x401067f965f75a80, 0x40146e94b47dabe9},
	"rr/fcfs/T=0/tally=false":                    {0x401842b67cb7e8da, 0x401c4951cb3e3a40},
	"rr/ps/T=0/tally=false":                      {0x4002eca1e39ee582, 0x400af9d880ab884b},
	"rr:weights=1@1.2/9@1/fcfs/T=0/tally=false":  {0x401ed6aa1b0b1a22, 0x40216ea2b4c8b5c5},
	"rr:weights=1@1.2/9@1/ps/T=0/tally=false":    {0x4007d7da561fd557, 0x400fe510f32c7823},
	"ll:d=2/fcfs/T=0/tally=false":                {0x3ff624b38ca972ac, 0x40031f9063615c22},
	"ll:d=2/fcfs/T=5/tally=false":                {0x400446693d788d39, 0x400c539fda853001},
	"ll:d=2/fcfs/T=5/tally=true":                 {0x3ff65ece85c4b52a, 0x40033c9ddfeefd60},
	"ll:d=2/ps/T=0/tally=false":                  {0x3feff6fffe50e07f, 0x40000af69ca0daee},
	"ll:d=2/ps/T=5/tally=false":                  {0x3ff70a3d92f8b16b, 0x400392556688fb81},
	"ll:d=2/ps/T=5/tally=true":                   {0x3ff09aecff3ebc78, 0x40005aad1cac0109},
	"ll:d=3/fcfs/T=0/tally=false":                {0x3fe938679bd3dae1, 0x3ffcb6a108033309},
	"ll:d=3/fcfs/T=5/tally=false":                {0x400650f50a3520bf, 0x400e5e2ba741c38b},
	"ll:d=3/fcfs/T=5/tally=true":                 {0x3feac1cb58494a0c, 0x3ffd7b52e63deaa0},
	"ll:d=3/ps/T=0/tally=false":                  {0x3fe754589ff47217, 0x3ffbc4998a137ea2},
	"ll:d=3/ps/T=5/tally=false":                  {0x3ffa3abf169bd11b, 0x40052a96285a8b5b},
	"ll:d=3/ps/T=5/tally=true":                   {0x3fe84cadf7788f4f, 0x3ffc40c435d58d3d},
	"ll:d=2,replace=1/fcfs/T=0/tally=false":      {0x3ffadde53b924541, 0x40057c293ad5c56d},
	"ll:d=2,replace=1/fcfs/T=5/tally=false":      {0x4006a85eb864f7ab, 0x400eb59555719a74},
	"ll:d=2,replace=1/fcfs/T=5/tally=true":       {0x3ffb7824a9f244e3, 0x4005c948f205c53b},
	"ll:d=2,replace=1/ps/T=0/tally=false":        {0x3ff1c16107e44d03, 0x4000ede720fec94c},
	"ll:d=2,replace=1/ps/T=5/tally=false":        {0x3ff9193fb89ac2b6, 0x400499d6795a0428},
	"ll:d=2,replace=1/ps/T=5/tally=true":         {0x3ff202a83317e566, 0x40010e8ab6989580},
	"ll:d=2,mem=1/fcfs/T=0/tally=false":          {0x3fe6ba924b0c6553, 0x3ffb77b65f9f7843},
	"ll:d=2,mem=1/fcfs/T=5/tally=false":          {0x4013eab83ea48996, 0x4017f1538d2adafa},
	"ll:d=2,mem=1/fcfs/T=5/tally=true":           {0x3fe9f633f473d434, 0x3ffd158734532fb2},
	"ll:d=2,mem=1/ps/T=0/tally=false":            {0x3fe727209b36bf27, 0x3ffbadfd87b4a52c},
	"ll:d=2,mem=1/ps/T=5/tally=false":            {0x400a73c02753f720, 0x4011407b62304cf6},
	"ll:d=2,mem=1/ps/T=5/tally=true":             {0x3fea8ec207452b57, 0x3ffd61ce3dbbdb44},
	"lwl/fcfs/T=0/tally=false":                   {0x3fdf955ee59eed9a, 0x3ff7ffc4f3810101},
	"lwl/fcfs/T=5/tally=false":                   {0x4019cb16732623bc, 0x401dd1b1c1ac7520},
	"lwl/fcfs/T=5/tally=true":                    {0x3fe0ca647570d570, 0x3ff87f9f74d1b052},
	"lwl/ps/T=0/tally=false":                     {0x3fe0519daa4b0b3f, 0x3ff8433c0f3ecb37},
	"lwl/ps/T=5/tally=false":                     {0x400fdf39dd807484, 0x4013f6383d468ba9},
	"lwl/ps/T=5/tally=true":                      {0x3fe167c4ac658701, 0x3ff8ce4f904c091c},
	"jsq:d=2/fcfs/T=0/tally=false":               {0x400139a908e403fb, 0x400946dfa5f0a6c9},
	"jsq:d=2/fcfs/T=5/tally=false":               {0x400b64e377d0cdaa, 0x4011b90d0a6eb83c},
	"jsq:d=2/fcfs/T=5/tally=true":                {0x400876a4a911992c, 0x401041eda30f1dfd},
	"jsq:d=2/ps/T=0/tally=false":                 {0x3ff05e0265138d20, 0x40003c37cf96695b},
	"jsq:d=2/ps/T=5/tally=false":                 {0x3ffae426a7906bbe, 0x40057f49f0d4d8ab},
	"jsq:d=2/ps/T=5/tally=true":                  {0x3ff887c1a8bd5a22, 0x40045117716b4fe1},
	"jsq:d=3/fcfs/T=0/tally=false":               {0x3ff6b57c61cab437, 0x400367f4cdf1fce8},
	"jsq:d=3/fcfs/T=5/tally=false":               {0x400bb484e962ab26, 0x4011e0ddc337a6f5},
	"jsq:d=3/fcfs/T=5/tally=true":                {0x4004d10be6436e1a, 0x400cde42835010e9},
	"jsq:d=3/ps/T=0/tally=false":                 {0x3fe72b99e2f4e429, 0x3ffbb03a2b93b7ab},
	"jsq:d=3/ps/T=5/tally=false":                 {0x3ffcf9ac9a7a1ed9, 0x40068a0cea49b238},
	"jsq:d=3/ps/T=5/tally=true":                  {0x3ff57d15dbe8113b, 0x4002cbc18b00ab6b},
	"jsq:d=2,mem=1/fcfs/T=0/tally=false":         {0x3ff718b493b56c00, 0x40039990e6e758cd},
	"jsq:d=2,mem=1/fcfs/T=5/tally=false":         {0x4019bcd35765f052, 0x401dc36ea5ec41b8},
	"jsq:d=2,mem=1/fcfs/T=5/tally=true":          {0x40059a7f8ab52e19, 0x400da7b627c1d0e5},
	"jsq:d=2,mem=1/ps/T=0/tally=false":           {0x3fe7902a34705e25, 0x3ffbe282545174a9},
	"jsq:d=2,mem=1/ps/T=5/tally=false":           {0x4007bd8abbc63af7, 0x400fcac158d2ddc7},
	"jsq:d=2,mem=1/ps/T=5/tally=true":            {0x3ff5fdbc2a500c13, 0x40030c14b234a8d5},
	"jsq/fcfs/T=0/tally=false":                   {0x3fec4bc79053f9e9, 0x3ffe40510243428a},
	"jsq/fcfs/T=5/tally=false":                   {0x40195342426346f7, 0x401d59dd90e99860},
	"jsq/fcfs/T=5/tally=true":                    {0x400361d5f61d6b45, 0x400b6f0c932a0e12},
	"jsq/ps/T=0/tally=false":                     {0x3fd7031fc9c7de55, 0x3ff5db352c8b3d2e},
	"jsq/ps/T=5/tally=false":                     {0x40117ea7bd587314, 0x401585430bdec47b},
	"jsq/ps/T=5/tally=true":                      {0x3ff3f9f6494100f4, 0x40020a31c1ad2346},
	"sed/fcfs/T=0/tally=false":                   {0x3fec4bc79053f9e9, 0x3ffe40510243428a},
	"sed/fcfs/T=5/tally=false":                   {0x40195342426346f7, 0x401d59dd90e99860},
	"sed/fcfs/T=5/tally=true":                    {0x400361d5f61d6b45, 0x400b6f0c932a0e12},
	"sed/ps/T=0/tally=false":                     {0x3fd7031fc9c7de55, 0x3ff5db352c8b3d2e},
	"sed/ps/T=5/tally=false":                     {0x40117ea7bd587314, 0x401585430bdec47b},
	"sed/ps/T=5/tally=true":                      {0x3ff3f9f6494100f4, 0x40020a31c1ad2346},
	"sed:d=2/fcfs/T=0/tally=false":               {0x400139a908e403fb, 0x400946dfa5f0a6c9},
	"sed:d=2/fcfs/T=5/tally=false":               {0x400b64e377d0cdaa, 0x4011b90d0a6eb83c},
	"sed:d=2/fcfs/T=5/tally=true":                {0x400876a4a911992c, 0x401041eda30f1dfd},
	"sed:d=2/ps/T=0/tally=false":                 {0x3ff05e0265138d20, 0x40003c37cf96695b},
	"sed:d=2/ps/T=5/tally=false":                 {0x3ffae426a7906bbe, 0x40057f49f0d4d8ab},
	"sed:d=2/ps/T=5/tally=true":                  {0x3ff887c1a8bd5a22, 0x40045117716b4fe1},
	"sita:cut=3,c=6/fcfs/T=0/tally=false":        {0x400840a2e4001b96, 0x401026ecc0865f32},
	"sita:cut=3,c=6/ps/T=0/tally=false":          {0x400eb03481594e64, 0x40135eb58f32f899},
	"jiq/fcfs/T=0/tally=false":                   {0x3ff2d17c5c4a3aec, 0x400175f4cb31c042},
	"jiq/fcfs/T=5/tally=false":                   {0x40193358e246bb3f, 0x401d39f430cd0ca4},
	"jiq/fcfs/T=5/tally=true":                    {0x401f0d9bd3f006af, 0x40218a1b913b2c0b},
	"jiq/ps/T=0/tally=false":                     {0x3fddcc70e85476bc, 0x3ff78d89742e6346},
	"jiq/ps/T=5/tally=false":                     {0x400f3fa3901b62ef, 0x4013a66d169402e0},
	"jiq/ps/T=5/tally=true":                      {0x4009bdba6cf75339, 0x4010e5788501fb01},
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
