package nbrun

import (
	"math"
	"strings"
	"testing"
)

func init() { notebookChecks["10-several-dispatchers.ipynb"] = checkSeveralDispatchers }

// jiqRandomLimit is the mean-field limit of JIQ-Random with I-queues and
// withdrawals (Van Houdt 2024) by hand, from the product form: a
// dispatcher's tokens are u_j = q0 prod_(i<=j) tau / (r + i q0), with the
// u_j summing to 1 and their mean r (1 - rho); it returns q0 and the wait
// of the M/M/1 queue at load rho q0 (sizes of mean 1).
func jiqRandomLimit(rho, r float64) (q0, wait float64) {
	// mass and mean of the u_j for given q and tau
	moments := func(q, tau float64) (sum, mean float64) {
		w := 1.0
		sum = 1
		for i := 1; i < 1_000_000 && (w > 1e-18*sum || tau > r+float64(i)*q); i++ {
			w *= tau / (r + float64(i)*q)
			sum, mean = sum+w, mean+float64(i)*w
			if q*sum > 2 {
				break
			}
		}
		return q * sum, q * mean
	}
	meanAt := func(q float64) float64 {
		lo, hi := 0.0, 4*r+4
		for range 200 {
			if mid := (lo + hi) / 2; func() bool { s, _ := moments(q, mid); return s > 1 }() {
				hi = mid
			} else {
				lo = mid
			}
		}
		_, m := moments(q, lo)
		return m
	}
	lo, hi := 0.0, 1.0
	for range 60 {
		if mid := (lo + hi) / 2; meanAt(mid) > r*(1-rho) {
			lo = mid
		} else {
			hi = mid
		}
	}
	q0 = (lo + hi) / 2
	a := rho * q0
	return q0, a / (1 - a)
}

// jsq2MeanField is Mitzenmacher's limit for JSQ-2 with exponential sizes
// of mean 1: E[W] = sum_(i>=1) rho^(2^i - 2) - 1.
func jsq2MeanField(rho float64) float64 {
	w := 0.0
	for i := 2; i < 40; i++ {
		w += math.Pow(rho, math.Pow(2, float64(i))-2)
	}
	return w
}

// checkSeveralDispatchers checks notebook 10 (issue 24): on a stale board
// private tallies lose to more dispatchers while without a tally M changes
// nothing, and the board's messages are K M / (lambda T) a job; JIQ with
// withdrawals on the mean-field limit by hand, in wait and messages (and
// section 3's JIQ runs at M = 100 the same numbers as section 2's); JSQ-2
// on Mitzenmacher's limit at any M with exactly 4 messages a job, LSQ with
// one probe a job exactly 2, JIQ's wait 10 times below JSQ-2's with 100
// servers per dispatcher.
func checkSeveralDispatchers(t *testing.T, outDir string) {
	herd := readCSVRows(t, outDir, "10-herding")
	if len(herd) != 14 {
		t.Fatalf("10-herding has %d rows, want 7 dispatcher counts x tally on and off", len(herd))
	}
	type est struct{ w, ci float64 }
	byM := map[bool]map[int]est{true: {}, false: {}}
	for _, r := range herd {
		m, tally := int(r.f(t, "dispatchers")), r.s(t, "tally") == "true"
		byM[tally][m] = est{r.f(t, "mean_wait"), r.f(t, "ci95")}
		if want := float64(100*m) / (0.9 * 100 * 10); math.Abs(r.f(t, "messages_per_job")-want) > 0.01*want {
			t.Errorf("10-herding M=%d: %v messages per job, want K M/(lambda T) = %.4g", m, r.f(t, "messages_per_job"), want)
		}
	}
	if one, many := byM[true][1], byM[true][16]; one.w+one.ci >= many.w-many.ci {
		t.Errorf("tallies: wait %v with one dispatcher, not below the %v of 16", one, many)
	}
	for m, e := range byM[false] {
		if one := byM[false][1]; math.Abs(e.w-one.w) > 1.5*(e.ci+one.ci) {
			t.Errorf("no tally: wait %v with M=%d, %v with one: a board without tallies is the same at any M", e, m, one)
		}
	}
	if a, b := byM[true][1], byM[false][1]; a.w+a.ci >= b.w-b.ci {
		t.Errorf("one dispatcher: wait %v with its tally, not below %v without", a, b)
	}

	jiq := map[string]csvRow{} // by policy and load
	for _, r := range readCSVRows(t, outDir, "10-jiq") {
		policy, rho, w, ci := r.s(t, "policy"), r.f(t, "load"), r.f(t, "mean_wait"), r.f(t, "ci95")
		jiq[policy+" "+r.s(t, "load")] = r
		if !strings.Contains(policy, "withdraw") {
			continue
		}
		lim := r.f(t, "limit_wait")
		if policy == "JIQ withdraw" {
			q0, want := jiqRandomLimit(rho, 10)
			if math.Abs(lim-want) > 1e-6*want || math.Abs(r.f(t, "q0")-q0) > 1e-6 {
				t.Errorf("JIQ withdraw at %v: limit %v, q0 %v; by hand %v, %v", rho, lim, r.f(t, "q0"), want, q0)
			}
		}
		if math.Abs(w-lim) > 1.5*ci+0.03*lim {
			t.Errorf("%s at %v: simulated wait %v ± %v, mean field %v", policy, rho, w, ci, lim)
		}
		if msgs, want := r.f(t, "messages_per_job"), r.f(t, "limit_messages_per_job"); math.Abs(msgs-want) > 0.03*want {
			t.Errorf("%s at %v: %v messages per job, mean field %v", policy, rho, msgs, want)
		}
	}

	cost := map[string]map[[2]float64]est{}
	for _, r := range readCSVRows(t, outDir, "10-cost") {
		p, key := r.s(t, "policy"), [2]float64{r.f(t, "dispatchers"), r.f(t, "load")}
		if cost[p] == nil {
			cost[p] = map[[2]float64]est{}
		}
		cost[p][key] = est{r.f(t, "mean_wait"), r.f(t, "ci95")}
		msgs := r.f(t, "messages_per_job")
		if s, ok := jiq[p+" "+r.s(t, "load")]; ok && key[0] == 100 && (s.s(t, "mean_wait") != r.s(t, "mean_wait") || s.s(t, "ci95") != r.s(t, "ci95")) {
			t.Errorf("%s, M=100, load %v: wait %s ± %s in 10-cost, %s ± %s in 10-jiq: the same runs (section 2's), want the same numbers",
				p, key[1], r.s(t, "mean_wait"), r.s(t, "ci95"), s.s(t, "mean_wait"), s.s(t, "ci95"))
		}
		switch {
		case p == "JSQ-2" && msgs != 4, p == "LSQ d=1" && msgs != 2:
			t.Errorf("%s, M=%v, load %v: %v messages per job, want exactly %v", p, key[0], key[1], msgs, map[string]int{"JSQ-2": 4, "LSQ d=1": 2}[p])
		case p == "JSQ-2":
			if want := jsq2MeanField(key[1]); math.Abs(r.f(t, "mean_wait")-want) > 1.5*r.f(t, "ci95")+0.05*want {
				t.Errorf("JSQ-2, M=%v, load %v: wait %v ± %v, mean field %v", key[0], key[1], r.f(t, "mean_wait"), r.f(t, "ci95"), want)
			}
		}
	}
	if len(cost["JSQ-2"]) == 0 || len(cost["LSQ d=1"]) == 0 || len(cost["JIQ withdraw"]) == 0 {
		t.Fatalf("10-cost lacks JSQ-2, LSQ d=1 or JIQ withdraw: %d policies", len(cost))
	}
	for key, j := range cost["JIQ withdraw"] {
		if jsq := cost["JSQ-2"][key]; key[0] == 10 && key[1] >= 0.7 && (j.w+j.ci)*10 >= jsq.w-jsq.ci {
			t.Errorf("M=10, load %v: JIQ withdraw waits %v, not 10 times below JSQ-2's %v", key[1], j, jsq)
		}
	}
}
