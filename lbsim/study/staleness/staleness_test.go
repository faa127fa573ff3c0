package staleness

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// The document describes its SCV-30 mix in words: about 1 job in 61 is a giant averaging 30
// service times, the rest average half a service time, and the giants carry half the work.
func TestSizesMatchTheDocumentsWords(t *testing.T) {
	law, err := Sizes(30)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := law.(lbsim.H2)
	if !ok {
		t.Fatalf("Sizes(30) is %T, want lbsim.H2", law)
	}
	giant := 1 - h.P1
	if got := 1 / giant; math.Abs(got-61) > 0.5 {
		t.Errorf("1 job in %.2f is a giant, the document says 1 in 61", got)
	}
	if got := 1 / h.Rate2; math.Abs(got-30.5) > 0.05 {
		t.Errorf("giants average %.3f, the document says about 30", got)
	}
	if got := 1 / h.Rate1; math.Abs(got-0.5) > 0.01 {
		t.Errorf("small jobs average %.3f, the document says half a service time", got)
	}
	if share := giant / h.Rate2; math.Abs(share-0.5) > 1e-12 {
		t.Errorf("giants carry %.6f of the work, want 1/2", share)
	}
	for _, c := range []float64{1, 4, 10, 30} {
		law, err := Sizes(c)
		if err != nil {
			t.Fatal(err)
		}
		if m, got := law.Mean(), lbsim.SCV(law); math.Abs(m-1) > 1e-12 || math.Abs(got-c) > 1e-9 {
			t.Errorf("Sizes(%v): mean %v SCV %v, want 1 and %v", c, m, got, c)
		}
	}
	if _, err := Sizes(0.5); err == nil {
		t.Error("Sizes(0.5) accepted an SCV below 1, which H2 cannot reach")
	}
}

// The document's exact values for random dispatch (140.5 at SCV 30, 50.5 at SCV 10) and its
// Pareto value (55), from their own formulas: E[R] = 1 + rho (1 + SCV) / (2 (1 - rho)).
func TestReferencesReproduceTheDocumentsFormulaValues(t *testing.T) {
	s := Document()
	random, _ := DispatcherNamed("random")
	for _, c := range []struct{ scv, want float64 }{{30, 140.5}, {10, 50.5}, {1, 10}} {
		ref, err := s.ReferenceFor(random, c.scv)
		if err != nil {
			t.Fatal(err)
		}
		if !ref.Exact || math.Abs(ref.Value-c.want) > 1e-9 {
			t.Errorf("random at SCV %v: %v (%s), want exact %v", c.scv, ref.Value, ref.Method, c.want)
		}
	}
	laws, err := TrapLaws()
	if err != nil {
		t.Fatal(err)
	}
	lambda := s.Load // one server of the K: P-K per server
	for _, c := range []struct {
		law  int
		want float64
	}{{0, 55}, {1, 1 + 0.9*(1.2*1.2/(2.2*0.2))/0.2}} {
		d, err := theory.RandomDispatch(lambda, laws[c.law].Law, []float64{1})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(d.Response-c.want) > 1e-9 {
			t.Errorf("%s: P-K %v, want %v", laws[c.law].Name, d.Response, c.want)
		}
	}
}

// Under PS random dispatch is M/G/1-PS: E[R] = 1/(1 - rho) = 10 at every SCV.
func TestPSReferenceIsInsensitive(t *testing.T) {
	s := Document()
	s.Discipline = lbsim.PS
	random, _ := DispatcherNamed("random")
	for _, scv := range s.SCVs {
		ref, err := s.ReferenceFor(random, scv)
		if err != nil || math.Abs(ref.Value-10) > 1e-12 {
			t.Errorf("PS random at SCV %v: %v, %v; want 10", scv, ref.Value, err)
		}
	}
	rr, _ := DispatcherNamed("round robin")
	fcfs := Document()
	a, _ := s.ReferenceFor(rr, 1)
	b, _ := fcfs.ReferenceFor(rr, 1)
	if !a.Exact || a.Value != b.Value {
		t.Errorf("PS round robin at SCV 1: %v (%s), want the FCFS E_K/M/1 value %v", a.Value, a.Method, b.Value)
	}
	if ref, _ := s.ReferenceFor(rr, 4); !math.IsNaN(ref.Value) {
		t.Errorf("PS round robin at SCV 4 has reference %v (%s); there is none", ref.Value, ref.Method)
	}
	oracle, _ := DispatcherNamed("oracle")
	if ref, _ := s.ReferenceFor(oracle, 30); !math.IsNaN(ref.Value) {
		t.Errorf("PS oracle has reference %v (%s); LWL on PS servers is not a central queue", ref.Value, ref.Method)
	}
}

// The oracle at SCV 1 is M/M/100; check Erlang C against a direct log-space evaluation of
//
//	C = (a^K/K! K/(K-a)) / (sum_{j<K} a^j/j! + a^K/K! K/(K-a)).
func TestOracleReferenceIsErlangC(t *testing.T) {
	s := Document()
	oracle, _ := DispatcherNamed("oracle")
	ref, err := s.ReferenceFor(oracle, 1)
	if err != nil {
		t.Fatal(err)
	}
	K, a := float64(s.Servers), s.Load*float64(s.Servers)
	term := func(j float64) float64 { lg, _ := math.Lgamma(j + 1); return math.Exp(j*math.Log(a) - lg) }
	var sum float64
	for j := 0.0; j < K; j++ {
		sum += term(j)
	}
	top := term(K) * K / (K - a)
	want := 1 + top/(sum+top)/(K-a)
	if !ref.Exact || math.Abs(ref.Value-want) > 1e-9 {
		t.Errorf("oracle SCV 1: %v (%s), want %v", ref.Value, ref.Method, want)
	}
	approx, _ := s.ReferenceFor(oracle, 30)
	if approx.Exact || math.Abs(approx.Value-(1+15.5*(want-1))) > 1e-9 {
		t.Errorf("oracle SCV 30: %v (%s), want the Lee-Longton value %v", approx.Value, approx.Method, 1+15.5*(want-1))
	}
}

func TestBracket(t *testing.T) {
	ts := []float64{1, 2, 5, 10}
	inf := math.Inf(1)
	for _, c := range []struct {
		name   string
		means  []float64
		lo, hi float64
	}{
		{"crosses between 2 and 5", []float64{1, 2, 6, 9}, 2, 5},
		{"worse at once", []float64{7, 8, 9, 9}, 0, 1},
		{"never worse", []float64{1, 2, 3, 4}, 10, inf},
		{"first crossing wins", []float64{1, 6, 4, 9}, 1, 2},
		{"missing point is not a crossing", []float64{1, math.NaN(), 6, 9}, 2, 5},
	} {
		lo, hi := Bracket(ts, c.means, 5)
		if lo != c.lo || hi != c.hi {
			t.Errorf("%s: (%v, %v], want (%v, %v]", c.name, lo, hi, c.lo, c.hi)
		}
	}
}

func TestSetupValidate(t *testing.T) {
	for _, c := range []struct {
		edit func(*Setup)
		want string
	}{
		{func(s *Setup) { s.Servers = 1 }, "K=1"},
		{func(s *Setup) { s.Load = 1 }, "load 1"},
		{func(s *Setup) { s.SCVs = []float64{0.5} }, "SCV 0.5"},
		{func(s *Setup) { s.Refresh = []float64{5, 2} }, "not increasing"},
		{func(s *Setup) { s.Refresh = []float64{0} }, "T=0"},
		{func(s *Setup) { s.Reps = 1 }, "R=1"},
		{func(s *Setup) { s.Jobs = 0 }, "N=0"},
		{func(s *Setup) { s.StaleReps = 1 }, "sweep reps 1"},
		{func(s *Setup) { s.StaleJobs = -1 }, "sweep jobs -1"},
		{func(s *Setup) { s.TrapLongReps = 1 }, "long-run reps 1"},
		{func(s *Setup) { s.QuotedRefresh = []float64{15} }, "T=15 is not on the grid"},
	} {
		s := Document()
		c.edit(&s)
		_, err := s.LiveConfigs()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error naming %q, got %v", c.want, err)
		}
	}
	s := Document()
	live, err := s.LiveConfigs()
	if err != nil || len(live) != 4*5 {
		t.Fatalf("live configs: %d, %v; want 20", len(live), err)
	}
	stale, err := s.StaleConfigs()
	if err != nil || len(stale) != 4*len(TGrid())*2 {
		t.Fatalf("stale configs: %d, %v; want %d", len(stale), err, 4*len(TGrid())*2)
	}
	for _, c := range stale {
		if c.Refresh == 0 || c.Tally || c.Reps != 12 || c.Jobs != 2_000_000 {
			t.Fatalf("stale config %s does not follow the document", c.Key())
		}
	}
	// A sweep of its own length: the stale runs take StaleReps, the live table keeps Reps.
	s.StaleReps = 4
	stale, err = s.StaleConfigs()
	if err != nil || stale[0].Reps != 4 {
		t.Fatalf("stale configs with StaleReps 4: reps %d, %v", stale[0].Reps, err)
	}
	if live, _ := s.LiveConfigs(); live[0].Reps != 12 {
		t.Fatalf("live configs with StaleReps 4: reps %d, want the document's 12", live[0].Reps)
	}
	// The quoted periods keep the document's replications; the rest of the sweep takes StaleReps.
	s.QuotedRefresh = []float64{10}
	stale, err = s.StaleConfigs()
	if err != nil {
		t.Fatal(err)
	}
	full := 0
	for _, c := range stale {
		want := 4
		if c.Refresh == 10 {
			want, full = 12, full+1
		}
		if c.Reps != want {
			t.Fatalf("stale config at T=%v with QuotedRefresh [10]: reps %d, want %d", c.Refresh, c.Reps, want)
		}
	}
	if full != 4*2 {
		t.Fatalf("%d stale configs at T=10, want 8 (4 SCVs x 2 board policies)", full)
	}
	// StaleJobs shortens the measured run of the same points, after the same warm-up.
	s.StaleJobs = 500_000
	stale, err = s.StaleConfigs()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range stale {
		want := int64(500_000)
		if c.Refresh == 10 {
			want = 2_000_000
		}
		if c.Jobs != want || c.Warmup != 200_000 {
			t.Fatalf("stale config at T=%v with StaleJobs 5e5: %d jobs after %d, want %d after 200000", c.Refresh, c.Jobs, c.Warmup, want)
		}
	}
	if live, _ := s.LiveConfigs(); live[0].Jobs != 2_000_000 {
		t.Fatalf("live configs with StaleJobs 5e5: %d jobs, want the document's 2000000", live[0].Jobs)
	}
}

// Trap runs longer than every quoted length take TrapLongReps; the quoted ones and shorter keep
// the trap's reps.
func TestTrapLongReps(t *testing.T) {
	s := Document()
	laws, err := TrapLaws()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := LoadQuotes("../../../data/stale_document_quotes.csv")
	if err != nil {
		t.Fatal(err)
	}
	s.QuotedJobs, s.TrapLongReps = QuotedTrapJobs(qs), 4
	if !slices.Equal(s.QuotedJobs, []int64{2_000_000}) {
		t.Fatalf("quoted trap lengths %v, want [2000000]", s.QuotedJobs)
	}
	cfgs, err := s.TrapConfigs(laws, []int64{1e6, 2e6, 2e7}, 12)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfgs {
		want := 12
		if c.Jobs > 2e6 {
			want = 4
		}
		if c.Reps != want || c.Warmup != c.Jobs/10 {
			t.Errorf("trap N=%d: %d reps, warm-up %d; want %d reps, warm-up N/10", c.Jobs, c.Reps, c.Warmup, want)
		}
	}
	s.TrapLongReps = 1
	if _, err := s.TrapConfigs(laws, []int64{2e7}, 12); err == nil || !strings.Contains(err.Error(), "long-run reps 1") {
		t.Errorf("TrapLongReps 1: want an error naming it, got %v", err)
	}
}

// The trap figure draws a warned run hollow: its point carries the rule that fired, the others
// none, and a law without a warned run has plain markers.
func TestTrapFigureMarksWarnedRuns(t *testing.T) {
	row := func(jobs int64, ws ...lbsim.Warning) lbsim.Row {
		return lbsim.Row{Jobs: jobs, MeanResponse: 40, MeanResponseCI95: 4, ExactResponse: 55, Warnings: ws}
	}
	tail := lbsim.Warning{Rule: "tail", Message: "the run did not sample the tail"}
	fig, err := TrapFigure([]TrapRow{
		{Law: "Lomax", Row: row(1e4)}, {Law: "Lomax", Row: row(1e5, tail)},
		{Law: "H2", Row: row(1e4)}, {Law: "H2", Row: row(1e5)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := fig.Series[0].Warned; len(got) != 2 || got[0] != "" || got[1] != "tail" {
		t.Errorf("Lomax points warned %q, want [\"\" \"tail\"]", got)
	}
	if fig.Series[1].Warned != nil {
		t.Errorf("H2 points warned %q, want none", fig.Series[1].Warned)
	}
	if y := fig.Series[0].Y[0]; math.Abs(y-40.0/55) > 1e-12 {
		t.Errorf("ratio %v, want 40/55", y)
	}
}

// StaleFigures draws a policy that reads no board as a flat line at its live value across the
// grid, a missing run as no point, and a warned run hollow; StaleTable carries the warnings.
func TestStaleFiguresFromRows(t *testing.T) {
	s := Document()
	s.SCVs, s.Refresh = []float64{1}, []float64{1, 2}
	row := func(p lbsim.Policy, T, mean float64, ws ...lbsim.Warning) lbsim.Row {
		return lbsim.Row{Label: lbsim.Label(p), SCV: 1, Refresh: T, MeanResponse: mean, MeanResponseCI95: 0.1, Warnings: ws}
	}
	drift := lbsim.Warning{Rule: "drift", Message: "the halves disagree"}
	res := NewResults([]lbsim.Row{
		row(lbsim.Random{}, 0, 10), row(lbsim.RoundRobin{}, 0, 5), row(lbsim.LeastLoaded{}, 0, 1.1),
		row(lbsim.JSQ{D: 2}, 1, 3, drift), row(lbsim.JSQ{D: 2}, 2, 4), row(lbsim.JSQ{}, 1, 2), // JSQ at T=2 missing
	})
	figs, err := s.StaleFigures(res)
	if err != nil {
		t.Fatal(err)
	}
	series := map[string]int{}
	for i, ser := range figs[0].Series {
		series[ser.Name] = i
	}
	rnd := figs[0].Series[series["random"]]
	if !slices.Equal(rnd.X, []float64{1, 2}) || !slices.Equal(rnd.Y, []float64{10, 10}) {
		t.Errorf("random: x %v y %v, want a flat line at 10 over T = 1, 2", rnd.X, rnd.Y)
	}
	if w := figs[0].Series[series["best of two"]].Warned; len(w) != 2 || w[0] != "drift" || w[1] != "" {
		t.Errorf("best of two warned %q, want [drift \"\"]", w)
	}
	if y := figs[0].Series[series["least loaded"]].Y; y[0] != 2 || !math.IsNaN(y[1]) {
		t.Errorf("least loaded y %v, want [2 NaN] (no run at T=2)", y)
	}
	tab := s.StaleTable(res)
	if len(tab) != 4 || !tab[0].Warnings.Has("drift") || tab[1].Warnings.Has("drift") {
		t.Errorf("stale table %+v: want 4 rows, the first (best of two, T=1) warned", tab)
	}
}
