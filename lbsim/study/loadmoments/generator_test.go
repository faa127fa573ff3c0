package loadmoments

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// A constant-rate trace is the arithmetic sequence t_n = n A with size X0.
func TestGeneratorConstantRate(t *testing.T) {
	g := Generator{Sizes: lbsim.Deterministic{X0: 500}, Start: 60, Floor: 60, HoldJobs: 1000, Cycles: 1}
	tr, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 1000 {
		t.Fatalf("len = %d, want 1000", tr.Len())
	}
	for n := range tr.Len() {
		if tr.Times[n] != 60*float64(n) || tr.Sizes[n] != 500 {
			t.Fatalf("job %d = (%v, %v), want (%v, 500)", n, tr.Times[n], tr.Sizes[n], 60*float64(n))
		}
	}
	lo, hi := g.Loads(10)
	if math.Abs(lo-500.0/600) > 1e-15 || lo != hi {
		t.Errorf("loads = %v, %v, want 5/6 both", lo, hi)
	}
}

// The ramp's gaps fall by (Start-Floor)/R per job, so a cycle of R ramp and H
// hold jobs spans R Start - (Start-Floor) R(R-1)/(2R) + H Floor, less the
// first gap of the trace (the first job arrives at 0).
func TestGeneratorRampSpan(t *testing.T) {
	g := Generator{Sizes: lbsim.Deterministic{X0: 1}, Start: 120, Floor: 40, RampJobs: 1500, HoldJobs: 500, Cycles: 2}
	tr, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 4000 {
		t.Fatalf("len = %d, want 4000", tr.Len())
	}
	r, h := 1500.0, 500.0
	cycle := r*120 - 80*(r-1)/2 + h*40
	want := 2*cycle - 120
	if got := tr.Times[tr.Len()-1]; math.Abs(got-want) > 1e-3 {
		t.Errorf("span = %v, want %v", got, want)
	}
	// Inside the ramp every gap is 80/1500 shorter than the one before.
	for j := 2; j < 1500; j++ {
		d := (tr.Times[j] - tr.Times[j-1]) - (tr.Times[j-1] - tr.Times[j-2])
		if math.Abs(d+80.0/1500) > 2.5e-3 {
			t.Fatalf("gap change at job %d = %v, want %v", j, d, -80.0/1500)
		}
	}
	// The second cycle restarts at the slow rate: gap Start after the hold.
	if d := tr.Times[2000] - tr.Times[1999]; math.Abs(d-120) > 1e-3 {
		t.Errorf("first gap of cycle 2 = %v, want 120", d)
	}
	if d := tr.Times[1999] - tr.Times[1998]; math.Abs(d-40) > 1e-3 {
		t.Errorf("hold gap = %v, want 40", d)
	}
}

// Modal sizes are the listed values in equal shares (chi-square, 2 degrees of
// freedom: P(chi2 > 13.8) = 0.001), and the seed alone fixes the trace.
func TestGeneratorModalSeeded(t *testing.T) {
	g := Generator{Sizes: lbsim.NewModal(100, 500, 1000), Start: 60, Floor: 60, HoldJobs: 30000, Cycles: 1, Seed: 7}
	a, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	count := map[float64]float64{}
	for _, x := range a.Sizes {
		count[x]++
	}
	if len(count) != 3 {
		t.Fatalf("sizes %v, want only 100, 500, 1000", count)
	}
	chi2 := 0.0
	for _, c := range count {
		chi2 += (c - 10000) * (c - 10000) / 10000
	}
	if chi2 > 13.8 {
		t.Errorf("chi2 = %v for counts %v: shares are not 1/3", chi2, count)
	}
	b, _ := g.Generate()
	if !slices.Equal(a.Sizes, b.Sizes) || !slices.Equal(a.Times, b.Times) {
		t.Error("the same generator gave two different traces")
	}
	g.Seed = 8
	c, _ := g.Generate()
	if slices.Equal(a.Sizes, c.Sizes) {
		t.Error("seeds 7 and 8 gave the same sizes")
	}
}

func TestGeneratorRoundTrip(t *testing.T) {
	for _, g := range Traces(3) {
		tr, err := g.Generate()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := tr.WriteTrace(&b); err != nil {
			t.Fatal(err)
		}
		back, err := lbsim.ReadTrace(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		if !slices.Equal(back.Times, tr.Times) || !slices.Equal(back.Sizes, tr.Sizes) {
			t.Errorf("%s: CSV round trip changed the trace", g.Name)
		}
	}
}

// The committed data/trace*.csv must be what the generator makes with seed 1
// (go run ./lbsim/cmd/tracegen -out data -seed 1 regenerates them).
func TestTracesMatchData(t *testing.T) {
	gens := Traces(1)
	for i, g := range gens {
		want, err := g.Generate()
		if err != nil {
			t.Fatal(err)
		}
		got, err := lbsim.LoadTrace(filepath.Join("..", "..", "..", "data", g.Name+".csv"))
		if err != nil {
			t.Fatalf("%v (regenerate with go run ./lbsim/cmd/tracegen -out data -seed 1)", err)
		}
		if !slices.Equal(got.Times, want.Times) || !slices.Equal(got.Sizes, want.Sizes) {
			t.Errorf("data/%s.csv differs from the generator: go run ./lbsim/cmd/tracegen -out data -seed 1", g.Name)
		}
		// The study's promises: trace 1 and 2 are underloaded at the
		// constant rate, traces 3 and 4 overload the 10 servers at the floor.
		lo, hi := g.Loads(Servers)
		if i < 2 && (hi >= 1 || lo != hi) {
			t.Errorf("%s: loads %v..%v, want a constant load < 1", g.Name, lo, hi)
		}
		if i >= 2 && (lo >= 0.5 || hi <= 1) {
			t.Errorf("%s: loads %v..%v, want a ramp from below 0.5 into overload", g.Name, lo, hi)
		}
	}
}

func TestGeneratorValidate(t *testing.T) {
	good := Generator{Sizes: lbsim.Deterministic{X0: 1}, Start: 2, Floor: 1, RampJobs: 3, HoldJobs: 1, Cycles: 2}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		edit func(*Generator)
		want string
	}{
		{"no sizes", func(g *Generator) { g.Sizes = nil }, "sizes are missing"},
		{"bad size", func(g *Generator) { g.Sizes = lbsim.Deterministic{X0: -1} }, "-1"},
		{"zero start", func(g *Generator) { g.Start = 0 }, "start interarrival"},
		{"floor above start", func(g *Generator) { g.Floor = 3 }, "floor interarrival 3"},
		{"negative floor", func(g *Generator) { g.Floor = -1 }, "need 0 < floor"},
		{"negative ramp", func(g *Generator) { g.RampJobs = -1 }, "ramp jobs -1"},
		{"no cycles", func(g *Generator) { g.Cycles = 0 }, "cycles 0"},
		{"no jobs", func(g *Generator) { g.RampJobs, g.HoldJobs = 0, 0 }, "0 jobs"},
		{"too many", func(g *Generator) { g.HoldJobs = maxTraceJobs }, "cycles of"},
	}
	for _, c := range cases {
		g := good
		c.edit(&g)
		_, err := g.Generate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func ExampleTraces() {
	for _, g := range Traces(1) {
		tr, err := g.Generate()
		if err != nil {
			fmt.Println(err)
			return
		}
		lo, hi := g.Loads(Servers)
		fmt.Printf("%s: %d jobs over %.0f s, load %.3f -> %.3f\n", g.Name, tr.Len(), tr.Times[tr.Len()-1]/1000, lo, hi)
	}
	// Output:
	// trace1: 4000 jobs over 240 s, load 0.833 -> 0.833
	// trace2: 4000 jobs over 240 s, load 0.889 -> 0.889
	// trace3: 4000 jobs over 280 s, load 0.417 -> 1.250
	// trace4: 4000 jobs over 280 s, load 0.444 -> 1.333
}
