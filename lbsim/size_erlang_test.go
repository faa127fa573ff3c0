package lbsim

import (
	"math"
	"testing"
)

// Erlang-k sizes: the sample moments match E[X] = M and E[X^2] = M^2 (1 +
// 1/k), and RND on them gives each server the M/E_k/1 queue of
// Pollaczek-Khinchine, W = lambda_k E[X^2] / (2 (1 - rho)), computed here.
func TestErlangSizes(t *testing.T) {
	s, err := ParseSizes("erlang:k=4,mean=2")
	if err != nil {
		t.Fatal(err)
	}
	r := newStream(1, 0, streamSizes)
	const n = 400_000
	var m1, m2 float64
	for range n {
		x := s.Rand(r)
		m1, m2 = m1+x/n, m2+x*x/n
	}
	// Standard errors: sd(X)/sqrt(n) = 1/sqrt(n); sd(X^2)/sqrt(n) < 4/sqrt(n) here.
	if math.Abs(m1-2) > 5/math.Sqrt(n) || math.Abs(m2-5) > 20/math.Sqrt(n) || s.SecondMoment() != 5 || SCV(s) != 0.25 {
		t.Errorf("erlang:k=4,mean=2: sample E[X] %v, E[X^2] %v (law: %v, SCV %v); want 2, 5, SCV 0.25", m1, m2, s.SecondMoment(), SCV(s))
	}
	cfg := Config{Servers: 5, Load: 0.8, Sizes: s, Policy: Random{}, Jobs: 1_000_000, Warmup: 50_000, Reps: 4, Seed: 9}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lambdaK := 0.8 / 2 // per server: rho / E[X]
	want := lambdaK * 5 / (2 * (1 - 0.8))
	if math.Abs(res.Wait.Mean-want) > 2*res.Wait.CI95 || math.Abs(res.Exact.Wait-want) > 1e-12*want {
		t.Errorf("RND on Erlang-4 sizes: simulated %v, exact %v, want %v (M/E_4/1)", res.Wait, res.Exact.Wait, want)
	}
	for _, bad := range []string{"erlang:k=0,mean=1", "erlang:k=2.5,mean=1", "erlang:k=1001,mean=1", "erlang:k=2,mean=-1", "erlang:mean=1"} {
		if _, err := ParseSizes(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
