package lbsim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/perfeval/lbsim/lbsim"
	"github.com/perfeval/lbsim/lbsim/theory"
)

// JIQ with I-queues on one server, where every job reaches the server
// whatever its dispatcher knows (an M/M/1 queue), and only the messages
// tell the variants apart. With withdrawals each busy period ends with a
// token (1 - rho a job) and a job that finds the server idle at a
// dispatcher other than the token's (1 - 1/M of them) makes it withdraw the
// token: (1 - rho)(2 - 1/M). Without, a token stays until its dispatcher's
// next job, and the server sends one only when it becomes idle with none
// out: the exactly solved chain on (jobs, token out).
func TestIQueuesOneServer(t *testing.T) {
	const rho, m = 0.5, 4
	chain := theory.Chain[[2]int]{Start: [2]int{0, 1},
		Next: func(s [2]int, emit func([2]int, float64)) {
			n, tok := s[0], s[1]
			if tok == 1 {
				emit([2]int{n + 1, 0}, rho/m) // the holder's job uses the token
				emit([2]int{n + 1, 1}, rho*(m-1)/m)
			} else {
				emit([2]int{n + 1, 0}, rho)
			}
			switch {
			case n == 1 && tok == 0:
				emit([2]int{0, 1}, 1) // idle, no token out: one is sent
			case n >= 1:
				emit([2]int{n - 1, tok}, 1)
			}
		},
		Keep: func(s [2]int) bool { return s[0] <= 200 }, Level: func(s [2]int) int { return s[0] }}
	st, err := chain.Solve()
	if err != nil {
		t.Fatal(err)
	}
	tokens := st.Mean(func(s [2]int) float64 {
		if s == [2]int{1, 0} {
			return 1 / rho // the departure rate 1 per unit of the arrival rate
		}
		return 0
	})
	for _, tc := range []struct {
		p    lbsim.JIQ
		want float64
	}{{lbsim.JIQ{Withdraw: true}, (1 - rho) * (2 - 1.0/m)}, {lbsim.JIQ{}, tokens}} {
		r := run(t, lbsim.Config{Servers: 1, Load: rho, Sizes: exp1, Policy: tc.p, Dispatchers: m, Jobs: 1_000_000, Warmup: 1000, Seed: 2})
		if math.Abs(r.MessagesPerJob-tc.want) > 0.005 {
			t.Errorf("%s, K=1, M=%d: %.5g messages per job, want %.5g within 0.005", tc.p, m, r.MessagesPerJob, tc.want)
		} else {
			t.Logf("%s, K=1, M=%d: %.5g messages per job, exact %.5g", tc.p, m, r.MessagesPerJob, tc.want)
		}
		within(t, tc.p.String()+" K=1 wait (M/M/1)", r.Wait, must(theory.MM1(rho, 1, 1)).Wait, 0)
	}
}

// JIQ with I-queues and withdrawals on K = 1000 servers against the mean
// field K, M -> inf at r = K/M (Van Houdt 2024): the wait of the M/G/1
// queue at load rho q0, and the messages of its busy periods
// (theory.JIQWithdrawals), for JIQ-Random and JIQ-SQ(2), exponential and
// H2 sizes, FCFS and (H2, where PS and FCFS differ) processor sharing. The slack (2% of the limit) is the finite system's distance
// from the limit, which measured runs put below 1%.
func TestIQueuesWithdrawalsMeanField(t *testing.T) {
	h2 := must(lbsim.NewH2Balanced(1, 4))
	for _, tc := range []struct {
		m     int
		rho   float64
		d     int
		sizes lbsim.SizeLaw
		disc  lbsim.Discipline
	}{{100, 0.9, 1, exp1, lbsim.FCFS}, {100, 0.9, 2, exp1, lbsim.FCFS}, {500, 0.8, 1, exp1, lbsim.FCFS}, {100, 0.9, 1, h2, lbsim.FCFS}, {100, 0.9, 1, h2, lbsim.PS}} {
		p := lbsim.JIQ{D: tc.d, Withdraw: true}
		cfg := lbsim.Config{Servers: 1000, Dispatchers: tc.m, Load: tc.rho, Sizes: tc.sizes, Policy: p, Discipline: tc.disc, Jobs: 2_000_000, Warmup: 200_000, Seed: 3}
		lim := theory.JIQWithdrawals{Rho: tc.rho, R: 1000 / float64(tc.m), D: tc.d}
		x := tc.sizes
		want := must(lim.Delay(x.Mean(), x.SecondMoment()))
		if tc.disc == lbsim.PS { // M/G/1-PS: insensitive to the law beyond its mean
			want = must(lim.DelayPS(x.Mean()))
		}
		ref, ok := lbsim.Limit(cfg)
		if !ok || ref.Wait != want.Wait {
			t.Fatalf("%s M=%d: Limit gives %+v (ok %v), want the mean field's wait %v", p, tc.m, ref, ok, want.Wait)
		}
		r := run(t, cfg)
		within(t, p.String()+" "+x.String()+" "+tc.disc.String(), r.Wait, want.Wait, 0.02*want.Wait)
		msgs := must(lim.MessagesPerJob())
		if math.Abs(r.MessagesPerJob-msgs) > 0.01*msgs {
			t.Errorf("%s M=%d rho=%v: %.5g messages per job, mean field %.5g (more than 1%% apart)", p, tc.m, tc.rho, r.MessagesPerJob, msgs)
		}
	}
}

// Without withdrawals a token may name a server busy with other
// dispatchers' random sends, so the wait is above the variant with
// withdrawals; both are far below JSQ-2's at the same load, and JIQ-SQ(2)
// is below JIQ-Random. No theory is coded for the variant without.
func TestIQueuesOrder(t *testing.T) {
	base := lbsim.Config{Servers: 1000, Dispatchers: 100, Load: 0.9, Sizes: exp1, Jobs: 1_000_000, Warmup: 100_000, Seed: 4}
	wait := func(p lbsim.Policy) lbsim.Estimate {
		c := base
		c.Policy = p
		r := run(t, c)
		t.Logf("%s: wait %v, %.4g messages per job", p, r.Wait, r.MessagesPerJob)
		return r.Wait
	}
	kept, withdrawn, sq2, jsq2 := wait(lbsim.JIQ{}), wait(lbsim.JIQ{Withdraw: true}), wait(lbsim.JIQ{D: 2}), wait(lbsim.JSQ{D: 2})
	below := func(a, b lbsim.Estimate, what string) {
		if a.Mean+a.CI95 >= b.Mean-b.CI95 {
			t.Errorf("%s: %v not below %v", what, a, b)
		}
	}
	below(withdrawn, kept, "withdrawals below none")
	below(sq2, kept, "JIQ-SQ(2) below JIQ-Random")
	below(kept, jsq2, "JIQ below JSQ-2")
	if _, ok := lbsim.Theory(lbsim.Config{Servers: 1000, Dispatchers: 100, Load: 0.9, Sizes: exp1, Policy: lbsim.JIQ{}, Jobs: 1}); ok {
		t.Error("JIQ with I-queues and no withdrawals has a theory value: the single-dispatcher chain or limit does not describe it")
	}
}

func TestIQueueOptionsNeedLiveState(t *testing.T) {
	c := lbsim.Config{Servers: 10, Dispatchers: 2, Load: 0.5, Sizes: exp1, Policy: lbsim.JIQ{D: 2}, Refresh: 5, Jobs: 1000}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "-refresh 0") {
		t.Errorf("jiq:d=2 on a board: error %v, want one naming -refresh 0", err)
	}
	if _, err := lbsim.ParsePolicy("jiq:d=0"); err == nil || !strings.Contains(err.Error(), "d=0") {
		t.Errorf("jiq:d=0: error %v", err)
	}
	for spec, label := range map[string]string{"jiq": "JIQ", "jiq:d=2": "JIQ-SQ(2)", "jiq:withdraw=1": "JIQ withdraw", "jiq:d=3,withdraw=1": "JIQ-SQ(3) withdraw"} {
		p, err := lbsim.ParsePolicy(spec)
		if err != nil || p.String() != spec || lbsim.Label(p) != label {
			t.Errorf("%s: parsed %v (err %v), label %q, want the spec back and %q", spec, p, err, lbsim.Label(p), label)
		}
	}
}
