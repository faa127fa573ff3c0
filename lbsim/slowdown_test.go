package lbsim

import (
	"math"
	"testing"
)

// The mean slowdown E[T/S], S = x/mu, is tested against values worked
// out here by hand for each queue, by a route of its own: per job class
// from the waits and conditional responses, never through lawInverse or
// theory.MG1SRPT.AtomResponses.

// simpson is the integral of f over [a, b] by Simpson's rule on n (even)
// steps.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(a+float64(i)*h)
	}
	return s * h / 3
}

// logIntegral is the integral of g(x) dx over [a, b] (0 < a < b) in the
// variable u = ln x, where a power law is smooth.
func logIntegral(g func(float64) float64, a, b float64) float64 {
	return simpson(func(u float64) float64 { x := math.Exp(u); return g(x) * x }, math.Log(a), math.Log(b), 20000)
}

func exactSlowdown(t *testing.T, cfg Config) Reference {
	t.Helper()
	cfg.Jobs = 1000
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	ref, ok := Exact(cfg)
	if !ok {
		t.Fatalf("%s: no exact value", cfg.Key())
	}
	return ref
}

func nearSlowdown(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*math.Abs(want)) {
		t.Errorf("%s: exact slowdown %.15g, want %.15g (by hand)", what, got, want)
	}
}

// Two-point sizes (x1 w.p. q = 1-p, x2 w.p. p) under a random split:
// Pollaczek-Khinchine's wait, the same for both sizes, over each size;
// PS's 1/(1-rho); SRPT's T(x1), T(x2) written out from Schrage and Miller.
func TestExactSlowdownTwoPoint(t *testing.T) {
	const x1, x2, p = 1.0, 10.0, 0.1
	q := 1 - p
	m1, m2 := q*x1+p*x2, q*x1*x1+p*x2*x2
	law := TwoPoint{Xm: x1, XM: x2, P: p}
	for _, tc := range []struct {
		k     int
		speed float64
		rho   float64
	}{{4, 1, 0.7}, {1, 2, 0.5}, {3, 1, 0.95}} {
		cfg := Config{Servers: tc.k, Speeds: []float64{tc.speed}, Load: tc.rho, Sizes: law, Policy: Random{}}
		if tc.k > 1 {
			cfg.Speeds = nil
		}
		mu := tc.speed
		lam := tc.rho * float64(tc.k) * mu / m1 / float64(tc.k) // each server's rate
		// FCFS: W = lam E[X^2]/mu^2 / (2(1-rho)); T/S = 1 + W mu/x.
		w := lam * m2 / (mu * mu) / (2 * (1 - tc.rho))
		nearSlowdown(t, "fcfs "+cfg.Key(), exactSlowdown(t, cfg).Slowdown, q*(1+w*mu/x1)+p*(1+w*mu/x2), 1e-9)
		cfg.Discipline = PS
		nearSlowdown(t, "ps "+cfg.Key(), exactSlowdown(t, cfg).Slowdown, 1/(1-tc.rho), 1e-9)
		// SRPT: rho1 = lam q x1/mu the load of the short jobs.
		// T(x1) = x1/mu + lam x1^2 / (2 mu^2 (1-rho1)): every job's
		// min(X, x1)^2 is x1^2, and nothing preempts it (rho(x1-) = 0).
		// T(x2) = lam E[X^2] / (2 mu^2 (1-rho1)(1-rho)) + x1/mu + (x2-x1)/(mu (1-rho1)).
		cfg.Discipline = SRPT
		rho1 := lam * q * x1 / mu
		t1 := x1/mu + lam*x1*x1/(2*mu*mu*(1-rho1))
		t2 := lam*m2/(2*mu*mu*(1-rho1)*(1-tc.rho)) + x1/mu + (x2-x1)/(mu*(1-rho1))
		ref := exactSlowdown(t, cfg)
		nearSlowdown(t, "srpt "+cfg.Key(), ref.Slowdown, q*t1*mu/x1+p*t2*mu/x2, 1e-9)
		nearSlowdown(t, "srpt mean response "+cfg.Key(), ref.Response, q*t1+p*t2, 1e-9)
	}
}

// SITA on two-point sizes, short jobs to 2 servers and long ones to 2:
// each group's servers are M/D/1 queues (W = lam x^2/(2(1-lam x))), and
// under PS each group's slowdown is 1/(1-rho_g).
func TestExactSlowdownSITATwoPoint(t *testing.T) {
	const x1, x2, p, rho = 1.0, 10.0, 0.1, 0.6
	q := 1 - p
	sita, err := ParsePolicy("sita:cuts=1,servers=2/2")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Servers: 4, Load: rho, Sizes: TwoPoint{Xm: x1, XM: x2, P: p}, Policy: sita}
	lam := rho * 4 / (q*x1 + p*x2)
	l1, l2 := lam*q/2, lam*p/2 // per server of each group
	w1, w2 := l1*x1*x1/(2*(1-l1*x1)), l2*x2*x2/(2*(1-l2*x2))
	nearSlowdown(t, "sita fcfs", exactSlowdown(t, cfg).Slowdown, q*(1+w1/x1)+p*(1+w2/x2), 1e-9)
	cfg.Discipline = PS
	nearSlowdown(t, "sita ps", exactSlowdown(t, cfg).Slowdown, q/(1-l1*x1)+p/(1-l2*x2), 1e-9)
	cfg.Discipline = SRPT // one size a group: FCFS among equals, M/D/1 again
	nearSlowdown(t, "sita srpt", exactSlowdown(t, cfg).Slowdown, q*(1+w1/x1)+p*(1+w2/x2), 1e-9)
}

// Continuous laws under FCFS: E[1/X] and E[X^2] by quadrature of the
// density written here (bounded Pareto, Erlang k=3), and SITA-E's two
// groups on the Pareto law from the classes' exact waits and E[1/X | class]
// by quadrature; exponential and H2 sizes have E[1/X] = inf.
func TestExactSlowdownContinuous(t *testing.T) {
	const alpha, lo, hi = 2.5, 1.0, 100.0
	pareto := Pareto{Alpha: alpha, L: lo, H: hi}
	dens := func(x float64) float64 {
		return alpha * math.Pow(lo, alpha) * math.Pow(x, -alpha-1) / (1 - math.Pow(lo/hi, alpha))
	}
	moment := func(j float64, a, b float64) float64 {
		return logIntegral(func(x float64) float64 { return math.Pow(x, j) * dens(x) }, a, b)
	}
	m1, m2, inv := moment(1, lo, hi), moment(2, lo, hi), moment(-1, lo, hi)
	const rho = 0.7
	cfg := Config{Servers: 2, Load: rho, Sizes: pareto, Policy: Random{}}
	lam := rho / m1 // per server
	w := lam * m2 / (2 * (1 - rho))
	nearSlowdown(t, "pareto rnd", exactSlowdown(t, cfg).Slowdown, 1+w*inv, 1e-9)

	// Erlang k=3, mean 1: density a^3 x^2 e^(-a x)/2, a = 3.
	erl := func(x float64) float64 { return 27 * x * x * math.Exp(-3*x) / 2 }
	einv := simpson(func(x float64) float64 { return erl(x) / math.Max(x, 1e-300) }, 0, 40, 200000)
	ecfg := Config{Servers: 3, Load: 0.8, Sizes: Erlang{K: 3, M: 1}, Policy: Random{}}
	ew := 0.8 * (1 + 1.0/3) / (2 * 0.2) // lam E[X^2] / (2(1-rho)), lam = rho
	nearSlowdown(t, "erlang rnd", exactSlowdown(t, ecfg).Slowdown, 1+ew*einv, 1e-9)

	sita, err := ParsePolicy("sita:groups=2")
	if err != nil {
		t.Fatal(err)
	}
	scfg := Config{Servers: 2, Load: rho, Sizes: pareto, Policy: sita}
	ref := exactSlowdown(t, scfg)
	want, below := 0.0, lo
	for i, cl := range scfg.SizeClasses() {
		up := math.Min(cl.Upper, hi)
		prob := moment(0, below, up)
		want += prob * (1 + ref.Classes[i].Wait*moment(-1, below, up)/prob)
		below = up
	}
	nearSlowdown(t, "sita-e pareto", ref.Slowdown, want, 1e-9)

	h2, _ := NewH2Balanced(1, 4)
	for _, law := range []SizeLaw{Exponential{M: 1}, h2, Erlang{K: 1, M: 1}} {
		c := Config{Servers: 2, Load: 0.5, Sizes: law, Policy: Random{}}
		if s := exactSlowdown(t, c).Slowdown; !math.IsInf(s, 1) {
			t.Errorf("%s fcfs: exact slowdown %v, want +Inf (E[1/X] = inf)", law, s)
		}
		c.Discipline = PS
		nearSlowdown(t, "ps "+c.Key(), exactSlowdown(t, c).Slowdown, 2, 1e-12)
	}
	// Where theory has a mean but not the slowdown: NaN, not 0 nor a guess.
	jsq := Config{Servers: 2, Load: 0.5, Sizes: Exponential{M: 1}, Policy: JSQ{}}
	if ref := exactSlowdown(t, jsq); !math.IsNaN(ref.Slowdown) {
		t.Errorf("jsq K=2 chain: exact slowdown %v, want NaN", ref.Slowdown)
	}
}

// SRPT on bounded Pareto sizes: Schrage and Miller's T(x) = W(x) + R(x)
// with rho(t) and E[min(X,x)^2] in closed form written here, R(x) = L +
// int_L^x dt/(1-rho(t)) and E[T(X)/X] both by Simpson's rule in ln x.
func TestExactSlowdownSRPTContinuous(t *testing.T) {
	const alpha, lo, hi, rho = 2.5, 1.0, 100.0, 0.7
	c := alpha * math.Pow(lo, alpha) / (1 - math.Pow(lo/hi, alpha))
	f := func(x float64) float64 { return c * math.Pow(x, -alpha-1) }
	m1 := func(x float64) float64 { return c * (math.Pow(lo, 1-alpha) - math.Pow(x, 1-alpha)) / (alpha - 1) }
	m2 := func(x float64) float64 { return c * (math.Pow(x, 2-alpha) - math.Pow(lo, 2-alpha)) / (2 - alpha) }
	tail := func(x float64) float64 { return c * (math.Pow(x, -alpha) - math.Pow(hi, -alpha)) / alpha }
	lam := rho / m1(hi) // per server, speed 1
	g := func(x float64) float64 { return 1 / (1 - lam*m1(x)) }
	const n = 40000 // steps in u = ln x
	h := math.Log(hi/lo) / n
	x := func(i int) float64 { return lo * math.Exp(float64(i)*h) }
	gx := func(i int) float64 { return g(x(i)) * x(i) } // dt = x du
	r, sum := lo, 0.0                                   // R(L) = L: nothing is shorter
	integrand := func(i int, r float64) float64 {
		xi := x(i)
		w := lam * (m2(xi) + xi*xi*tail(xi)) / 2 * g(xi) * g(xi)
		return (w + r) / xi * f(xi) * xi
	}
	prev := integrand(0, r)
	for i := 0; i < n; i += 2 {
		r += h / 3 * (gx(i) + 4*gx(i+1) + gx(i+2)) // R at i+2; at i+1 by the trapezoid's
		mid := integrand(i+1, r-h/3*(gx(i)+4*gx(i+1)+gx(i+2))+h*(gx(i)+gx(i+1))/2)
		next := integrand(i+2, r)
		sum += 2 * h / 6 * (prev + 4*mid + next)
		prev = next
	}
	cfg := Config{Servers: 2, Load: rho, Sizes: Pareto{Alpha: alpha, L: lo, H: hi}, Policy: Random{}, Discipline: SRPT}
	nearSlowdown(t, "srpt pareto", exactSlowdown(t, cfg).Slowdown, sum, 1e-9)
}

// Simulated mean slowdowns hold the exact value in their 95% intervals
// (seeded: deterministic).
func TestSimulatedSlowdownWithinCI(t *testing.T) {
	law := TwoPoint{Xm: 1, XM: 10, P: 0.1}
	sita, err := ParsePolicy("sita:cuts=1,servers=2/2")
	if err != nil {
		t.Fatal(err)
	}
	pareto := Pareto{Alpha: 2.5, L: 1, H: 100}
	for _, cfg := range []Config{
		{Servers: 4, Load: 0.7, Sizes: law, Policy: Random{}},
		{Servers: 4, Load: 0.7, Sizes: law, Policy: Random{}, Discipline: PS},
		{Servers: 4, Load: 0.7, Sizes: law, Policy: Random{}, Discipline: SRPT},
		{Servers: 4, Load: 0.6, Sizes: law, Policy: sita},
		{Servers: 2, Load: 0.6, Sizes: pareto, Policy: Random{}, Speeds: []float64{2, 2}},
		{Servers: 2, Load: 0.7, Sizes: pareto, Policy: Random{}, Discipline: SRPT},
	} {
		cfg.Jobs, cfg.Reps, cfg.Seed = 400_000, 6, 11
		r := run(t, cfg)
		e := r.Slowdown
		if !r.HasExact || !(math.Abs(e.Mean-r.Exact.Slowdown) <= e.CI95) {
			t.Errorf("%s: simulated slowdown %v, exact %v: outside the interval", cfg.Key(), e, r.Exact.Slowdown)
		}
		row := NewRow(r)
		if est, units, err := row.Metric("mean_slowdown"); err != nil || est != e || len(units) != cfg.Reps ||
			row.MetricExact("mean_slowdown") != r.Exact.Slowdown || row.ExactSlowdown != r.Exact.Slowdown {
			t.Errorf("%s: row metric %v %v %v, exact %v, want %v and %d units, exact %v", cfg.Key(), est, units, err, row.MetricExact("mean_slowdown"), e, cfg.Reps, r.Exact.Slowdown)
		}
	}
}

// The slowdown's interval is made as the mean response's: with sizes of 1
// at speed 1 a job's slowdown is its response, so the two estimates are
// the same to the bit, over replications or batch means, with control
// variates, under FCFS and PS.
func TestSlowdownIntervalIsTheResponses(t *testing.T) {
	for _, cfg := range []Config{
		{Servers: 5, Load: 0.8, Sizes: Deterministic{X0: 1}, Policy: Random{}, Jobs: 100_000},
		{Servers: 5, Load: 0.8, Sizes: Deterministic{X0: 1}, Policy: JSQ{D: 2}, Jobs: 100_000, Reps: 5, ControlVariates: true},
		{Servers: 5, Load: 0.8, Sizes: Deterministic{X0: 1}, Policy: LeastLoaded{D: 2}, Jobs: 100_000, Batches: 30, Discipline: PS},
	} {
		cfg.Seed = 3
		r := run(t, cfg)
		if r.Slowdown != r.Response || math.IsNaN(r.Slowdown.CI95) {
			t.Errorf("%s: slowdown %v, response %v: want the same estimate", cfg.Key(), r.Slowdown, r.Response)
		}
		s, rs := r.Units["mean_slowdown"], r.Units["mean_response"]
		if len(s) != len(rs) || len(s) < 5 {
			t.Errorf("%s: %d slowdown units, %d response units", cfg.Key(), len(s), len(rs))
		}
		for i := range s {
			if s[i] != rs[i] {
				t.Errorf("%s: unit %d: slowdown %v, response %v", cfg.Key(), i, s[i], rs[i])
				break
			}
		}
	}
	// An infinite mean slowdown has no interval, and the summary says why.
	r := run(t, Config{Servers: 2, Load: 0.5, Sizes: Exponential{M: 1}, Policy: Random{}, Jobs: 100_000, Seed: 1})
	if !math.IsNaN(r.Slowdown.CI95) || !math.IsInf(r.Exact.Slowdown, 1) || !(r.Slowdown.Mean > 1) {
		t.Errorf("exp fcfs: slowdown %v, exact %v; want a mean without an interval, exact +Inf", r.Slowdown, r.Exact.Slowdown)
	}
	if err := CheckMetric("mean_slowdown"); err != nil {
		t.Error(err)
	}
}
