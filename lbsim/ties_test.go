package lbsim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// The tie rules print back as their specs (random as the plain spec), and a
// bad word is refused with the word, the allowed words and an example.
func TestTiesSpecs(t *testing.T) {
	for spec, want := range map[string]string{
		"jsq:ties=random": "jsq", "jsq:ties=first": "jsq:ties=first", "jsq:d=2,ties=oldest": "jsq:d=2,ties=oldest",
		"sed:ties=rr": "sed:ties=rr", "sed:d=2,ties=first": "sed:d=2,ties=first", "lwl:ties=oldest": "lwl:ties=oldest",
		"ll:d=2,ties=rr": "ll:d=2,ties=rr", "ll:d=2,ties=random": "ll:d=2",
	} {
		p, err := lbsim.ParsePolicy(spec)
		if err != nil || p.String() != want {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %s", spec, p, err, want)
			continue
		}
		if q, err := lbsim.ParsePolicy(p.String()); err != nil || q != p {
			t.Errorf("%s does not read back: %v, %v", p, q, err)
		}
	}
	if got := lbsim.Label(lbsim.JSQ{Ties: lbsim.TiesFirst}); got != "JSQ (ties first)" {
		t.Errorf("label %q", got)
	}
	_, err := lbsim.ParsePolicy("jsq:ties=lowest")
	for _, w := range []string{"ties=lowest", "random, first, oldest, rr", "jsq:ties=first"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("jsq:ties=lowest: error %v, want it to say %q", err, w)
		}
	}
	base := lbsim.Config{Servers: 3, Load: 0.5, Sizes: exp1, Jobs: 1000}
	for _, c := range []struct {
		p      lbsim.Policy
		refr   float64
		m      int
		reason string
	}{
		{lbsim.JSQ{D: 2, Mem: 1, Ties: lbsim.TiesFirst}, 0, 1, "mem or replace"},
		{lbsim.JSQ{D: 2, Replace: true, Ties: lbsim.TiesRR}, 0, 1, "mem or replace"},
		{lbsim.JSQ{Ties: lbsim.TiesOldest}, 1, 1, "refresh=1"},
		{lbsim.SED{Ties: lbsim.TiesOldest}, 0, 2, "2 dispatchers"},
	} {
		cfg := base
		cfg.Policy, cfg.Refresh, cfg.Dispatchers = c.p, c.refr, c.m
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: error %v, want one naming %q", c.p, err, c.reason)
		}
	}
}

// Exponential sizes, equal speeds, FCFS, JSQ over K = 3: a tie rule leaves
// the law of the sorted counts, so the mean response is the exact chain's
// (the run's own reference); but first sends server 0 more jobs, the share
// the chain written here gives (an arrival joins server 0 whenever it has
// the fewest jobs, ties included).
func TestTiesJSQEqualSpeeds(t *testing.T) {
	const rho, k = 0.7, 3
	lambda := rho * k
	st, err := theory.Chain[[3]int]{
		Next: func(s [3]int, emit func([3]int, float64)) {
			best := 0
			for j := 1; j < k; j++ {
				if s[j] < s[best] {
					best = j
				}
			}
			to := s
			to[best]++
			emit(to, lambda)
			for j := range k {
				if s[j] > 0 {
					to := s
					to[j]--
					emit(to, 1)
				}
			}
		},
		Keep:  func(s [3]int) bool { return s[0] <= 30 && s[1] <= 30 && s[2] <= 30 },
		Level: func(s [3]int) int { return s[0] + s[1] + s[2] },
	}.Solve()
	if err != nil {
		t.Fatal(err)
	}
	share0 := st.Mean(func(s [3]int) float64 {
		if s[0] <= s[1] && s[0] <= s[2] {
			return 1
		}
		return 0
	})
	for _, rule := range []lbsim.Ties{lbsim.TiesFirst, lbsim.TiesOldest, lbsim.TiesRR} {
		cfg := lbsim.Config{Servers: k, Load: rho, Sizes: exp1, Policy: lbsim.JSQ{Ties: rule}, Jobs: 200_000, Reps: 8}
		r := run(t, cfg)
		if !r.HasExact {
			t.Fatalf("%s: no exact reference (%s)", cfg.Policy, r.Exact.Method)
		}
		within(t, cfg.Policy.String()+" response", r.Response, r.Exact.Response, 0)
		if rule != lbsim.TiesFirst {
			continue
		}
		// The share of jobs, from the work (sizes do not depend on the choice),
		// over 6 seeds: its mean within 4 standard errors of the chain's.
		var shares []float64
		for seed := range 6 {
			cfg.Seed, cfg.Reps = uint64(seed+1), 1
			u := run(t, cfg).ServerUtilization
			shares = append(shares, u[0]/(u[0]+u[1]+u[2]))
		}
		m, se := meanSE(shares)
		if math.Abs(m-share0) > 4*se || share0 < 0.36 { // well above 1/3
			t.Errorf("JSQ first: server 0's share %.4f ± %.4f (s.e.), chain %.4f", m, se, share0)
		} else {
			t.Logf("JSQ first: server 0's share %.4f ± %.4f (s.e.), chain %.4f", m, se, share0)
		}
	}
}

func meanSE(x []float64) (m, se float64) {
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		se += (v - m) * (v - m)
	}
	return m, math.Sqrt(se / float64(len(x)-1) / float64(len(x)))
}

// Speeds 2, 1, 1: ties to the lowest-numbered server (the fast one) and
// uniform ties have different exact chains (theory.DispatchRule.First),
// and each run matches its own.
func TestTiesFirstUnequalSpeeds(t *testing.T) {
	speeds := []float64{2, 1, 1}
	const rho = 0.7
	var exact [2]float64
	for i, first := range []bool{false, true} {
		d, err := theory.DispatchExact(theory.DispatchRule{First: first}, rho*4, speeds)
		if err != nil {
			t.Fatal(err)
		}
		exact[i] = d.Response
		p := lbsim.JSQ{}
		if first {
			p.Ties = lbsim.TiesFirst
		}
		r := run(t, lbsim.Config{Servers: 3, Speeds: speeds, Load: rho, Sizes: exp1, Policy: p, Jobs: 300_000, Reps: 8})
		if r.Exact.Response != d.Response {
			t.Errorf("%s: the run's exact %v (%s), the chain's %v", p, r.Exact.Response, r.Exact.Method, d.Response)
		}
		within(t, p.String()+" speeds 2,1,1", r.Response, d.Response, 0)
	}
	if math.Abs(exact[0]-exact[1]) < 0.01 {
		t.Errorf("exact JSQ random %v and first %v do not differ", exact[0], exact[1])
	}
}
