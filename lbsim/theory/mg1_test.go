package theory

import (
	"math"
	"testing"
)

func TestMG1FCFS(t *testing.T) {
	cases := []struct {
		name  string
		q     MG1
		wantW float64 // independent closed form
		wantR float64
	}{
		// M/M/1: E[W] = rho/(mu_rate - lambda), rho = 0.8, service rate 1.
		{"M/M/1 rho=0.8", MG1{Lambda: 0.8, Size: ExpMoments(1), Mu: 1}, 0.8 / 0.2, 1 / 0.2},
		// M/M/1 with speed 2 and mean size 3: service rate 2/3, lambda 0.5, rho 0.75.
		{"M/M/1 speed 2", MG1{Lambda: 0.5, Size: ExpMoments(3), Mu: 2}, 0.75 / (2.0/3 - 0.5), 1 / (2.0/3 - 0.5)},
		// M/D/1 wait is half the M/M/1 wait: rho s / (2(1-rho)).
		{"M/D/1 rho=0.5", MG1{Lambda: 0.5, Size: DetMoments(1), Mu: 1}, 0.5, 1.5},
		// Two-point sizes: lambda E[X^2]/(2(1-rho)) by hand: E[X]=0.9*1+0.1*10=1.9,
		// E[X^2]=0.9+10=10.9, lambda=0.25 -> rho=0.475, W=0.25*10.9/1.05.
		{"two-point", MG1{Lambda: 0.25, Size: TwoPointMoments(1, 10, 0.1), Mu: 1}, 0.25 * 10.9 / 1.05, 0.25*10.9/1.05 + 1.9},
		{"empty", MG1{Lambda: 0, Size: ExpMoments(1), Mu: 1}, 0, 1},
	}
	for _, c := range cases {
		d, err := c.q.FCFS()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !near(d.Wait, c.wantW, 1e-12) || !near(d.Response, c.wantR, 1e-12) {
			t.Errorf("%s: got W=%g R=%g, want W=%g R=%g", c.name, d.Wait, d.Response, c.wantW, c.wantR)
		}
	}
}

func TestMG1SpeedScaling(t *testing.T) {
	// A server of speed mu with sizes X is the same queue as speed 1 with sizes X/mu.
	h, _ := HyperExpBalanced(2, 10)
	fast, err := MG1{Lambda: 0.6, Size: h, Mu: 1.7}.FCFS()
	if err != nil {
		t.Fatal(err)
	}
	m := h.Mean() / 1.7
	slow, err := MG1{Lambda: 0.6, Size: Law{m, h.SecondMoment() / (1.7 * 1.7)}, Mu: 1}.FCFS()
	if err != nil {
		t.Fatal(err)
	}
	if !near(fast.Wait, slow.Wait, 1e-12) || !near(fast.Response, slow.Response, 1e-12) {
		t.Errorf("speed scaling: %+v vs %+v", fast, slow)
	}
}

func TestMG1PS(t *testing.T) {
	// PS is insensitive: HyperExp with SCV 30 has the M/M/1 mean response.
	h, _ := HyperExpBalanced(1, 30)
	ps, err := MG1{Lambda: 0.9, Size: h, Mu: 1}.PS()
	if err != nil {
		t.Fatal(err)
	}
	mm1, _ := MM1(0.9, 1, 1)
	if !near(ps.Response, mm1.Response, 1e-12) || !near(ps.Response, 10, 1e-12) {
		t.Errorf("PS response %g, want M/M/1 %g = 10", ps.Response, mm1.Response)
	}
	if !near(ps.Wait, 9, 1e-12) {
		t.Errorf("PS extra time %g, want 9", ps.Wait)
	}
	// PS needs only the mean: an infinite second moment is fine.
	if _, err := (MG1{Lambda: 0.5, Size: Law{1, math.Inf(1)}, Mu: 1}).PS(); err != nil {
		t.Errorf("PS with infinite E[X^2]: %v", err)
	}
}

func TestMD1MM1(t *testing.T) {
	md, err := MD1(0.9, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	mm, err := MM1(0.9, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Textbook: M/D/1 waits exactly half as long as M/M/1 at equal load.
	if !near(md.Wait, mm.Wait/2, 1e-12) || !near(md.Wait, 4.5, 1e-12) {
		t.Errorf("M/D/1 W=%g, M/M/1 W=%g; want 4.5 and 9", md.Wait, mm.Wait)
	}
}

func TestMG1Errors(t *testing.T) {
	cases := []struct {
		name string
		q    MG1
		frag []string
	}{
		{"unstable", MG1{Lambda: 1.2, Size: ExpMoments(1), Mu: 1}, []string{"rho=1.2", "unstable", "0 <= rho < 1", "lower the arrival rate"}},
		{"exactly 1", MG1{Lambda: 1, Size: ExpMoments(1), Mu: 1}, []string{"rho=1", "unstable"}},
		{"negative lambda", MG1{Lambda: -1, Size: ExpMoments(1), Mu: 1}, []string{"lambda=-1", "0 <= lambda"}},
		{"NaN lambda", MG1{Lambda: math.NaN(), Size: ExpMoments(1), Mu: 1}, []string{"lambda=NaN"}},
		{"nil size", MG1{Lambda: 0.5, Mu: 1}, []string{"nil"}},
		{"zero mean", MG1{Lambda: 0.5, Size: Law{0, 1}, Mu: 1}, []string{"E[X]=0", "0 < E[X]"}},
		{"bad M2", MG1{Lambda: 0.5, Size: Law{1, 0.5}, Mu: 1}, []string{"E[X^2]=0.5", "E[X^2] >= E[X]^2"}},
		{"infinite M2", MG1{Lambda: 0.5, Size: Law{1, math.Inf(1)}, Mu: 1}, []string{"E[X^2]=+Inf", "finite"}},
		{"zero speed", MG1{Lambda: 0.5, Size: ExpMoments(1), Mu: 0}, []string{"speed mu=0", "0 < speed mu"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.q.FCFS()
			wantErr(t, err, c.frag...)
		})
	}
	_, err := MG1{Lambda: 2, Size: ExpMoments(1), Mu: 1}.PS()
	wantErr(t, err, "rho=2", "unstable")
	_, err = MD1(0.5, -1, 1)
	wantErr(t, err, "size x=-1")
	_, err = MM1(0.5, 0, 1)
	wantErr(t, err, "mean size m=0")
}
