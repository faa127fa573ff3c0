package course

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

func near(got, want, relTol float64) bool { return math.Abs(got-want) <= relTol*math.Abs(want) }

func TestMidpointLoadsAreTheHandoutsXdata(t *testing.T) {
	// R: xdata = (0.5:(B-0.5))/B with B = 10 prints 0.05 0.15 ... 0.95.
	want := []float64{0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95}
	got := MidpointLoads(10)
	if len(got) != len(want) {
		t.Fatalf("len %d, want %d", len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("load %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestHandoutSizes(t *testing.T) {
	s := TheHandout().Sizes()
	// EX = xm (1 - 1/xM^beta) + xM^(1-beta), the handout's own line.
	ex := 1*(1-math.Pow(1000, -0.8)) + math.Pow(1000, 0.2)
	if !near(s.Mean(), ex, 1e-12) {
		t.Errorf("E[X] = %v, want the handout's %v", s.Mean(), ex)
	}
	if scv := lbsim.SCV(s); scv < 155 || scv > 165 {
		t.Errorf("SCV = %v, want about 160 (E[X] = 4.98, E[X^2] = 3982)", scv)
	}
}

func TestReadPrinted(t *testing.T) {
	rows, err := LoadPrinted()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 10 {
		t.Fatalf("%d lines, want the handout's 10", len(rows))
	}
	// Spot values copied from the handout's printout.
	last := rows[9]
	if last.Rho != 0.95 || last.Random != 4398.69389561897 || last.RR != 4296.29082343331 || last.LLd != 675.476173668452 {
		t.Errorf("rho=0.95 line = %+v", last)
	}
	if v, _ := rows[0].Value("LL-2"); v != 4.72371764317381 {
		t.Errorf("rho=0.05 LL-2 = %v", v)
	}
	for i, r := range rows {
		if math.Abs(r.Rho-MidpointLoads(10)[i]) > 1e-12 {
			t.Errorf("line %d has rho %v, not the handout's grid", i, r.Rho)
		}
	}
}

func TestReadPrintedErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"rho,rnd,rr,lld\n0.05,1,2,3\n", "header"},
		{"rho,random,rr,lld\n0.05,1,x,3\n", `line 2: rr="x"`},
		{"rho,random,rr,lld\n", "no data"},
		{"rho,random,rr,lld\n0.05,1,2\n", "wrong number of fields"},
	} {
		_, err := ReadPrinted(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadPrinted(%q) error %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
}

// cfgAt is the handout's configuration (K servers, its sizes) for policy at load rho.
func cfgAt(k int, sizes lbsim.SizeLaw, p lbsim.Policy, rho float64) lbsim.Config {
	return lbsim.Config{Servers: k, Sizes: sizes, Policy: p, Load: rho, Jobs: 1000, Seed: 1}
}

func TestExactAgainstPublishedValues(t *testing.T) {
	s := TheHandout().Sizes()
	// P-K by hand for the handout's sizes: E[W] = rho E[X^2] / (2 E[X] (1 - rho)).
	for _, rho := range []float64{0.05, 0.5, 0.95} {
		ref, ok := AllJobs.Theory(cfgAt(50, s, lbsim.Random{}, rho))
		want := rho * s.SecondMoment() / (2 * s.Mean() * (1 - rho))
		if !ok || !near(ref.Wait, want, 1e-12) {
			t.Errorf("RND rho=%v: %v (%v), want %v", rho, ref.Wait, ok, want)
		}
	}
	// E_K/M/1 values (Kleinrock, Queueing Systems I, sec. 6.4): K=2, rho=0.9: 6.588; K=10: 4.660; K=2, rho=0.5: 0.618.
	for _, c := range []struct {
		k         int
		rho, want float64
	}{{2, 0.9, 6.588}, {10, 0.9, 4.660}, {2, 0.5, 0.618}} {
		ref, ok := AllJobs.Theory(cfgAt(c.k, lbsim.Exponential{M: 1}, lbsim.RoundRobin{}, c.rho))
		if !ok || math.Abs(ref.Wait-c.want) > 0.001 {
			t.Errorf("RR exp K=%d rho=%v: %v (%v), want %v", c.k, c.rho, ref.Wait, ok, c.want)
		}
	}
	// Hellemans & Van Houdt: LL-2 mean response 1.1507 at 0.5 and 2.0503 at 0.9; a mean of 2 doubles the wait.
	for _, c := range []struct{ rho, resp float64 }{{0.5, 1.1507}, {0.9, 2.0503}} {
		ref, ok := AllJobs.Theory(cfgAt(50, lbsim.Exponential{M: 2}, lbsim.LeastLoaded{D: 2}, c.rho))
		if !ok || ref.Kind != lbsim.LimitValue || math.Abs(ref.Wait-2*(c.resp-1)) > 2e-4 {
			t.Errorf("LL-2 limit rho=%v: %+v (%v), want %v", c.rho, ref, ok, 2*(c.resp-1))
		}
	}
	// SITA-20 at rho=0.5, K=100: each group is M/D/1, W = r x / (2 (1 - r)).
	lam := 100 * 0.5 / s.Mean()
	rs, rl := lam*(1-s.P)*s.Xm/20, lam*s.P*s.XM/80
	ws, wl := rs*s.Xm/(2*(1-rs)), rl*s.XM/(2*(1-rl))
	for m, want := range map[JobClass]float64{ShortJobs: ws, LongJobs: wl, AllJobs: (1-s.P)*ws + s.P*wl} {
		ref, ok := m.Theory(cfgAt(100, s, lbsim.SITA{C: 20}, 0.5))
		if !ok || !near(ref.Wait, want, 1e-12) {
			t.Errorf("SITA-20 %v: %v (%v), want %v", m, ref.Wait, ok, want)
		}
	}
	// SITA-1 at rho=0.5 has a short-group load of about 10; RR with two-point sizes has no theory.
	if _, ok := ShortJobs.Theory(cfgAt(100, s, lbsim.SITA{C: 1}, 0.5)); ok {
		t.Error("SITA-1 at rho=0.5: theory for an unstable group")
	}
	if _, ok := ShortJobs.Theory(cfgAt(50, s, lbsim.RoundRobin{}, 0.5)); ok {
		t.Error("RR short jobs: theory where there is none")
	}
}

// handoutGrid is the handout's sweep, shortened.
func handoutGrid(h Handout, sizes lbsim.SizeLaw, reps int, pol ...lbsim.Policy) lbsim.Grid {
	return lbsim.Grid{
		Base:     lbsim.Config{Servers: h.Servers, Sizes: sizes, Jobs: h.Jobs, Reps: reps, Seed: h.Seed},
		Policies: pol,
		Loads:    h.Loads,
	}
}

// rowsFor simulates the handout's grid, small and fast.
func rowsFor(t *testing.T, h Handout, sizes lbsim.SizeLaw, reps int, pol ...lbsim.Policy) []lbsim.Row {
	t.Helper()
	rows, err := lbsim.Sweep(handoutGrid(h, sizes, reps, pol...), nil)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestGridSimulatesTheTheory(t *testing.T) {
	h := TheHandout()
	h.Jobs, h.Servers, h.Loads = 200_000, 10, []float64{0.3, 0.6}
	rows := rowsFor(t, h, lbsim.Exponential{M: 1}, 5, lbsim.Random{}, lbsim.RoundRobin{})
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 2 policies x 2 loads", len(rows))
	}
	for _, p := range WaitTable(rows, AllJobs) {
		// A 5-replication t interval: allow 2 half-widths so the test is not a coin flip.
		if math.IsNaN(p.Theory) || math.Abs(p.Dev) > 2 {
			t.Errorf("%s at %v: %v ± %v, exact %v", p.Policy, p.Load, p.Wait, p.CI95, p.Theory)
		}
	}
	rs, err := Ratios(rows, [][2]string{{"RND", "RR"}}, []float64{0.6})
	if err != nil {
		t.Fatal(err)
	}
	// RND: M/M/1, 0.6/0.4 = 1.5; RR: E_10/M/1 from the GI/M/1 root.
	rr, _ := AllJobs.Theory(cfgAt(10, lbsim.Exponential{M: 1}, lbsim.RoundRobin{}, 0.6))
	if r := rs[0]; math.Abs(r.Theory-1.5/rr.Wait) > 1e-9 || math.Abs(r.Simulated-r.Theory) > 2*r.CI95 {
		t.Errorf("RND/RR at 0.6 = %+v, exact %v", r, 1.5/rr.Wait)
	}
	if _, err := Ratios(rows, [][2]string{{"LL-2", "RR"}}, []float64{0.6}); err == nil || !strings.Contains(err.Error(), "LL-2") {
		t.Errorf("missing policy: error %v", err)
	}
}

func TestWaitFigureAndComparison(t *testing.T) {
	h := TheHandout()
	h.Jobs = 50_000
	rows := rowsFor(t, h, h.Sizes(), 2, HandoutPolicies()...)
	fig, err := WaitFigure("t", rows, AllJobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Series) != 3 || fig.Series[2].Name != "LL-2" || len(fig.Series[0].Y) != 10 {
		t.Fatalf("series %+v", fig.Series)
	}
	if fig.Series[1].CI[3] != rows[13].MeanWaitCI95 {
		t.Errorf("RR CI at 0.35 = %v, want the row's %v", fig.Series[1].CI[3], rows[13].MeanWaitCI95)
	}
	// Theory knows only RND for these sizes: one curve, over the simulated loads.
	if len(fig.Curves) != 1 || fig.Curves[0].Of != "RND" || fig.Curves[0].X[0] != 0.05 || fig.Curves[0].X[len(fig.Curves[0].X)-1] != 0.95 {
		t.Fatalf("curves %+v", fig.Curves)
	}
	if _, err := fig.Plot(); err != nil {
		t.Fatal(err)
	}
	printed, err := LoadPrinted()
	if err != nil {
		t.Fatal(err)
	}
	b := CompareWithPrinted(printed, rows)
	if len(b) != 30 {
		t.Fatalf("%d comparisons, want 30", len(b))
	}
	// At rho = 0.95 the printed RND value is about 58% of the exact 400*0.95/0.05 = 7600.
	last := b[9]
	if last.Policy != "RND" || last.Load != 0.95 || !near(last.Exact, 7600, 0.002) || last.PrintedVsWait > 0.6 {
		t.Errorf("rho=0.95 RND comparison %+v", last)
	}
	// The handout's measure exceeds the wait by about E[(X - A)^+] > 0 for every job.
	for _, x := range b {
		if x.HandoutWait <= x.MeanWait {
			t.Errorf("%s %v: handout measure %v <= wait %v", x.Policy, x.Load, x.HandoutWait, x.MeanWait)
		}
	}
}

func TestSITASweepFigure(t *testing.T) {
	h := TheHandout()
	h.Jobs, h.Servers, h.Loads = 100_000, 100, []float64{0.5}
	pols := []lbsim.Policy{lbsim.SITA{C: 15}, lbsim.SITA{C: 20}, lbsim.SITA{C: 30}, lbsim.LeastLoaded{D: 2}}
	rows := rowsFor(t, h, h.Sizes(), 3, pols...)
	fig, err := SITASweepFigure("t", rows, 0.5, AllJobs, ShortJobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.Series) != 2 || len(fig.Series[0].X) != 3 || fig.Series[0].X[1] != 20 {
		t.Fatalf("series %+v", fig.Series)
	}
	// Exact curve at every c from the smallest to the largest simulated cut.
	ex := fig.Curves[0]
	if ex.X[0] != 15 || ex.X[len(ex.X)-1] != 30 || len(ex.X) != 16 {
		t.Errorf("exact curve spans c=%v..%v (%d points), want 15..30", ex.X[0], ex.X[len(ex.X)-1], len(ex.X))
	}
	// SITA groups are M/D/1 with light tails: short-job waits agree with theory tightly.
	s := h.Sizes()
	for i, c := range fig.Series[1].X {
		lam := 100 * 0.5 / s.Mean()
		rs := lam * (1 - s.P) * s.Xm / c
		w := rs * s.Xm / (2 * (1 - rs))
		if y, ci := fig.Series[1].Y[i], fig.Series[1].CI[i]; math.Abs(y-w) > 3*ci {
			t.Errorf("SITA-%v short: %v ± %v, exact %v", c, y, ci, w)
		}
	}
	if _, err := SITASweepFigure("t", rows, 0.7, AllJobs); err == nil || !strings.Contains(err.Error(), "no SITA rows at load 0.7") {
		t.Errorf("wrong load: %v", err)
	}
}
