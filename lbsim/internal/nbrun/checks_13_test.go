package nbrun

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() { notebookChecks["13-homework-size-aware.ipynb"] = checkHomework3 }

// hw3K is the homework's number of servers.
const hw3K = 10

// hw3TwoPoint is the exact mean response and mean slowdown of the
// homework's policies on the handout's two-point law (x_m = 1, x_M = 1000,
// P(x_M) = 1000^-0.8) at load rho under each discipline, written here from
// the textbook formulas: under RND each server is M/G/1 of rate rho/E[X];
// under SITA-c (c = 2 of 10 servers, the equal-load cut) each short server
// is M/D/1 of rate lambda (1-p)/c and size x_m, each long one of rate
// lambda p/(K-c) and size x_M, so SRPT serves as FCFS.
func hw3TwoPoint(spec, discipline string, rho float64) (resp, slow float64, ok bool) {
	const xm, xM = 1.0, 1000.0
	p := math.Pow(xM, -0.8)
	mean, m2 := (1-p)*xm+p*xM, (1-p)*xm*xm+p*xM*xM
	lambda := hw3K * rho / mean
	switch spec + " " + discipline {
	case "rnd fcfs":
		lk := lambda / hw3K
		w := lk * m2 / (2 * (1 - rho))
		return mean + w, 1 + w*((1-p)/xm+p/xM), true
	case "rnd ps":
		return mean / (1 - rho), 1 / (1 - rho), true
	case "rnd srpt":
		// Schrage-Miller on two sizes: a short job waits for short work (and a
		// long job's last x_m) only; a long job for all the work, and is slowed
		// by every short arrival while it runs.
		lk := lambda / hw3K
		rm := lk * (1 - p) * xm
		ts := xm + lk*xm*xm/(2*(1-rm))
		tl := lk*m2/(2*(1-rm)*(1-rho)) + xm + (xM-xm)/(1-rm)
		return (1-p)*ts + p*tl, (1-p)*ts/xm + p*tl/xM, true
	case "sita:c=2 fcfs", "sita:c=2 srpt", "sita:c=2 ps":
		const c = 2
		ls, ll := lambda*(1-p)/c, lambda*p/(hw3K-c)
		rs, rl := ls*xm, ll*xM
		if discipline == "ps" {
			return (1-p)*xm/(1-rs) + p*xM/(1-rl), (1-p)/(1-rs) + p/(1-rl), true
		}
		ws, wl := ls*xm*xm/(2*(1-rs)), ll*xM*xM/(2*(1-rl))
		return (1-p)*(xm+ws) + p*(xM+wl), (1-p)*(1+ws/xm) + p*(1+wl/xM), true
	}
	return 0, 0, false
}

// hw3Exp is the same on the exponential law of rate 1 for RND: M/M/1 per
// server at load rho; FCFS's mean slowdown is infinite (E[1/X] = infinity),
// and SRPT's by quadrature (srptByHand on the law).
func hw3Exp(spec, discipline string, rho float64) (resp, slow float64, ok bool) {
	if spec != "rnd" {
		return 0, 0, false
	}
	switch discipline {
	case "fcfs":
		return 1 / (1 - rho), math.Inf(1), true
	case "ps":
		return 1 / (1 - rho), 1 / (1 - rho), true
	case "srpt":
		law := expLaw()
		return srptByHand(law, rho, func(float64) float64 { return 1 }), srptByHand(law, rho, func(x float64) float64 { return 1 / x }), true
	}
	return 0, 0, false
}

// expLaw is the exponential law of rate 1 by its partial moments.
func expLaw() saLaw {
	return saLaw{
		cdf: func(x float64) float64 { return -math.Expm1(-x) },
		m1:  func(x float64) float64 { return 1 - math.Exp(-x)*(1+x) },
		m2:  func(x float64) float64 { return 2 - math.Exp(-x)*(2+2*x+x*x) },
		top: 60,
	}
}

// checkHomework3 checks notebook 13: every exact mean response and mean
// slowdown it shows on the two-point law (RND and SITA-c under FCFS, PS and
// SRPT) and on the exponential law (RND) against the formulas above, the
// simulated values within 3 half-widths of them unless warned, FCFS's
// slowdown on exponential sizes shown without an exact value, and the
// request log's 99th percentiles with an interval.
func checkHomework3(t *testing.T, outDir string) {
	homeworkStudents(t, outDir)
	for table, exact := range map[string]func(string, string, float64) (float64, float64, bool){
		"13-two-point": hw3TwoPoint, "13-slowdown-two-point": hw3TwoPoint, "13-slowdown-exponential": hw3Exp,
	} {
		rows := readCSVRows(t, outDir, table)
		if len(rows) == 0 {
			t.Errorf("%s: no rows", table)
		}
		checked := 0
		for _, r := range rows {
			spec, d, rho := r.s(t, "spec"), r.s(t, "discipline"), r.f(t, "load")
			resp, slow, ok := exact(spec, d, rho)
			if !ok {
				continue
			}
			want := map[string]float64{"mean_response": resp, "mean_slowdown": slow}[r.s(t, "metric")]
			got := r.f(t, "exact")
			switch {
			case math.IsInf(want, 1):
				if !math.IsInf(got, 1) {
					t.Errorf("%s %s %s load %v: exact %v, but the mean slowdown is infinite (E[1/X] = infinity)", table, spec, d, rho, got)
				}
				if ci := r.f(t, "ci95"); !math.IsNaN(ci) {
					t.Errorf("%s %s %s load %v: the simulated mean of an infinite mean shown with an interval ± %v", table, spec, d, rho, ci)
				}
				continue
			case math.Abs(got-want) > 1e-6*want:
				t.Errorf("%s %s %s load %v: exact %.10g, by hand %.10g", table, spec, d, rho, got, want)
			}
			checked++
			sim, ci := r.f(t, "value"), r.f(t, "ci95")
			if math.Abs(sim-want) > 3*ci && r.s(t, "warnings") == "" {
				t.Errorf("%s %s %s load %v: simulated %.5g ± %.3g, exact %.5g (more than 3 half-widths, no warning)", table, spec, d, rho, sim, ci, want)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no row with an exact value checked", table)
		}
	}
	// What the answers say of the runs: LL-2 on SRPT servers is the best pair at
	// every load on the two-point law; SRPT is the best discipline for RND and
	// LL-2 on both laws, by mean response and by mean slowdown.
	value := map[string]map[string]float64{} // table -> "spec discipline load" -> value
	for _, table := range []string{"13-two-point", "13-slowdown-two-point", "13-slowdown-exponential"} {
		value[table] = map[string]float64{}
		for _, r := range readCSVRows(t, outDir, table) {
			value[table][r.s(t, "spec")+" "+r.s(t, "discipline")+" "+r.s(t, "load")] = r.f(t, "value")
		}
	}
	for _, r := range readCSVRows(t, outDir, "13-two-point") {
		if best := value["13-two-point"]["ll:d=2 srpt "+r.s(t, "load")]; r.f(t, "value") < best {
			t.Errorf("13-two-point load %s: %s %s has mean response %v, below LL-2 SRPT's %v (the answer says LL-2 SRPT is the best pair)",
				r.s(t, "load"), r.s(t, "spec"), r.s(t, "discipline"), r.f(t, "value"), best)
		}
	}
	for table, vs := range value {
		for key, v := range vs {
			f := strings.Fields(key)
			if (f[0] != "rnd" && f[0] != "ll:d=2") || f[1] == "srpt" {
				continue
			}
			if s := vs[f[0]+" srpt "+f[2]]; !(s <= v) {
				t.Errorf("%s %s load %s: SRPT's %v above %s's %v (the answer says SRPT is the best discipline)", table, f[0], f[2], s, f[1], v)
			}
		}
	}
	// The request log: a 99th percentile with a positive value each, and the
	// policies that read the servers (JSQ, LL-2) at least 5 times below RND
	// and RR at every load ("about ten times lower").
	p99 := map[string]map[string]float64{}
	for _, r := range readCSVRows(t, outDir, "13-log") {
		if v := r.f(t, "value"); !(v > 0) {
			t.Errorf("13-log %s load %v: p99 %v", r.s(t, "spec"), r.f(t, "load"), v)
		}
		if p99[r.s(t, "load")] == nil {
			p99[r.s(t, "load")] = map[string]float64{}
		}
		p99[r.s(t, "load")][r.s(t, "spec")] = r.f(t, "value")
	}
	for load, at := range p99 {
		if reads, blind := math.Max(at["jsq"], at["ll:d=2"]), math.Min(at["rnd"], at["rr"]); !(blind >= 5*reads) {
			t.Errorf("13-log load %s: RND and RR's p99 at least %v, JSQ and LL-2's at most %v: not 5 times lower", load, blind, reads)
		}
	}
}

// homeworkStudents checks the students' files of notebook 13 beside its
// report: the notebook has no cell tagged solution and no output; its
// report view, its page with code and its PDF hold no answer (no "Answer."
// lead, no text of the solution cells, no table and no figure: every table
// and figure of the notebook answers a question), while the full report
// has them.
func homeworkStudents(t *testing.T, outDir string) {
	dir, stem := filepath.Dir(outDir), filepath.Base(outDir)
	raw, err := os.ReadFile(filepath.Join(dir, stem+"-students.ipynb"))
	if err != nil {
		t.Fatalf("no students' notebook: %v", err)
	}
	var nb struct {
		Cells []struct {
			Type     string `json:"cell_type"`
			Metadata struct {
				Tags []string `json:"tags"`
			} `json:"metadata"`
			Outputs []any `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	code := 0
	for i, c := range nb.Cells {
		for _, tag := range c.Metadata.Tags {
			if tag == "solution" {
				t.Errorf("students' notebook: cell %d is tagged solution", i)
			}
		}
		if len(c.Outputs) > 0 {
			t.Errorf("students' notebook: cell %d has %d outputs", i, len(c.Outputs))
		}
		if c.Type == "code" {
			code++
		}
	}
	if code < 4 {
		t.Errorf("students' notebook: %d code cells, want the set-up and an empty cell per question", code)
	}
	// Text of the solution cells only (prose and code), none of which a student may see.
	answers := []string{"Answer.", "For the teaching assistant", "Pollaczek-Khinchine", "13-log-ranking"}
	for _, a := range append(answers, "nb.Rank(") { // code reads as written in the notebook
		if strings.Contains(string(raw), a) {
			t.Errorf("the students' notebook holds %q, an answer's text", a)
		}
	}
	pdf, err := ReadPDF(filepath.Join(dir, stem+"-students.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"students' PDF": strings.Join(pdf.Text, "\n")}
	for _, f := range []string{"-students.html", "-students-code.html"} {
		b, err := os.ReadFile(filepath.Join(dir, stem+f))
		if err != nil {
			t.Fatal(err)
		}
		files[stem+f] = string(b)
	}
	for name, text := range files {
		for _, a := range answers {
			if strings.Contains(text, a) {
				t.Errorf("%s holds %q, an answer's text", name, a)
			}
		}
		if strings.Contains(text, "<table") || strings.Contains(text, "data:image/png") {
			t.Errorf("%s holds a table or a figure: every one of notebook 13's answers a question", name)
		}
	}
	full, err := os.ReadFile(filepath.Join(dir, stem+"-code.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range answers {
		if !strings.Contains(string(full), a) {
			t.Errorf("the full report with code lacks %q: the check above looks for text that is not there", a)
		}
	}
}
