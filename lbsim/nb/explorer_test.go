package nb

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// testExplorer is notebook 08's explorer.
func testExplorer() Explorer {
	return Explorer{
		Base: FastSettings(),
		Controls: []Control{
			PolicyMenu("ll:d=2", "jsq", "ll:d=3", "sita:cut=3,c=80", "rnd:weights=speed", "rr:weights=speed", "sed:d=2", "jiq:withdraw=1"),
			ServersSlider(100), FastShareSlider(0), FastSpeedSlider(2), LoadSlider(0.5), SizesMenu("exp:mean=1"),
			SCVSlider(10), RefreshSlider(0), TallyMenu(false), DispatchersSlider(1), DisciplineMenu("fcfs"),
		},
		SweepOver: "load rho",
	}
}

// choose returns the default choices with the named controls set to the given values.
func choose(t *testing.T, e *Explorer, set map[string]string) []int {
	t.Helper()
	ch := e.defaults()
	for name, v := range set {
		found := false
		for i, c := range e.Controls {
			for j, cv := range c.Values {
				if c.Name == name && cv == v {
					ch[i], found = j, true
				}
			}
		}
		if !found {
			t.Fatalf("no control %q with value %q", name, v)
		}
	}
	return ch
}

// The SCV slider reshapes the law chosen by the size menu: lbsim's own moments
// of the resulting law give back the chosen SCV and keep the mean 1.
func TestExplorerSCVSliderReshapesSizes(t *testing.T) {
	e := testExplorer()
	for _, law := range []string{"h2:mean=1,scv=10", "pareto:alpha=2.2,mean=1"} {
		for _, scv := range []string{"1", "4", "50"} {
			cfg, err := e.Config(choose(t, &e, map[string]string{"job sizes": law, "size SCV": scv}))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := strconv.ParseFloat(scv, 64)
			if got := lbsim.SCV(cfg.Sizes); math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s with SCV slider %s: law %v has SCV %v", law, scv, cfg.Sizes, got)
			}
			if m := cfg.Sizes.Mean(); math.Abs(m-1) > 1e-9 {
				t.Errorf("%s: mean %v, want 1", cfg.Sizes, m)
			}
		}
	}
	cfg, err := e.Config(choose(t, &e, map[string]string{"job sizes": "exp:mean=1", "size SCV": "50"}))
	if err != nil || lbsim.SCV(cfg.Sizes) != 1 {
		t.Errorf("exponential sizes must keep SCV 1 whatever the slider: %v, %v", cfg.Sizes, err)
	}
}

// The speeds controls: a share of fast servers at their speed, the others
// at speed 1, after K; by default all servers have speed 1 (the key of
// speeds nil). Random in proportion to speed on 5 servers of speed 3 and 5
// of speed 1 at load 0.8 puts every server at load 0.8, M/M/1 at its own
// speed: W = sum_k (mu_k/20) 0.8/(mu_k 0.2) = 2, exact in the table.
func TestExplorerSpeedsControls(t *testing.T) {
	e := testExplorer()
	cfg, err := e.Config(choose(t, &e, map[string]string{"servers K": "10", "fast share": "0.3", "fast speed": "4"}))
	if err != nil || lbsim.SpeedsText(cfg.Speeds, cfg.Servers) != "3@4,7@1" {
		t.Errorf("fast share 0.3 at speed 4, K=10: speeds %v, %v; want 3@4,7@1", cfg.Speeds, err)
	}
	def, _ := e.Config(e.defaults())
	plain := def
	plain.Speeds = nil
	if def.Key() != plain.Key() {
		t.Errorf("default speeds %v change the key: %s", def.Speeds, def.Key())
	}
	v := e.drawSingle(choose(t, &e, map[string]string{"policy": "rnd:weights=speed", "servers K": "10", "fast share": "0.5", "fast speed": "3", "load rho": "0.8"}))
	if !strings.Contains(v.Table, ">2</td>") || !strings.Contains(v.Table, "M/G/1 per server, weights speed") {
		t.Errorf("table lacks the exact wait 2:\n%s", v.Table)
	}
	if d := math.Abs(v.Result.Wait.Mean - 2); d > 3*v.Result.Wait.CI95 {
		t.Errorf("simulated wait %v is %v from the exact 2 (CI ±%v)", v.Result.Wait.Mean, d, v.Result.Wait.CI95)
	}
	bad := Explorer{Base: FastSettings(), Controls: []Control{FastSpeedSlider(2), LoadSlider(0.5)}}
	if _, err := bad.Config(bad.defaults()); err == nil || !strings.Contains(err.Error(), "put nb.FastShareSlider before") {
		t.Errorf("fast speed without the share slider: %v", err)
	}
}

// RND with exponential sizes: every server is M/M/1 at load rho, W = rho/(1-rho) and
// E[R] = 1/(1-rho) with mean size 1. The table shows both beside the simulated values,
// which must lie within their CIs' reach.
func TestExplorerTableAgainstMM1(t *testing.T) {
	e := testExplorer()
	v := e.drawSingle(choose(t, &e, map[string]string{"policy": "rnd", "servers K": "10", "load rho": "0.8"}))
	if !strings.Contains(v.Table, "load 0.8,") || !strings.Contains(v.Table, "rnd, K=10") {
		t.Errorf("table caption does not state the configuration:\n%s", v.Table)
	}
	for _, want := range []string{">4</td>", ">5</td>", "M/G/1 per server"} { // W = 0.8/0.2, E[R] = 1/0.2
		if !strings.Contains(v.Table, want) {
			t.Errorf("table lacks %q:\n%s", want, v.Table)
		}
	}
	if d := math.Abs(v.Result.Wait.Mean - 4); d > 3*v.Result.Wait.CI95 {
		t.Errorf("simulated wait %v is %v from the exact 4 (CI ±%v)", v.Result.Wait.Mean, d, v.Result.Wait.CI95)
	}
	if !strings.Contains(v.Figure, `class="lbsim-explorer-figure"><img src="data:image/png;base64,`) {
		t.Errorf("figure is not an inline PNG: %.200s", v.Figure)
	}
}

// Pareto sizes of SCV 10 have tail index 1 + sqrt(1.1) = 2.05 <= 3, so E[X^3] is infinite:
// lbsim's warning for that must be listed under the table.
func TestExplorerTableShowsWarnings(t *testing.T) {
	e := testExplorer()
	v := e.drawSingle(choose(t, &e, map[string]string{"policy": "rnd", "job sizes": "pareto:alpha=2.2,mean=1", "size SCV": "10"}))
	if !v.Result.Warnings.Has("infinite-third-moment") {
		t.Fatalf("no infinite-third-moment warning for %s: %v", v.Result.Config.Sizes, v.Result.Warnings)
	}
	if !strings.Contains(v.Table, "<li>warning infinite-third-moment: sizes pareto:alpha=2.04880884817") {
		t.Errorf("table does not list the warning:\n%s", v.Table)
	}
	if quiet := e.drawSingle(choose(t, &e, map[string]string{"policy": "rnd"})); strings.Contains(quiet.Table, "<li>warning") {
		t.Errorf("RND with exponential sizes at load 0.5 got a warning")
	}
}

// A configuration that lbsim rejects is shown as its error in the table, not a panic.
func TestExplorerShowsInvalidConfiguration(t *testing.T) {
	e := testExplorer()
	v := e.drawSingle(choose(t, &e, map[string]string{"policy": "sita:c=20", "servers K": "10"}))
	if !strings.Contains(v.Table, "sita c=20 is invalid") || !strings.Contains(v.Table, "color:#a00") {
		t.Errorf("table does not state the invalid SITA split:\n%s", v.Table)
	}
	// The sweep over K leaves out the K that do not fit c=20 (K <= 20, and K >= 500 where
	// the 20 short-job servers are overloaded) and says so.
	sw := e.drawSweep(choose(t, &e, map[string]string{"policy": "sita:c=20", "job sizes": "twopoint:xm=1,xM=1000,beta=0.8"}), 1)
	if strings.Count(sw, "left out of the sweep: servers K = ") != 6 || !strings.Contains(sw, "servers K = 20: sita c=20 is invalid") ||
		!strings.Contains(sw, "servers K = 1000: servers 1..20 (short jobs) have load 5.003") || strings.Count(sw, "<img") != 1 {
		t.Errorf("sweep over K with sita:c=20:\n%.600s", sw)
	}
}

func TestExplorerDeclarationErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(e *Explorer)
		want string
	}{
		{"default not a value", func(e *Explorer) { e.Controls[2] = LoadSlider(0.505) }, `"load rho": default index -1 is outside 0..94`},
		{"unknown sweep", func(e *Explorer) { e.SweepOver = "tally" }, `SweepOver "tally" is not a numeric control`},
		{"duplicate names", func(e *Explorer) { e.Controls[1] = LoadSlider(0.5) }, `two controls are named "load rho"`},
		{"one sweep point", func(e *Explorer) { e.SweepPoints = 1 }, "SweepPoints = 1"},
		{"no controls", func(e *Explorer) { e.Controls = nil }, "no Controls"},
		{"bad extra policy", func(e *Explorer) { e.Controls[0] = PolicyMenu("rnd", "jsq:d=2", "ll:e=2") }, `"policy": ll: unknown parameter`},
	} {
		e := testExplorer()
		tc.edit(&e)
		if err := e.Show(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Show() = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// Outside a notebook Show draws the three views once, for the defaults.
func TestExplorerStaticFallback(t *testing.T) {
	r := fakeNotebook(t)
	frontEnd.isNotebook = false
	e := testExplorer()
	if err := e.Show(); err != nil {
		t.Fatal(err)
	}
	if len(r.updates) != 3 {
		t.Fatalf("%d updates, want figure, table and sweep", len(r.updates))
	}
	for i, part := range []string{"figure", "table", "sweep"} {
		if !strings.Contains(r.updates[i], `class="lbsim-explorer-`+part+`"`) {
			t.Errorf("update %d is not the %s: %.200s", i, part, r.updates[i])
		}
	}
	if !regexp.MustCompile(`ll:d=2, K=100, load 0\.5,`).MatchString(r.updates[1]) {
		t.Errorf("table is not for the defaults: %.300s", r.updates[1])
	}
	if n := strings.Count(r.updates[2], "<img"); n != 1 {
		t.Errorf("sweep has %d figures, want 1", n)
	}
}

func TestSweepValues(t *testing.T) {
	for _, tc := range []struct {
		n, points int
		want      string
	}{
		{95, 8, "[0 13 27 40 54 67 81 94]"},
		{10, 8, "[0 1 3 4 5 6 8 9]"},
		{3, 8, "[0 1 2]"},
		{1, 8, "[0]"},
	} {
		if got := strconv.Quote(fmtInts(sweepValues(tc.n, tc.points))); got != strconv.Quote(tc.want) {
			t.Errorf("sweepValues(%d, %d) = %s, want %s", tc.n, tc.points, got, tc.want)
		}
	}
}

func fmtInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// BenchmarkExplorerRedraw is the work of one control change in the first view
// (run and render) at notebook 08's defaults: LL-2, K=100, load 0.5.
func BenchmarkExplorerRedraw(b *testing.B) {
	e := testExplorer()
	ch := e.defaults()
	for b.Loop() {
		e.drawSingle(ch)
	}
}

// BenchmarkExplorerSweep is the second view's work: 8 runs and a figure.
func BenchmarkExplorerSweep(b *testing.B) {
	e := testExplorer()
	ch := e.defaults()
	for b.Loop() {
		e.drawSweep(ch, 2)
	}
}

// The dispatchers slider sets M: JIQ with withdrawals on 1000 servers and
// 100 dispatchers gets the mean-field limit at r = K/M = 10 as its theory
// curve, and on a stale board with tallies more dispatchers wait longer
// (each tallies only its own sends).
func TestExplorerDispatchersSlider(t *testing.T) {
	e := testExplorer()
	cfg, err := e.Config(choose(t, &e, map[string]string{"policy": "jiq:withdraw=1", "servers K": "1000", "dispatchers M": "100", "load rho": "0.9"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Dispatchers != 100 {
		t.Fatalf("dispatchers slider at 100: Config.Dispatchers = %d", cfg.Dispatchers)
	}
	if d := describe(cfg); !strings.Contains(d, ", 100 dispatchers") {
		t.Errorf("caption %q does not name the 100 dispatchers", d)
	}
	if ref, ok := lbsim.Limit(cfg); !ok || !strings.Contains(ref.Method, "r = K/M = 10") {
		t.Errorf("jiq:withdraw=1, K=1000, M=100: limit %+v (ok %v), want the mean field at r = K/M = 10", ref, ok)
	}
	var waits []float64
	for _, m := range []string{"1", "20"} {
		cfg, err := e.Config(choose(t, &e, map[string]string{"policy": "jsq", "refresh T": "10", "tally": "on", "dispatchers M": m, "load rho": "0.9"}))
		if err != nil {
			t.Fatal(err)
		}
		r, err := lbsim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, r.Wait.Mean)
	}
	if waits[1] < 2*waits[0] {
		t.Errorf("JSQ on a board T=10 with tallies, K=100, load 0.9: wait %.3g with 20 dispatchers, not twice the %.3g of one", waits[1], waits[0])
	}
}

// Every value of the size menu runs: a family whose text names a file
// (file:PATH) is not offered, since its example need not exist where the
// notebook runs.
func TestExplorerSizesMenuRuns(t *testing.T) {
	e, menu := testExplorer(), SizesMenu("exp:mean=1").Name
	for i, c := range e.Controls {
		if c.Name != menu {
			continue
		}
		for j, v := range c.Values {
			ch := e.defaults()
			ch[i] = j
			if _, err := e.Config(ch); err != nil {
				t.Errorf("sizes menu value %q: %v", v, err)
			}
		}
		return
	}
	t.Fatal("no sizes menu")
}
