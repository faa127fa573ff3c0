package nb

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// t3 is Student's t quantile t_{0.975, 3}: four replications.
const t3 = 3.182446305284263

// pairedByHand is the paired 95% half-width of the mean of d over its
// four values: t_{0.975,3} s_d / sqrt(4), s_d with divisor n - 1.
func pairedByHand(d []float64) (mean, half float64) {
	for _, x := range d {
		mean += x / float64(len(d))
	}
	var ss float64
	for _, x := range d {
		ss += (x - mean) * (x - mean)
	}
	return mean, t3 * math.Sqrt(ss/float64(len(d)-1)) / math.Sqrt(float64(len(d)))
}

// handRow is a row of policy label at load rho made by hand, with its four
// replications' mean responses (and p99s twice them): paired with every
// other such row of the same load.
func handRow(label string, rho float64, units []float64) lbsim.Row {
	p99 := make([]float64, len(units))
	for i, u := range units {
		p99[i] = 2 * u
	}
	m, h := pairedByHand(units)
	return lbsim.Row{Label: label, Policy: strings.ToLower(label), Load: rho, Servers: 2, Jobs: 1000, Reps: len(units), Seed: 7,
		MeanResponse: m, MeanResponseCI95: h, P99Response: 2 * m, P99ResponseCI95: 2 * h,
		Units: map[string][]float64{"mean_response": units, "p99_response": p99}}
}

// TestRank: rows ranked by a metric within each group, the best paired
// against every other row and every row against the one above, with the
// paired t intervals computed here; a ranking shown as a table; On another
// metric; the errors.
func TestRank(t *testing.T) {
	a := []float64{1.0, 1.2, 0.9, 1.1}  // mean 1.05: the best
	b := []float64{1.1, 1.3, 1.0, 1.25} // mean 1.1625: above A in every replication
	c := []float64{1.3, 1.0, 1.2, 0.95} // mean 1.1125: above A on average only
	rows := []lbsim.Row{
		handRow("B", 0.5, b), handRow("A", 0.5, a), handRow("C", 0.5, c),
		handRow("A", 0.9, c), handRow("B", 0.9, a),
	}
	byLoad := func(r lbsim.Row) string { return fmt.Sprintf("load %v", r.Load) }
	rk, err := Rank(rows, "mean_response", byLoad, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := rk.Groups(); len(g) != 2 || g[0] != "load 0.5" || g[1] != "load 0.9" {
		t.Fatalf("groups %q, want load 0.5 then load 0.9", g)
	}
	if got, want := rk.Chain("load 0.5"), "A 1.05 ≈ C 1.11 ≈ B 1.16"; got != want {
		t.Errorf("chain %q, want %q", got, want)
	}
	if got, want := rk.Chain("load 0.9"), "B 1.05 ≈ A 1.11"; got != want {
		t.Errorf("chain %q, want %q", got, want)
	}
	diff := func(x, y []float64) []float64 {
		d := make([]float64, len(x))
		for i := range x {
			d[i] = x[i] - y[i]
		}
		return d
	}
	// The ratio's interval: the delta method, e_i = x_i - R y_i.
	ratio := func(x, y []float64) (r, half float64) {
		mx, _ := pairedByHand(x)
		my, _ := pairedByHand(y)
		r = mx / my
		e := make([]float64, len(x))
		for i := range x {
			e[i] = x[i] - r*y[i]
		}
		_, h := pairedByHand(e)
		return r, h / my
	}
	for _, tc := range []struct {
		name    string
		units   []float64
		rank    int
		verdict string
		step    string
		above   []float64
	}{
		{"A", a, 1, VerdictBest, "", nil},
		{"C", c, 2, VerdictIndistinct, "≈", a},
		{"B", b, 3, VerdictWorse, "≈", c},
	} {
		p, ok := rk.Find("load 0.5", tc.name)
		if !ok {
			t.Fatalf("no placing of %s at load 0.5", tc.name)
		}
		wd, wh := pairedByHand(diff(tc.units, a))
		wr, wrh := ratio(tc.units, a)
		wm, wmh := pairedByHand(tc.units)
		if p.Rank != tc.rank || p.Best != "A" || p.Verdict != tc.verdict || p.Step != tc.step || p.Metric != "mean_response" {
			t.Errorf("%s: rank %d, best %s, verdict %q, step %q; want %d, A, %q, %q", tc.name, p.Rank, p.Best, p.Verdict, p.Step, tc.rank, tc.verdict, tc.step)
		}
		near := func(what string, got, want float64) {
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: %s %.15g, by hand %.15g", tc.name, what, got, want)
			}
		}
		near("value", p.Value, wm)
		near("ci95", p.CI95, wmh)
		near("diff", p.Diff, wd)
		near("diff_ci95", p.DiffCI95, wh)
		near("ratio", p.Ratio, wr)
		near("ratio_ci95", p.RatioCI95, wrh)
		if tc.name == "B" { // decided: every replication above A's
			if lo := wd - wh; !(lo > 0) || !p.Decided() {
				t.Errorf("B - A = %v ± %v by hand: decided, but the placing says %q", wd, wh, p.Verdict)
			}
			// B over C: not decided, the step is "≈".
			if d, h := pairedByHand(diff(b, c)); d-h > 0 {
				t.Errorf("B - C = %v ± %v by hand is decided; the case is meant not to be", d, h)
			}
		}
		if tc.name == "C" {
			if lo := wd - wh; lo > 0 || p.Decided() {
				t.Errorf("C - A = %v ± %v by hand holds 0: not distinguishable, but the placing says %q", wd, wh, p.Verdict)
			}
		}
	}

	// On another metric: the same best (A), p99s twice the means.
	p, _ := rk.Find("load 0.5", "B")
	q, err := p.On("p99_response")
	if err != nil {
		t.Fatal(err)
	}
	if wd, wh := pairedByHand(diff(b, a)); q.Metric != "p99_response" || q.Best != "A" || q.Rank != 3 || q.Step != "" ||
		math.Abs(q.Diff-2*wd) > 1e-12 || math.Abs(q.DiffCI95-2*wh) > 1e-12 || q.Verdict != VerdictWorse {
		t.Errorf("B on p99: %+v; want 2 (%v ± %v) against A, worse", q, wd, wh)
	}
	if all, err := rk.On("p99_response"); err != nil || len(all) != len(rk) || all[2].Diff != q.Diff || all[2].Name != "B" || all[3].Name != rk[3].Name || all[3].Metric != "p99_response" {
		t.Errorf("the ranking on p99: %v; want every placing On p99, in order", err)
	}
	if q, err := rk[0].On("p99_response"); err != nil || q.Verdict != VerdictBest || q.Diff != 0 || q.Ratio != 1 {
		t.Errorf("the best on p99: %+v, %v; want best, 0, 1", q, err)
	}

	// Shown as a table: the columns, not the rows compared.
	r := fakeNotebook(t)
	Table(rk, "ranked")
	html := strings.ReplaceAll(r.shown[0], "<wbr>", "")
	for _, col := range []string{">group<", ">rank<", ">verdict<", ">diff_ci95<", ">not distinguishable<"} {
		if !strings.Contains(html, col) {
			t.Errorf("the table lacks %q", col)
		}
	}
	if strings.Contains(html, ">Row<") || strings.Contains(html, "BestRow") {
		t.Errorf("the table shows the rows compared: %s", html)
	}

	// A row without an interval (its CI95 NaN, as lbsim gives when its
	// units cannot bound it) decides nothing: "no interval", step "?".
	noCI := handRow("C", 0.5, c)
	noCI.MeanResponseCI95 = math.NaN()
	rk2, err := Rank([]lbsim.Row{rows[1], noCI}, "mean_response", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := rk2[1]; p.Verdict != VerdictNoInterval || p.Step != "?" || p.Decided() || rk2.Chain("") != "A 1.05 ? C 1.11" {
		t.Errorf("no interval: verdict %q, step %q, chain %q; want no interval, ?", p.Verdict, p.Step, rk2.Chain(""))
	}

	// Errors.
	if _, err := Rank(rows, "mean_slowness", byLoad, nil); err == nil || !strings.Contains(err.Error(), `"mean_slowness"`) || !strings.Contains(err.Error(), "p99_response") {
		t.Errorf("unknown metric: %v; want it named with the allowed ones", err)
	}
	if _, err := Rank(rows, "mean_response", nil, nil); err == nil || !strings.Contains(err.Error(), `two rows named "A"`) {
		t.Errorf("one group over two loads: %v; want two rows named A refused", err)
	}
	other := handRow("D", 0.5, b)
	other.Seed = 8
	if _, err := Rank(append(rows[:3:3], other), "mean_response", byLoad, nil); err == nil || !strings.Contains(err.Error(), "not paired") {
		t.Errorf("another seed: %v; want not paired", err)
	}
	if _, err := p.On("p42"); err == nil {
		t.Error("On an unknown metric: no error")
	}
}
