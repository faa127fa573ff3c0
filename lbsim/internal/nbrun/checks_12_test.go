package nbrun

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func init() { notebookChecks["12-size-aware-servers.ipynb"] = checkSizeAware }

// The notebook's model: K servers, H2 sizes of SCV 30 and a Pareto law of
// tail index 1.5 bounded at 1000, both of mean 1.
const (
	saK                = 10
	saSCV              = 30
	saAlpha, saParetoH = 1.5, 1000.0
)

// saLaw is a size law of mean 1 by its distribution function and partial
// moments E[X; X <= x], E[X^2; X <= x], written here from textbook formulas.
type saLaw struct {
	cdf, m1, m2 func(x float64) float64
	top         float64 // beyond it the law has no mass (to 1e-15)
}

// h2Law is the H2 law of mean 1 with balanced means (p1/mu1 = p2/mu2 = 1/2)
// and SCV scv: each phase of rate r gives P = 1 - e^{-rx}, E[X; X <= x] =
// (1 - e^{-rx}(1 + rx))/r and E[X^2; X <= x] = (2 - e^{-rx}(2 + 2rx + r^2x^2))/r^2.
func h2Law(scv float64) saLaw {
	p1 := (1 + math.Sqrt((scv-1)/(scv+1))) / 2
	ph := [2][2]float64{{p1, 2 * p1}, {1 - p1, 2 * (1 - p1)}}
	sum := func(f func(r, x float64) float64) func(float64) float64 {
		return func(x float64) float64 {
			x = math.Min(x, 1e6) // the tail beyond holds e^-30000 of the jobs
			return ph[0][0]*f(ph[0][1], x) + ph[1][0]*f(ph[1][1], x)
		}
	}
	return saLaw{
		cdf: sum(func(r, x float64) float64 { return -math.Expm1(-r * x) }),
		m1:  sum(func(r, x float64) float64 { return (1 - math.Exp(-r*x)*(1+r*x)) / r }),
		m2: sum(func(r, x float64) float64 {
			return (2 - math.Exp(-r*x)*(2+2*r*x+r*r*x*x)) / (r * r)
		}),
		top: 40 / ph[1][1],
	}
}

// paretoLaw is the Pareto law of tail index a on [L, h] of mean 1: density
// a L^a x^{-a-1}/(1 - (L/h)^a), L found here by bisection.
func paretoLaw(a, h float64) saLaw {
	var l float64
	part := func(j, x float64) float64 { // E[X^j; X <= x] for x in [L, h]
		x = math.Max(math.Min(x, h), l)
		return a * math.Pow(l, a) / (1 - math.Pow(l/h, a)) * (math.Pow(x, j-a) - math.Pow(l, j-a)) / (j - a)
	}
	lo, hi := 0.0, 1.0
	for range 200 {
		if l = (lo + hi) / 2; part(1, h) < 1 {
			lo = l
		} else {
			hi = l
		}
	}
	return saLaw{
		cdf: func(x float64) float64 {
			x = math.Max(math.Min(x, h), l)
			return (1 - math.Pow(l/x, a)) / (1 - math.Pow(l/h, a))
		},
		m1:  func(x float64) float64 { return part(1, x) },
		m2:  func(x float64) float64 { return part(2, x) },
		top: h,
	}
}

// srptByHand is the M/G/1-SRPT mean response (Schrage and Miller) of one
// server with arrival rate lambda, by plain quadrature on a fine geometric
// grid: E[T] = int T(x) dF(x), T(x) = lambda (m2(x) + x^2 (1 - F(x))) /
// (2 (1 - rho(x))^2) + int_0^x dt / (1 - rho(t)), rho(x) = lambda m1(x), for
// a law without atoms; E[T(X) w(X)] with the weight w (1: the mean
// response; 1/x: the mean slowdown).
func srptByHand(law saLaw, lambda float64, w func(x float64) float64) float64 {
	const n = 400_000
	lo := 1e-9
	ratio := math.Pow(law.top/lo, 1.0/n)
	f0, resid, total := 0.0, 0.0, 0.0
	t := func(x, resid float64) float64 {
		rho := lambda * law.m1(x)
		return lambda*(law.m2(x)+x*x*(1-law.cdf(x)))/(2*(1-rho)*(1-rho)) + resid
	}
	prevT, prevX := 0.0, 0.0 // prevT is T(x) w(x) at the point before
	for i := 0; i <= n; i++ {
		x := lo * math.Pow(ratio, float64(i))
		if i == n {
			x = law.top
		}
		// the residence integral by the trapezoid rule
		resid += (x - prevX) * (1/(1-lambda*law.m1(prevX)) + 1/(1-lambda*law.m1(x))) / 2
		f, tx := law.cdf(x), t(x, resid)*w(x)
		total += (f - f0) * (tx + prevT) / 2
		f0, prevT, prevX = f, tx, x
	}
	return total
}

// checkSizeAware checks notebook 12 (issue 37): SITA-E's intervals give
// every server 1/K of the work, by hand from the laws' partial moments; the
// exact values shown (RND under FCFS, PS and SRPT, SITA-E under FCFS and
// PS, the homework's RND and SITA-c under FCFS and SRPT) against formulas
// written here; SRPT below PS and FCFS; SITA-c under SRPT the same numbers
// as under FCFS (each of its servers sees one size); the simulated means
// within 3 half-widths of the exact ones unless warned.
func checkSizeAware(t *testing.T, outDir string) {
	laws := map[string]saLaw{"H2": h2Law(saSCV), "Pareto": paretoLaw(saAlpha, saParetoH)}
	groups := map[string][][2]float64{} // each law's intervals (from, to]
	for _, r := range readCSVRows(t, outDir, "12-groups") {
		law := laws[r.s(t, "law")]
		from, to := r.f(t, "from"), r.f(t, "to")
		if n := len(groups[r.s(t, "law")]); n > 0 && groups[r.s(t, "law")][n-1][1] != from {
			t.Errorf("%s server %s starts at %v, not where the one before ends", r.s(t, "law"), r.s(t, "server"), from)
		}
		groups[r.s(t, "law")] = append(groups[r.s(t, "law")], [2]float64{from, to})
		if work := law.m1(to) - law.m1(from); math.Abs(work*saK-1) > 1e-9 {
			t.Errorf("%s server %s: (%v, %v] brings %.12g of the work by hand, want 1/K", r.s(t, "law"), r.s(t, "server"), from, to, work)
		}
		if jobs := law.cdf(to) - law.cdf(from); math.Abs(jobs-r.f(t, "job_share")) > 1e-9 {
			t.Errorf("%s server %s: job share %v, by hand %v", r.s(t, "law"), r.s(t, "server"), r.f(t, "job_share"), jobs)
		}
	}
	for name, gs := range groups {
		if len(gs) != saK || gs[0][0] != 0 || !math.IsInf(gs[saK-1][1], 1) {
			t.Errorf("%s: %d intervals from %v to %v, want K = %d covering (0, +Inf)", name, len(gs), gs[0][0], gs[len(gs)-1][1], saK)
		}
	}

	// Each SITA-E server under FCFS and PS: M/G/1 of its interval's sizes at load rho.
	for _, r := range readCSVRows(t, outDir, "12-servers") {
		law, g := laws[r.s(t, "law")], int(r.f(t, "server"))-1
		lo, hi := groups[r.s(t, "law")][g][0], groups[r.s(t, "law")][g][1]
		p := law.cdf(hi) - law.cdf(lo)
		e1, e2 := (law.m1(hi)-law.m1(lo))/p, (law.m2(hi)-law.m2(lo))/p
		rho := r.f(t, "load")
		want := map[string]float64{"fcfs": e1 + saK*rho*p*e2/(2*(1-rho)), "ps": e1 / (1 - rho)}[r.s(t, "discipline")]
		if math.Abs(r.f(t, "mean_size")-e1) > 1e-9*e1 {
			t.Errorf("12-servers %s server %d: mean size %v, by hand %v", r.s(t, "law"), g+1, r.f(t, "mean_size"), e1)
		}
		if got := r.f(t, "exact_response"); want != 0 && math.Abs(got-want) > 1e-6*want {
			t.Errorf("12-servers %s %s server %d: exact %.10g, by hand %.10g", r.s(t, "law"), r.s(t, "discipline"), g+1, got, want)
		}
	}

	for table, lawName := range map[string]string{"12-h2": "H2", "12-pareto": "Pareto"} {
		law := laws[lawName]
		m2 := law.m2(math.Inf(1))
		at := map[string]csvRow{}
		for _, r := range readCSVRows(t, outDir, table) {
			at[r.s(t, "candidate")+" "+r.s(t, "discipline")+" "+r.s(t, "load")] = r
			rho := r.f(t, "load")
			lambda := saK * rho // total, mean 1
			var want float64
			switch r.s(t, "candidate") + " " + r.s(t, "discipline") {
			case "RND fcfs":
				want = 1 + lambda/saK*m2/(2*(1-rho))
			case "RND ps", "SITA-E ps":
				want = 1 / (1 - rho)
			case "RND srpt":
				want = srptByHand(law, lambda/saK, func(float64) float64 { return 1 })
			case "SITA-E fcfs": // M/G/1 per server, each fed by its interval
				for _, g := range groups[lawName] {
					p := law.cdf(g[1]) - law.cdf(g[0])
					e1, e2 := (law.m1(g[1])-law.m1(g[0]))/p, (law.m2(g[1])-law.m2(g[0]))/p
					want += p * (e1 + lambda*p*e2/(2*(1-rho)))
				}
			default:
				continue
			}
			if got := r.f(t, "exact_response"); math.Abs(got-want) > 1e-6*want {
				t.Errorf("%s %s %s load %v: exact %.10g, by hand %.10g", table, r.s(t, "candidate"), r.s(t, "discipline"), rho, got, want)
			}
			simulatedNearExact(t, table, r)
		}
		for key, r := range at {
			if !strings.HasSuffix(strings.Fields(key)[1], "srpt") {
				continue
			}
			c, load := strings.Fields(key)[0], strings.Fields(key)[2]
			for _, other := range []string{"fcfs", "ps"} {
				o, ok := at[c+" "+other+" "+load]
				if ok && !math.IsNaN(o.f(t, "exact_response")) && !(r.f(t, "exact_response") <= o.f(t, "exact_response")) {
					t.Errorf("%s %s load %s: exact SRPT %v above %s's %v", table, c, load, r.f(t, "exact_response"), other, o.f(t, "exact_response"))
				}
			}
		}
	}

	// The handout's two-point law: x_m = 1, x_M = 1000, P(x_M) = 1000^-0.8.
	const xm, xM = 1.0, 1000.0
	p := math.Pow(xM, -0.8)
	mean, m2 := (1-p)*xm+p*xM, (1-p)*xm*xm+p*xM*xM
	hw := map[string]csvRow{}
	for _, r := range readCSVRows(t, outDir, "12-homework") {
		hw[r.s(t, "candidate")+" "+r.s(t, "discipline")+" "+r.s(t, "load")] = r
		rho := r.f(t, "load")
		lk := saK * rho / mean / saK // one server's arrival rate under RND
		var want float64
		switch r.s(t, "candidate") + " " + r.s(t, "discipline") {
		case "RND fcfs":
			want = mean + lk*m2/(2*(1-rho))
		case "RND srpt": // Schrage-Miller with two atoms, ties FCFS
			rs := lk * (1 - p) * xm // the load of the short jobs
			short := lk*xm*xm/(2*(1-rs)) + xm
			long := lk*m2/(2*(1-rs)*(1-rho)) + xm + (xM-xm)/(1-rs)
			want = (1-p)*short + p*long
		case "SITA-c, best c fcfs", "SITA-c, best c srpt":
			c, err := strconv.Atoi(strings.TrimPrefix(r.s(t, "policy"), "sita:c="))
			if err != nil {
				t.Fatalf("12-homework: SITA-c's policy %q: %v", r.s(t, "policy"), err)
			}
			w, _, _, ok := sitaWait(saK, c, rho)
			if !ok {
				t.Errorf("12-homework load %v: SITA-%d is unstable by hand", rho, c)
			}
			best := math.Inf(1)
			for b := 1; b < saK; b++ {
				if wb, _, _, ok := sitaWait(saK, b, rho); ok {
					best = math.Min(best, wb)
				}
			}
			if w != best {
				t.Errorf("12-homework load %v: SITA-%d waits %v, the best c waits %v (brute force)", rho, c, w, best)
			}
			want = w + mean
		default:
			continue
		}
		if got := r.f(t, "exact_response"); math.Abs(got-want) > 1e-9*want {
			t.Errorf("12-homework %s %s load %v: exact %.10g, by hand %.10g", r.s(t, "candidate"), r.s(t, "discipline"), rho, got, want)
		}
		simulatedNearExact(t, "12-homework", r)
	}
	var keys []string
	for k := range hw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strings.HasPrefix(k, "SITA-c, best c srpt") {
			continue
		}
		f := hw[strings.Replace(k, " srpt ", " fcfs ", 1)]
		if s := hw[k]; f == nil || math.Abs(s.f(t, "mean_response")-f.f(t, "mean_response")) > 1e-9*f.f(t, "mean_response") {
			t.Errorf("12-homework %s: SITA-c under SRPT %v, under FCFS %v: each server sees one size, want the same numbers", k, hw[k]["mean_response"], f["mean_response"])
		}
	}
}

// simulatedNearExact: an unwarned simulated mean lies within 3 half-widths
// of the exact value.
func simulatedNearExact(t *testing.T, table string, r csvRow) {
	t.Helper()
	sim, ci, exact := r.f(t, "mean_response"), r.f(t, "mean_response_ci95"), r.f(t, "exact_response")
	if !math.IsNaN(exact) && math.Abs(sim-exact) > 3*ci && r.s(t, "warnings") == "" {
		t.Errorf("%s %s %s load %s: simulated %.5g ± %.3g, exact %.5g (more than 3 half-widths, no warning)",
			table, r.s(t, "candidate"), r.s(t, "discipline"), r.s(t, "load"), sim, ci, exact)
	}
}
