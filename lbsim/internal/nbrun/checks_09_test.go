package nbrun

import (
	"math"
	"testing"
)

func init() { notebookChecks["09-unequal-servers.ipynb"] = checkUnequalServers }

// speedSplitWait is the exact mean wait of random dispatching in proportion
// to speed with exponential sizes of mean 1: server k is M/M/1 at load rho
// and speed mu_k, so E[W] = sum_k p_k rho / (mu_k (1 - rho)), p_k = mu_k / sum(mu).
func speedSplitWait(speeds []float64, rho float64) float64 {
	sum, w := 0.0, 0.0
	for _, mu := range speeds {
		sum += mu
	}
	for _, mu := range speeds {
		w += mu / sum * rho / (mu * (1 - rho))
	}
	return w
}

// twoSampleLimit is the d-sampling bound for d = 2 on five servers of speed
// r and five of speed 1, by hand: the m slowest receive at least
// C(m,2)/C(10,2) of the jobs, so rho < min_m cap_m / (q_m (5 r + 5)), and 1.
func twoSampleLimit(r float64) float64 {
	limit, capM := 1.0, 0.0
	for m := 1; m <= 10; m++ {
		capM += map[bool]float64{true: 1, false: r}[m <= 5]
		if q := float64(m*(m-1)) / 90; q > 0 {
			limit = math.Min(limit, capM/(q*(5*r+5)))
		}
	}
	return limit
}

// sitaMD1Wait is SITA-c's mean wait with the handout's two-point sizes
// (1 and 1000, p = 1000^-0.8) at load rho on the given speeds: each class
// is split uniformly within its group, so server k of a group is M/D/1 with
// rate lambda_class / group size and service x / mu_k,
// W_k = lambda_k s^2 / (2 (1 - lambda_k s)).
func sitaMD1Wait(speeds []float64, c int, rho float64) float64 {
	p, capacity := math.Pow(1000, -0.8), 0.0
	for _, mu := range speeds {
		capacity += mu
	}
	lambda := rho * capacity / (1 - p + 1000*p)
	group := func(servers []float64, rate, x float64) float64 {
		w := 0.0
		for _, mu := range servers {
			l, s := rate/float64(len(servers)), x/mu
			w += l * s * s / (2 * (1 - l*s)) / float64(len(servers))
		}
		return w
	}
	return (1-p)*group(speeds[:c], lambda*(1-p), 1) + p*group(speeds[c:], lambda*p, 1000)
}

// checkUnequalServers checks notebook 09 (issue 23): the speed-proportional
// split on its exact M/M/1-per-server value, SED best at the top load and
// the split far behind, the load on capacity equal to rho, the K=3 runs on
// their exact values, the stability limits against the bound by hand, LL-2
// unstable just above its limit, and SITA's exact values against M/D/1 per server by hand.
func checkUnequalServers(t *testing.T, outDir string) {
	fast := []float64{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}
	waits := readCSVRows(t, outDir, "09-waits")
	if len(waits) != 30 {
		t.Fatalf("09-waits has %d rows, want 6 policies x 5 loads", len(waits))
	}
	at := map[string]float64{}
	for _, r := range waits {
		rho, w, ci := r.f(t, "load"), r.f(t, "mean_wait"), r.f(t, "ci95")
		if rho == 0.9 {
			at[r.s(t, "policy")] = w
		}
		if r.s(t, "policy") != "RND-speed" {
			continue
		}
		exact := speedSplitWait(fast, rho)
		if th := r.f(t, "theory"); math.Abs(th-exact) > 1e-9*exact {
			t.Errorf("RND-speed exact at %v = %v, want %v", rho, th, exact)
		}
		if math.Abs(w-exact) > 2.5*ci {
			t.Errorf("RND-speed at %v: %v ± %v, exact %v", rho, w, ci, exact)
		}
	}
	for _, p := range []string{"RND-speed", "RR-speed", "LL-2", "JSQ-2", "SED-2"} {
		if !(at["SED"] < at[p]) {
			t.Errorf("at rho=0.9 SED waits %v, %s %v: want SED best", at["SED"], p, at[p])
		}
	}
	if !(at["RND-speed"] > 3*at["SED"]) {
		t.Errorf("at rho=0.9 RND-speed %v, SED %v: want the split far behind", at["RND-speed"], at["SED"])
	}
	for _, r := range readCSVRows(t, outDir, "09-load") {
		if l := r.f(t, "load_on_capacity"); math.Abs(l-0.9) > 0.02 {
			t.Errorf("%s: load on capacity %v, want 0.9", r.s(t, "policy"), l)
		}
	}

	exact := readCSVRows(t, outDir, "09-exact")
	if len(exact) != 15 {
		t.Fatalf("09-exact has %d rows, want 5 policies x 3 loads", len(exact))
	}
	for _, r := range exact {
		rho, w, ci, th := r.f(t, "load"), r.f(t, "mean_wait"), r.f(t, "ci95"), r.f(t, "theory")
		if r.s(t, "policy") == "RND-speed" {
			if want := speedSplitWait([]float64{2, 1, 1}, rho); math.Abs(th-want) > 1e-9*want {
				t.Errorf("K=3 RND-speed exact at %v = %v, want %v", rho, th, want)
			}
		}
		if math.IsNaN(th) || math.Abs(w-th) > 3*ci {
			t.Errorf("K=3 %s at %v: %v ± %v, exact %v", r.s(t, "policy"), rho, w, ci, th)
		}
	}

	limits := readCSVRows(t, outDir, "09-limits")
	if len(limits) < 5 {
		t.Fatalf("09-limits has %d rows, want one per speed ratio", len(limits))
	}
	for _, r := range limits {
		ratio := r.f(t, "ratio")
		want := map[string]float64{"sed": 1, "ll_2": twoSampleLimit(ratio), "ll_3": math.Min(1, 12/(ratio+1)), "rnd": math.Min(1, 2/(ratio+1))}
		for col, w := range want {
			if got := r.f(t, col); math.Abs(got-w) > 1e-12 {
				t.Errorf("%s at r=%v: limit %v, want %v", col, ratio, got, w)
			}
		}
	}
	for _, r := range readCSVRows(t, outDir, "09-overload") {
		over, u, p := r.f(t, "load_over_limit"), r.f(t, "max_server_utilization"), r.s(t, "policy")
		unstable := p == "LL-2" && over > 1
		if unstable != (u > 1.02) || !unstable && u >= 1 {
			t.Errorf("%s at %.2f x LL-2's limit: busiest server's utilisation %v", p, over, u)
		}
	}

	for _, r := range readCSVRows(t, outDir, "09-sita") {
		speeds := fast
		if r.s(t, "short_jobs_to") == "slow servers" {
			speeds = []float64{1, 1, 1, 1, 1, 2, 2, 2, 2, 2}
		}
		c := int(r.f(t, "c"))
		if want, got := sitaMD1Wait(speeds, c, 0.5), r.f(t, "exact_wait"); math.Abs(got-want) > 1e-9*want {
			t.Errorf("SITA-%d, short jobs to the %s: exact %v, M/D/1 per server by hand %v", c, r.s(t, "short_jobs_to"), got, want)
		}
	}
	for _, r := range readCSVRows(t, outDir, "09-sita-best") {
		if w, ci, th := r.f(t, "mean_wait"), r.f(t, "ci95"), r.f(t, "theory"); math.Abs(w-th) > 3*ci {
			t.Errorf("SITA best c: %v ± %v, exact %v", w, ci, th)
		}
	}
}
