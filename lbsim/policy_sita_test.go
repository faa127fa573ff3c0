package lbsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// SITA splits jobs without looking at the servers, like RND and RR: a group whose servers get
// more work than they can do is unstable even when the total load is below 1, and Validate must
// say so (the handout's c = 1 with K = 100 puts 20% of the work on one server).
func TestSITARejectsAnUnstableGroup(t *testing.T) {
	sizes := NewTwoPointBeta(1, 1000, 0.8) // p = 1000^-0.8; short jobs bring 20% of the work
	base := Config{Servers: 100, Sizes: sizes, Load: 0.5, Jobs: 1000, Seed: 1}
	for _, tc := range []struct {
		c    int
		want string // "" = valid
	}{
		// Short group load lambda (1-p) x_m / c = 10.006/c; long group lambda p x_M / (100-c) = 39.98/(100-c).
		{1, "server 1 (short jobs) has load 10.01"},
		{10, "servers 1..10 (short jobs) have load 1.001"},
		{11, ""},
		{20, ""},
		{60, ""},
		{61, "servers 62..100 (long jobs) have load 1.025"},
	} {
		cfg := base
		cfg.Policy = SITA{C: tc.c}
		err := cfg.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("c=%d: %v, want valid", tc.c, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "c=20")):
			t.Errorf("c=%d: error %v, want it to contain %q and suggest the equal-load c=20", tc.c, err, tc.want)
		}
		cfg.AllowOverload = true
		if err := cfg.Validate(); err != nil {
			t.Errorf("c=%d with AllowOverload: %v", tc.c, err)
		}
	}
}

// SITA on one server: the message must not offer the empty range 1..0.
func TestSITAOneServer(t *testing.T) {
	cfg := Config{Servers: 1, Load: 0.5, Sizes: TwoPoint{Xm: 1, XM: 1000, P: 0.004}, Policy: SITA{C: 1}, Jobs: 1000}
	err := cfg.Validate()
	if err == nil || strings.Contains(err.Error(), "1..0") || !strings.Contains(err.Error(), "at least 2 servers") {
		t.Errorf("SITA with K=1: %v; want a message asking for at least 2 servers", err)
	}
}

// SITA-E: sita:groups=G finds the cutoffs at which every server carries the
// same load, the offered load, to 1e-9, for smooth laws and for an
// empirical law (and its file) whose partial sums do reach the levels.
// Where the law's partial moment is in closed form the cutoffs are checked
// against it too: exponential E[X; X <= x] = 1 - e^-x (1 + x), Pareto
// (alpha 1.5, mean 1, L = 1/3) E[X; X <= x] / E[X] = 1 - sqrt(L/x).
func TestSITAEqualLoadCutoffs(t *testing.T) {
	h2, _ := NewH2Balanced(1, 30)
	pareto, _ := NewPareto(1.5, 1, math.Inf(1))
	emp := NewEmpirical([]float64{1, 1.5, 2, 2.5, 3, 4, 6, 10}) // thirds of the work: 1..3 | 4, 6 | 10
	path := filepath.Join(t.TempDir(), "sizes.csv")
	if err := os.WriteFile(path, []byte("size\n10\n1\n1.5\n6\n2\n2.5\n3\n4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := SizesFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	exp := func(x float64) float64 { return 1 - math.Exp(-x)*(1+x) }
	par := func(x float64) float64 { return 1 - math.Sqrt(pareto.L/x) }
	for _, tc := range []struct {
		sizes   SizeLaw
		k, g    int
		partial func(x float64) float64 // E[X; X <= x] / E[X], nil: not in closed form here
		cuts    []float64               // exact cutoffs, nil: not known here
	}{
		{Exponential{M: 1}, 10, 10, exp, nil},
		{Exponential{M: 1}, 10, 4, exp, nil}, // groups of 3, 3, 2, 2
		{Exponential{M: 1}, 1000, 1000, exp, nil},
		{h2, 100, 100, nil, nil},
		{h2, 7, 3, nil, nil},
		{pareto, 100, 100, par, nil},
		{pareto, 10, 4, par, nil},
		{Erlang{K: 4, M: 1}, 50, 50, nil, nil},
		{emp, 3, 3, nil, []float64{3, 6}},
		{emp, 6, 3, nil, []float64{3, 6}},
		{file, 3, 3, nil, []float64{3, 6}},
	} {
		cfg := Config{Servers: tc.k, Load: 0.7, Sizes: tc.sizes, Policy: SITA{Groups: tc.g}, Jobs: 1000}
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s K=%d groups=%d: %v", tc.sizes, tc.k, tc.g, err)
			continue
		}
		for _, q := range cfg.serverLoads() {
			if math.Abs(q.rho-0.7) > 1e-9*0.7 {
				t.Errorf("%s K=%d groups=%d: servers %d..%d have load %.15g, want 0.7", tc.sizes, tc.k, tc.g, q.from+1, q.to, q.rho)
			}
		}
		g, _ := SITA{Groups: tc.g}.groupsOf(tc.k, tc.sizes)
		if tc.cuts != nil && !slices.Equal(g.cuts, tc.cuts) {
			t.Errorf("%s K=%d groups=%d: cutoffs %v, want %v", tc.sizes, tc.k, tc.g, g.cuts, tc.cuts)
		}
		for i, x := range g.cuts {
			if want := float64(g.from[i+1]) / float64(tc.k); tc.partial != nil && math.Abs(tc.partial(x)-want) > 1e-9*want {
				t.Errorf("%s K=%d groups=%d: cutoff %d = %v has E[X; X <= x]/E[X] = %.15g, want %.15g", tc.sizes, tc.k, tc.g, i+1, x, tc.partial(x), want)
			}
		}
	}
}

// Three groups of H2 sizes (SCV 10), cuts 0.5/3 on 3/3/4 servers at load
// 0.6: each server is an M/G/1 queue of its group's conditional law,
// whose moments are the exponential phases' partial moments, computed
// here by hand: for rate r, P(X <= x) = 1 - e^-rx, E[X; X <= x] = (1 -
// e^-rx (1 + rx))/r, E[X^2; X <= x] = (2 - e^-rx (2 + 2rx + r^2x^2))/r^2.
// FCFS: Pollaczek-Khinchine per group; PS: E[R_g] = E[X|g] / (1 - rho_g).
func TestSITAGroupsExactByHand(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	cuts, servers := []float64{0.5, 3}, []int{3, 3, 4}
	below := func(x float64) (p, m1, m2 float64) {
		for _, ph := range []struct{ w, r float64 }{{h2.P1, h2.Rate1}, {1 - h2.P1, h2.Rate2}} {
			if math.IsInf(x, 1) {
				p, m1, m2 = p+ph.w, m1+ph.w/ph.r, m2+2*ph.w/(ph.r*ph.r)
				continue
			}
			e, rx := math.Exp(-ph.r*x), ph.r*x
			p, m1, m2 = p+ph.w*(1-e), m1+ph.w*(1-e*(1+rx))/ph.r, m2+ph.w*(2-e*(2+2*rx+rx*rx))/(ph.r*ph.r)
		}
		return p, m1, m2
	}
	for _, disc := range []Discipline{FCFS, PS} {
		cfg := Config{Servers: 10, Load: 0.6, Sizes: h2, Policy: SITA{Cuts: cuts, Servers: servers}, Discipline: disc, Jobs: 1000}
		lambda := 0.6 * 10 / h2.Mean()
		var want Reference
		edges := []float64{0, 0.5, 3, math.Inf(1)}
		for g := range servers {
			p0, a0, b0 := below(edges[g])
			p1, a1, b1 := below(edges[g+1])
			pg, m1, m2 := p1-p0, (a1-a0)/(p1-p0), (b1-b0)/(p1-p0)
			rate := lambda * pg / float64(servers[g])
			rho := rate * m1
			w := rate * m2 / (2 * (1 - rho))
			if disc == PS {
				w = m1/(1-rho) - m1
			}
			want.Classes = append(want.Classes, ClassReference{Name: fmt.Sprintf("group %d", g+1), Wait: w, Response: w + m1})
			want.Wait, want.Response = want.Wait+pg*w, want.Response+pg*(w+m1)
		}
		got, ok := Exact(cfg)
		if !ok || len(got.Classes) != 3 {
			t.Fatalf("%s: Exact %+v, %v; want three groups", disc, got, ok)
		}
		close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*b }
		if !close(got.Wait, want.Wait) || !close(got.Response, want.Response) {
			t.Errorf("%s: exact wait %.12g response %.12g, by hand %.12g %.12g", disc, got.Wait, got.Response, want.Wait, want.Response)
		}
		for g, c := range want.Classes {
			if gc := got.Classes[g]; gc.Name != c.Name || !close(gc.Wait, c.Wait) || !close(gc.Response, c.Response) {
				t.Errorf("%s: class %+v, by hand %+v", disc, gc, c)
			}
		}
		t.Logf("%s: wait %.6g, groups %+v", disc, want.Wait, want.Classes)
	}
}

// One cut given as a list is SITA's two groups of today: the same jobs to
// the same servers (same seed, same numbers), the same exact values, the
// short and long classes; so are two equal-load groups and their cutoff.
func TestSITACutsOfOneCutIsSITACut(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	base := Config{Servers: 10, Load: 0.7, Sizes: h2, Jobs: 30_000, Reps: 3, Seed: 5}
	equal, err := SITA{Groups: 2}.groupsOf(10, h2)
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]Policy{
		{SITA{C: 6, Cut: 2}, SITA{Cuts: []float64{2}, Servers: []int{6, 4}}},
		{SITA{Groups: 2}, SITA{C: 5, Cut: equal.cuts[0]}},
	} {
		var res [2]Result
		for i, p := range pair {
			cfg := base
			cfg.Policy = p
			r, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			res[i] = r
		}
		a, b := res[0], res[1]
		if a.Wait != b.Wait || a.Response != b.Response || !reflect.DeepEqual(a.Classes, b.Classes) || !reflect.DeepEqual(a.Exact, b.Exact) {
			t.Errorf("%s and %s differ: wait %v / %v, classes %+v / %+v, exact %+v / %+v", pair[0], pair[1], a.Wait, b.Wait, a.Classes, b.Classes, a.Exact, b.Exact)
		}
		if len(a.Classes) != 2 || a.Classes[0].Name != "short" || a.Exact.Classes[1].Name != "long" {
			t.Errorf("%s: classes %+v, exact %+v; want short and long", pair[1], b.Classes, b.Exact.Classes)
		}
	}
}

// Every way to get several groups wrong is an error naming the value, the
// allowed range and a fix: at parsing, or at Validate (which knows K and
// the law).
func TestSITAGroupsErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"sita:cuts=10/1,servers=3/3/4", "not larger than the one before it"},
		{"sita:cuts=1/1,servers=3/3/4", "not larger than the one before it"},
		{"sita:cuts=0/1,servers=3/3/4", "cutoffs > 0"},
		{"sita:cuts=-1,servers=5/5", "cutoffs > 0"},
		{"sita:cuts=1,servers=3/3/4", "1 cutoff makes 2 groups, but servers lists 3"},
		{"sita:cuts=1/2,servers=5/5", "2 cutoffs make 3 groups, but servers lists 2"},
		{"sita:cuts=1,servers=0/10", "group 1 has 0 servers: need a whole number in 1.."},
		{"sita:cuts=1,servers=2.5/7.5", "group 1 has 2.5 servers: need a whole number"},
		{"sita:cuts=1", "cuts and servers go together"},
		{"sita:servers=5/5", "cuts and servers go together"},
		{"sita:cuts=1,servers=5/5,c=5", "drop c and cut"},
		{"sita:groups=1", "need at least 2 groups"},
		{"sita:groups=0", "need at least 2 groups"},
		{"sita:groups=2.5", "whole number"},
		{"sita:groups=2,c=1", "drop the other parameters"},
		{"sita:cuts=fast,servers=5/5", "cuts=fast is invalid"},
	} {
		if _, err := ParsePolicy(tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.spec, err, tc.want)
		}
	}
	h2, _ := NewH2Balanced(1, 10)
	for _, tc := range []struct {
		p     SITA
		sizes SizeLaw
		want  []string
	}{
		{SITA{Cuts: []float64{1}, Servers: []int{3, 3}}, h2, []string{"servers=3/3", "6 servers in all, K=10", "summing to K"}},
		{SITA{Cuts: []float64{1, 2}, Servers: []int{3, 3, 5}}, h2, []string{"11 servers in all, K=10"}},
		{SITA{Cuts: []float64{math.NaN()}, Servers: []int{5, 5}}, h2, []string{"cutoff no. 1 is NaN"}},
		{SITA{Cuts: []float64{math.Inf(1)}, Servers: []int{5, 5}}, h2, []string{"finite cutoffs"}},
		{SITA{Cuts: []float64{1}, Servers: []int{10, 0}}, h2, []string{"group 2 has 0 servers"}},
		{SITA{Cuts: []float64{}, Servers: []int{10}}, h2, []string{"no cutoffs given"}},
		{SITA{Groups: 11}, h2, []string{"groups=11", "K=10", "groups <= 10"}},
		{SITA{Groups: 1}, h2, []string{"at least 2 groups"}},
		{SITA{Groups: 2, C: 5}, h2, []string{"mixes its forms"}},
		{SITA{Groups: 2}, NewTwoPointBeta(1, 1000, 0.8), []string{"twopoint:xm=1,xM=1000,beta=0.8", "no cutoff gives each server the same load", "servers 1..5", "x = 1000 bring it from 0.2001 to 1", "atom", "sita:cuts=1,servers=2/8"}},
		{SITA{Groups: 2}, Deterministic{X0: 2}, []string{"det:x=2", "x = 2 bring it from 0 to 1", "every job has the same size", "use rnd or rr"}},
		// Levels 0.3, 0.6, 0.8 of the work 30: sizes 3 and 6 bring 0.1 and 0.2 of it, no more than
		// their groups need, but 10 brings 1/3 where the last group needs 0.2.
		{SITA{Groups: 4}, NewEmpirical([]float64{1, 1.5, 2, 2.5, 3, 4, 6, 10}), []string{"empirical", "servers 1..8", "x = 10 bring it from 0.6667 to 1", "more than group 3 needs (0.2)", "sita:cuts=2.5/4/6,servers=3/2/2/3"}},
		{SITA{Groups: 2}, ownSizes{}, []string{"groups=2 needs a size law that knows its moments below a cutoff"}},
	} {
		cfg := Config{Servers: 10, Load: 0.5, Sizes: tc.sizes, Policy: tc.p, Jobs: 1000}
		err := cfg.Validate()
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%+v with %s: %v, want an error containing %q", tc.p, tc.sizes, err, w)
			}
		}
	}
}

// ownSizes is a law of one's own without BelowCut: exponential of mean 1.
type ownSizes struct{}

func (ownSizes) Rand(r *Stream) float64 { return r.ExpFloat64() }
func (ownSizes) Mean() float64          { return 1 }
func (ownSizes) SecondMoment() float64  { return 2 }
func (ownSizes) String() string         { return "own" }
func (ownSizes) Validate() error        { return nil }

// An overloaded group is refused by name, with its load, and the advice
// of the equal-load cutoffs: exponential sizes at load 0.7 (lambda = 7 on
// 10 servers), cuts 0.5/3 on 1/1/8 servers: server 2 gets the work
// E[X; 0.5 < X <= 3] = 1.5 e^-0.5 - 4 e^-3 of each job.
func TestSITARejectsAnUnstableGroupOfSeveral(t *testing.T) {
	cfg := Config{Servers: 10, Load: 0.7, Sizes: Exponential{M: 1}, Policy: SITA{Cuts: []float64{0.5, 3}, Servers: []int{1, 1, 8}}, Jobs: 1000}
	rho := 7 * (1.5*math.Exp(-0.5) - 4*math.Exp(-3))
	err := cfg.Validate()
	for _, want := range []string{"server 2 (group 2 jobs) has load " + loadText(rho), "sita:groups=3"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want an error containing %q", err, want)
		}
	}
}

// The forms' specs read back as themselves, with their labels, rows' c
// (the first group's servers) and classes.
func TestSITAGroupsSpecs(t *testing.T) {
	for _, tc := range []struct {
		spec, label string
		k, c        int
		classes     []string
	}{
		{"sita:cuts=1/10,servers=30/30/40", "SITA-30/30/40 (cuts 1/10)", 100, 30, []string{"group 1", "group 2", "group 3"}},
		{"sita:cuts=2,servers=6/4", "SITA-6/4 (cuts 2)", 10, 6, []string{"short", "long"}},
		{"sita:groups=4", "SITA-E (4 groups)", 10, 3, []string{"group 1", "group 2", "group 3", "group 4"}},
		{"sita:groups=2", "SITA-E (2 groups)", 10, 5, []string{"short", "long"}},
		{"sita:cut=10,c=20", "SITA-20 (cut 10)", 100, 20, []string{"short", "long"}},
	} {
		p, err := ParsePolicy(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if p.String() != tc.spec || Label(p) != tc.label {
			t.Errorf("%s: String %q, label %q; want %q", tc.spec, p, Label(p), tc.label)
		}
		if c := Describe(p, Config{Servers: tc.k}).C; c != tc.c {
			t.Errorf("%s: row's c %d at K=%d, want %d", tc.spec, c, tc.k, tc.c)
		}
		cfg := Config{Servers: tc.k, Load: 0.5, Sizes: Exponential{M: 1}, Policy: p}
		var names []string
		for _, cl := range cfg.classes() {
			names = append(names, cl.Name)
		}
		if !slices.Equal(names, tc.classes) {
			t.Errorf("%s: classes %v, want %v", tc.spec, names, tc.classes)
		}
	}
}

// expSample is n sizes of an exponential law of mean 1 from a fixed seed,
// all distinct (a request log's sizes), and arrival times at rate lambda.
func expSample(n int, lambda float64) (times, sizes []float64) {
	r := rand.New(rand.NewPCG(2024, uint64(n)))
	t := 0.0
	for range n {
		t += r.ExpFloat64() / lambda
		times, sizes = append(times, t), append(sizes, r.ExpFloat64())
	}
	return times, sizes
}

// writeSizes writes sizes one a line under a header and reads them back as
// a size file; writeTrace writes a trace CSV and loads it.
func writeSizes(t *testing.T, name string, sizes []float64) SizeFile {
	t.Helper()
	var b strings.Builder
	b.WriteString("size\n")
	for _, x := range sizes {
		b.WriteString(fmtNum(x) + "\n")
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	law, err := SizesFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return law
}

func writeTrace(t *testing.T, name string, times, sizes []float64) *Trace {
	t.Helper()
	var b strings.Builder
	if err := (Trace{Times: times, Sizes: sizes}).WriteTrace(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := LoadTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	return &tr
}

// SITA-E on a request log (issue 50, R4): an empirical law of 10,000
// distinct sizes, as a size file, a trace and an empirical: spec, jumps
// over every equal-load level by a 1e-4 of the work or so, far less than a
// group needs. Each cutoff is then a size of the sample, and the groups'
// shares of the work that SizeClasses and the run's summary report are
// those summed here from the sample itself (the sizes in each cutoff
// interval over all of them), each off its servers' share n_g/K by at most
// half the work of the sizes at its two cutoffs.
func TestSITAEqualLoadOnManySizes(t *testing.T) {
	times, sample := expSample(10_000, 7)
	spec := make([]string, 1000)
	for i, x := range sample[:1000] {
		spec[i] = fmtNum(x)
	}
	short, err := ParseSizes("empirical:" + strings.Join(spec, ","))
	if err != nil {
		t.Fatal(err)
	}
	file, trace := writeSizes(t, "sizes.txt", sample), writeTrace(t, "trace.csv", times, sample)
	for _, tc := range []struct {
		name   string
		sizes  SizeLaw
		trace  *Trace
		sample []float64
		k, g   int
		run    string // the summary's line on the shares, "" to not run
	}{
		{"file", file, nil, sample, 10, 10, "SITA-E cutoffs are sizes of the law: a group's share of the work is %.4g (group %d) to %.4g (group %d) times its servers' share n_g/K"},
		{"file", file, nil, sample, 10, 4, "SITA-E cutoffs %s are sizes of the law: the groups' shares of the work are %s, for servers' shares 0.3/0.3/0.2/0.2"},
		{"file", file, nil, sample, 100, 100, ""},
		{"trace", nil, trace, sample, 10, 10, "a group's share of the work is %.4g (group %d) to %.4g (group %d) times its servers' share n_g/K"},
		{"trace", nil, trace, sample, 20, 7, ""},
		{"spec", short, nil, sample[:1000], 10, 5, ""},
	} {
		cfg := Config{Servers: tc.k, Load: 0.7, Sizes: tc.sizes, Trace: tc.trace, Policy: SITA{Groups: tc.g}, Jobs: 20_000, Seed: 3}
		if tc.trace != nil {
			cfg.Jobs = 0 // all of it
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s K=%d groups=%d: %v", tc.name, tc.k, tc.g, err)
			continue
		}
		total, mass := 0.0, map[float64]float64{} // a size's work
		for _, x := range tc.sample {
			total, mass[x] = total+x, mass[x]+x
		}
		cls := cfg.SizeClasses()
		var works, cuts []string
		lo, lowest, highest := 0.0, 0, 0
		ratios := make([]float64, len(cls))
		for i, cl := range cls {
			if _, ok := mass[cl.Upper]; !ok && i < len(cls)-1 {
				t.Errorf("%s K=%d groups=%d: cutoff %d = %v is not a size of the sample", tc.name, tc.k, tc.g, i+1, cl.Upper)
			}
			work := 0.0
			for _, x := range tc.sample {
				if x > lo && x <= cl.Upper {
					work += x
				}
			}
			work /= total
			share := float64(cl.To-cl.From) / float64(tc.k)
			if math.Abs(cl.Work-work) > 1e-12 {
				t.Errorf("%s K=%d groups=%d: group %d reports %.15g of the work, the sample gives %.15g", tc.name, tc.k, tc.g, i+1, cl.Work, work)
			}
			if off, bound := math.Abs(work-share), (mass[lo]+mass[cl.Upper])/2/total; off > bound+1e-12 || off == 0 {
				t.Errorf("%s K=%d groups=%d: group %d has %.6g of the work for a share %.6g of the servers: off by %.3g, want in (0, %.3g]", tc.name, tc.k, tc.g, i+1, work, share, off, bound)
			}
			ratios[i] = work / share
			if ratios[i] < ratios[lowest] {
				lowest = i
			}
			if ratios[i] > ratios[highest] {
				highest = i
			}
			works = append(works, fmt.Sprintf("%.4g", work))
			if i < len(cls)-1 {
				cuts = append(cuts, fmtNum(cl.Upper))
			}
			lo = cl.Upper
		}
		if tc.run == "" {
			continue
		}
		want := fmt.Sprintf(tc.run, ratios[lowest], lowest+1, ratios[highest], highest+1)
		if tc.g <= 8 {
			want = fmt.Sprintf(tc.run, strings.Join(cuts, "/"), strings.Join(works, "/"))
		}
		res, err := Run(cfg)
		if err != nil || !strings.Contains(res.String(), want) {
			t.Errorf("%s K=%d groups=%d: %v; want the summary to say %q:\n%s", tc.name, tc.k, tc.g, err, want, res)
		}
	}
}

// A real atom: 40 jobs of size 50 bring 2/3 of the work of a log whose
// other 1000 sizes are exponential. With 10 groups no size of the law cuts
// near the equal-load levels beyond 1/3, so SITA-E is refused, with a
// message that names the file or the trace, not its sizes, and stays short;
// its fix keeps 3 groups where they can carry the load (one of them the
// atom's), takes fewer where 10 groups leave the atom too few servers.
func TestSITARealAtomRefusedBriefly(t *testing.T) {
	times, sizes := expSample(1040, 2.4)
	for i := range 40 {
		sizes[25*i+3] = 50
	}
	file, trace := writeSizes(t, "atom.txt", sizes), writeTrace(t, "atom.csv", times, sizes)
	for _, tc := range []struct {
		sizes  SizeLaw
		trace  *Trace
		groups int
		path   string
		fix    int // groups of the fix
	}{
		{file, nil, 10, file.Path, 6},
		{file, nil, 3, file.Path, 3},
		{nil, trace, 10, trace.Source, 6},
		{nil, trace, 3, trace.Source, 3},
	} {
		cfg := Config{Servers: 10, Load: 0.7, Sizes: tc.sizes, Trace: tc.trace, Policy: SITA{Groups: tc.groups}, Jobs: 1000}
		if tc.trace != nil {
			cfg.Load = 0 // its own, about 0.7
		}
		err := cfg.Validate()
		if err == nil {
			t.Errorf("%s groups=%d: no error, want the atom at 50 refused", tc.path, tc.groups)
			continue
		}
		msg := err.Error()
		if len(msg) >= 500 || !strings.Contains(msg, tc.path) || !strings.Contains(msg, "x = 50 bring it from") || strings.Contains(msg, "empirical") {
			t.Errorf("%s groups=%d: %d bytes: %.600s\nwant under 500 bytes, naming %s and the atom at 50, not the sizes", tc.path, tc.groups, len(msg), msg, tc.path)
		}
		fix := regexp.MustCompile(`e\.g\. (sita:\S+)`).FindStringSubmatch(msg)
		if fix == nil {
			t.Errorf("%s groups=%d: %s: no fix", tc.path, tc.groups, msg)
			continue
		}
		if p, err := ParsePolicy(fix[1]); err != nil || len(p.(SITA).Servers) != tc.fix {
			t.Errorf("%s groups=%d: fix %s (%v), want %d groups", tc.path, tc.groups, fix[1], err, tc.fix)
		}
	}
}

// fixPolicy finds the policies an error suggests (sita:..., rnd, rr:weights=speed,
// sed, ...); fixServers and fixLoad its -servers N and "lower the load below X".
var (
	fixPolicy  = regexp.MustCompile(`\bsita:[a-z]+=[^\s,;()]+(?:,[a-z]+=[^\s,;()]+)*|\b(?:rnd|rr|sed|jsq|lwl)\b(?::[a-z]+=[^\s,;()]+(?:,[a-z]+=[^\s,;()]+)*)?`)
	fixServers = regexp.MustCompile(`-servers (\d+)`)
	fixLoad    = regexp.MustCompile(`lower the load below ([0-9.e+-]+)`)
)

// Every fix a SITA refusal suggests is a configuration the tool accepts
// (issue 50, R7: an overloaded sita:cuts=1/3,servers=1/1/2 on speeds
// 2,1,1,0.5 suggested sita:groups=3, refused in turn). Over a table of bad
// configurations (overloaded groups, atoms, speeds, cuts, servers, groups,
// c), each suggested policy, server count or load is put in the refused
// configuration in its place and must pass Validate; each refusal but
// those marked offers one fix at least.
func TestSITAFixesAreAccepted(t *testing.T) {
	h2, _ := NewH2Balanced(1, 10)
	exp, tp, det := Exponential{M: 1}, NewTwoPointBeta(1, 1000, 0.8), Deterministic{X0: 2}
	emp := NewEmpirical([]float64{1, 1.5, 2, 2.5, 3, 4, 6, 10})
	times, sizes := expSample(1040, 2.4)
	for i := range 40 {
		sizes[25*i+3] = 50
	}
	atomFile, atomTrace := writeSizes(t, "atom.txt", sizes), writeTrace(t, "atom.csv", times, sizes)
	speeds := []float64{2, 1, 1, 0.5}
	for _, tc := range []struct {
		k      int
		speeds []float64
		load   float64
		sizes  SizeLaw
		p      SITA
		none   bool // no fix expected
	}{
		// overloaded groups
		{10, nil, 0.7, exp, SITA{Cuts: []float64{0.5, 3}, Servers: []int{1, 1, 8}}, false},
		{4, speeds, 0.8, exp, SITA{Cuts: []float64{1, 3}, Servers: []int{1, 1, 2}}, false},
		{4, speeds, 0.8, exp, SITA{Groups: 3}, false},
		{4, speeds, 0.8, h2, SITA{C: 1, Cut: 2}, false},
		{10, nil, 0.7, exp, SITA{C: 1, Cut: 2}, false},
		{100, nil, 0.5, tp, SITA{C: 1}, false},
		{100, nil, 0.5, tp, SITA{C: 61}, false},
		{4, speeds, 0.8, tp, SITA{C: 3}, false},
		// atoms
		{10, nil, 0.5, tp, SITA{Groups: 2}, false},
		{10, nil, 0.5, det, SITA{Groups: 2}, false},
		{4, speeds, 0.8, det, SITA{Groups: 2}, false},
		{10, nil, 0.5, emp, SITA{Groups: 4}, false},
		{10, nil, 0.7, atomFile, SITA{Groups: 10}, false},
		{10, nil, 0.7, atomFile, SITA{Groups: 3}, false},
		{10, nil, 0, nil, SITA{Groups: 10}, false}, // the atom's trace
		// cuts and servers
		{10, nil, 0.5, h2, SITA{Cuts: []float64{10, 1}, Servers: []int{3, 3, 4}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{1, 1}, Servers: []int{3, 3, 4}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{0, 1}, Servers: []int{3, 3, 4}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{-1}, Servers: []int{5, 5}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{math.Inf(1)}, Servers: []int{5, 5}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{1, 2}, Servers: []int{5, 5}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{1}, Servers: []int{3, 3, 4}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{1}, Servers: []int{3, 3}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{1, 2}, Servers: []int{3, 3, 5}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{1}, Servers: []int{10, 0}}, false},
		{10, nil, 0.5, h2, SITA{Cuts: []float64{}, Servers: []int{10}}, false},
		{4, speeds, 0.8, exp, SITA{Cuts: []float64{1}, Servers: []int{1, 1}}, true}, // two groups carry at most 0.972 of this work
		// groups, c and cut
		{10, nil, 0.5, h2, SITA{Groups: 11}, false},
		{4, speeds, 0.6, exp, SITA{Groups: 5}, false},
		{10, nil, 0.5, h2, SITA{Groups: 1}, false},
		{100, nil, 0.5, tp, SITA{C: 0}, false},
		{10, nil, 0.5, tp, SITA{C: 10}, false},
		{10, nil, 0.5, exp, SITA{C: 0, Cut: 2}, false},
		{10, nil, 0.5, exp, SITA{C: 5}, false},
		{10, nil, 0.5, exp, SITA{C: 5, Cut: -1}, false},
		{1, nil, 0.5, tp, SITA{C: 1}, false},
		{1, nil, 0.5, tp, SITA{Groups: 3}, true}, // x_M's atom: no K fits 3 groups
		{10, nil, 0.5, ownSizes{}, SITA{Groups: 2}, false},
		{10, nil, 0.5, h2, SITA{Groups: 2, C: 5}, true},
	} {
		cfg := Config{Servers: tc.k, Speeds: tc.speeds, Load: tc.load, Sizes: tc.sizes, Policy: tc.p, Jobs: 1000}
		if tc.sizes == nil {
			cfg.Trace = atomTrace
		}
		err := cfg.Validate()
		if err == nil {
			t.Errorf("%s K=%d speeds %v load %v: accepted, want a refusal", tc.p, tc.k, tc.speeds, tc.load)
			continue
		}
		msg := strings.ReplaceAll(err.Error(), tc.p.String(), "") // the refused policy is no fix
		var fixes []Config
		for _, spec := range fixPolicy.FindAllString(msg, -1) {
			p, perr := ParsePolicy(spec)
			if perr != nil {
				t.Errorf("%s: suggests %q, which does not parse: %v\n%s", tc.p, spec, perr, msg)
				continue
			}
			fix := cfg
			fix.Policy = p
			fixes = append(fixes, fix)
		}
		for _, m := range fixServers.FindAllStringSubmatch(msg, -1) {
			fix := cfg
			fix.Servers, _ = strconv.Atoi(m[1])
			fixes = append(fixes, fix)
		}
		for _, m := range fixLoad.FindAllStringSubmatch(msg, -1) {
			fix := cfg
			below, _ := strconv.ParseFloat(m[1], 64)
			fix.Load = math.Nextafter(below, 0)
			fixes = append(fixes, fix)
		}
		if len(fixes) == 0 && !tc.none {
			t.Errorf("%s K=%d speeds %v load %v: no fix in %q", tc.p, tc.k, tc.speeds, tc.load, msg)
		}
		for _, fix := range fixes {
			if err := fix.Validate(); err != nil {
				t.Errorf("%s K=%d speeds %v load %v: refused with\n  %v\nsuggests %s K=%d load %v, refused in turn:\n  %v", tc.p, tc.k, tc.speeds, tc.load, msg, fix.Policy, fix.Servers, fix.Load, err)
			}
		}
		t.Logf("%s: %s", tc.p, msg)
	}
}
