package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
)

// RND minus RR with exponential sizes on K=5 servers at load 0.8: RND makes
// each server M/M/1 (Pollaczek-Khinchine), RR makes it E_5/M/1; the paired
// interval must cover the exact difference and be narrower than the
// unpaired one, and the ratio's interval must cover the exact ratio.
func TestCompareCLIExact(t *testing.T) {
	flags := []string{"-servers", "5", "-load", "0.8", "-sizes", "exp:mean=1", "-jobs", "100000", "-reps", "10", "-seed", "7"}
	out, errOut, code := cli(append([]string{"compare", "-json", "-policy", "rnd,rr"}, flags...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	num := func(k string) float64 {
		v, ok := obj[k].(float64)
		if !ok {
			t.Fatalf("field %s is %v, want a number (%s)", k, obj[k], out)
		}
		return v
	}
	exact := func(p lbsim.Policy) float64 {
		ref, ok := lbsim.Theory(lbsim.Config{Servers: 5, Load: 0.8, Sizes: lbsim.Exponential{M: 1}, Policy: p, Jobs: 1})
		if !ok || ref.Kind != lbsim.ExactValue {
			t.Fatalf("no exact value for %v", p)
		}
		return ref.Wait
	}
	rnd, rr := exact(lbsim.Random{}), exact(lbsim.RoundRobin{})
	diff, half, unpaired := num("diff_mean_wait"), num("diff_mean_wait_ci95"), num("unpaired_diff_ci95")
	if math.Abs(diff-(rnd-rr)) > half {
		t.Errorf("paired %v ± %v does not cover the exact %v - %v = %v", diff, half, rnd, rr, rnd-rr)
	}
	if !(half < unpaired) {
		t.Errorf("paired half-width %v not below the unpaired %v", half, unpaired)
	}
	if ratio, rh := num("ratio_mean_wait"), num("ratio_mean_wait_ci95"); math.Abs(ratio-rnd/rr) > rh || !(rh < num("unpaired_ratio_ci95")) {
		t.Errorf("ratio %v ± %v (unpaired ± %v), exact %v", ratio, rh, num("unpaired_ratio_ci95"), rnd/rr)
	}
	if obj["a"] != "RND" || obj["b"] != "RR" || num("pairs") != 10 || math.Abs(num("exact_diff")-(rnd-rr)) > 1e-12 {
		t.Errorf("a %v, b %v, pairs %v, exact_diff %v: want RND, RR, 10, %v", obj["a"], obj["b"], obj["pairs"], obj["exact_diff"], rnd-rr)
	}
	t.Logf("diff %.4g ± %.3g (unpaired ± %.3g), exact %.4g", diff, half, unpaired, rnd-rr)

	text, errOut, code := cli(append([]string{"compare", "-policy", "rnd,rr"}, flags...)...)
	if code != 0 || !strings.Contains(text, "RND - RR") || !strings.Contains(text, "unpaired") || !strings.Contains(text, "exact") {
		t.Errorf("exit %d, summary %q (%s): want the difference with both intervals and the exact value", code, text, errOut)
	}
	ps, errOut, code := cli("compare", "-json", "-policy", "rnd,jsq:d=2", "-discipline", "ps", "-sizes", "exp:mean=1", "-jobs", "5000", "-reps", "2")
	if code != 0 || !strings.Contains(ps, `"diff_mean_response"`) {
		t.Errorf("exit %d, %q (%s): under PS the difference is of the mean response", code, ps, errOut)
	}
}

// compare takes two policies, and refuses what cannot be paired.
func TestCompareCLIRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-policy", "rnd"}, "-policy has 1 value; compare takes two, e.g. -policy rnd,rr"},
		{[]string{"-policy", "rnd,rr,jsq"}, "-policy has 3 values; compare takes two"},
		{[]string{"-policy", "rnd,rr", "-load", "0.5,0.6"}, "-load has 2 values"},
		{[]string{"-policy", "rnd,rr", "-precision", "0.05"}, "-precision stops each run at its own length"},
	} {
		_, errOut, code := cli(append([]string{"compare"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// Issue 34 item 12: compare -policy rnd,rnd printed "(+Infx wider)": the
// same configuration twice is refused, and runs that differ in nothing
// unit by unit (RND and RR on one server) say so, with no ratio of 0.
func TestCompareCLINoInfinity(t *testing.T) {
	out, errOut, code := cli("compare", "-policy", "rnd,rnd", "-jobs", "2000")
	if code == 0 || !strings.Contains(errOut, "RND and RND are the same configuration") || strings.Contains(out, "Inf") {
		t.Errorf("rnd,rnd: exit %d, %q, %q", code, out, errOut)
	}
	out, errOut, code = cli("compare", "-policy", "rnd,rr", "-servers", "1", "-jobs", "2000")
	if code != 0 || strings.Contains(out, "Inf") || !strings.Contains(out, "paired 95% CI ± 0 (20 batch means); unpaired ± ") ||
		!strings.Contains(out, "(the paired differences do not vary)") {
		t.Errorf("rnd,rr on one server: exit %d, %q (%s)", code, out, errOut)
	}
}
