package theory

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// mg1Case is an M/G/1 queue whose tails the test checks: its service as a
// mixture of exponentials (p, m) or as Erlang phases (k of rate m[0]), its
// sampler for the test's own simulation, and E[S], E[S^2].
type mg1Case struct {
	name     string
	p, m     []float64
	erlang   int
	es, es2  float64
	draw     func(r *rand.Rand) float64
	lambdaAt func(rho float64) float64
}

func h2Case(scv float64) mg1Case {
	h, _ := HyperExpBalanced(1, scv)
	p, m := []float64{h.P1, 1 - h.P1}, []float64{h.Rate1, h.Rate2}
	return mg1Case{name: fmt.Sprintf("H2 scv %v", scv), p: p, m: m, es: h.Mean(), es2: h.SecondMoment(),
		draw: func(r *rand.Rand) float64 {
			if r.Float64() < p[0] {
				return r.ExpFloat64() / m[0]
			}
			return r.ExpFloat64() / m[1]
		}}
}

func erlangCase(k int) mg1Case {
	rate := float64(k) // mean 1
	return mg1Case{name: fmt.Sprintf("Erlang-%d", k), m: []float64{rate}, erlang: k, es: 1, es2: 1 + 1/float64(k),
		draw: func(r *rand.Rand) float64 {
			s := 0.0
			for range k {
				s += r.ExpFloat64()
			}
			return s / rate
		}}
}

func (c mg1Case) tails(t *testing.T, lambda float64) (wait, resp Tail) {
	t.Helper()
	var err error
	if c.erlang > 0 {
		wait, resp, err = MPH1Tails(lambda, ErlangPhases(c.erlang, c.m[0]))
	} else {
		wait, resp, err = MG1HyperExpTails(lambda, c.p, c.m)
	}
	if err != nil {
		t.Fatalf("%s at lambda %v: %v", c.name, lambda, err)
	}
	return wait, resp
}

// tailIntegral is int_0^inf tail(t) dt, the mean of the delay, by
// Simpson's rule on [0, 2^-20] and then on panels [x, 2x] of 256 steps
// each up to where the tail is below 1e-16: the step follows the scale of
// the tail's slow and fast parts alike.
func tailIntegral(tail Tail) float64 {
	simpson := func(a, b float64) float64 {
		const n = 256
		h := (b - a) / n
		s := tail(a) + tail(b)
		for i := 1; i < n; i++ {
			s += float64(2+2*(i%2)) * tail(a+float64(i)*h)
		}
		return s * h / 3
	}
	x := math.Ldexp(1, -20)
	sum := simpson(0, x)
	for ; tail(x) > 1e-16; x *= 2 {
		sum += simpson(x, 2*x)
	}
	return sum
}

var mg1Cases = []mg1Case{h2Case(4), h2Case(10), erlangCase(1), erlangCase(3), erlangCase(10)}

// The tails' atoms and means: P(W > 0) = rho, P(R > 0) = 1, and
// int P(W > t) dt = Pollaczek-Khinchine's lambda E[S^2]/(2 (1 - rho)),
// int P(R > t) dt = that + E[S], by quadrature of the returned tails.
func TestMG1TailsMeans(t *testing.T) {
	for _, c := range mg1Cases {
		for _, rho := range []float64{0.5, 0.8, 0.95} {
			lambda := rho / c.es
			wait, resp := c.tails(t, lambda)
			pk := lambda * c.es2 / (2 * (1 - rho))
			if got := wait(0); !near(got, rho, 1e-12) {
				t.Errorf("%s rho %v: P(W > 0) = %.15g, want rho", c.name, rho, got)
			}
			if got := resp(0); !near(got, 1, 1e-12) {
				t.Errorf("%s rho %v: P(R > 0) = %.15g, want 1", c.name, rho, got)
			}
			if got := tailIntegral(wait); !near(got, pk, 1e-9) {
				t.Errorf("%s rho %v: int P(W > t) = %.12g, want P-K %.12g", c.name, rho, got, pk)
			}
			if got := tailIntegral(resp); !near(got, pk+c.es, 1e-9) {
				t.Errorf("%s rho %v: int P(R > t) = %.12g, want P-K %.12g", c.name, rho, got, pk+c.es)
			}
		}
	}
}

// One exponential phase is M/M/1 (MMKTails): the H2 with equal rates, and
// Erlang-1 by the phase-type form.
func TestMG1TailsMM1(t *testing.T) {
	const lambda, m = 0.7, 1.25
	mw, mr, err := MMKTails(lambda, 1, 1/m)
	if err != nil {
		t.Fatal(err)
	}
	hw, hr, err := MG1HyperExpTails(lambda, []float64{0.3, 0.7}, []float64{m, m})
	if err != nil {
		t.Fatal(err)
	}
	ew, er, err := MPH1Tails(lambda, ErlangPhases(1, m))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []float64{0, 0.1, 1, 3, 10, 40} {
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"H2 wait", hw(x), mw(x)}, {"H2 response", hr(x), mr(x)}, {"Erlang-1 wait", ew(x), mw(x)}, {"Erlang-1 response", er(x), mr(x)}} {
			if !near(c.got, c.want, 1e-12) {
				t.Errorf("%s at %v: %.15g, want M/M/1's %.15g", c.name, x, c.got, c.want)
			}
		}
	}
}

// The M/H2/1 roots' closed form against the phase-type form of the same
// queue (T diagonal): two methods, one law.
func TestMG1HyperExpAgainstPhaseType(t *testing.T) {
	for _, scv := range []float64{4, 10, 100} {
		c := h2Case(scv)
		for _, rho := range []float64{0.5, 0.9} {
			lambda := rho / c.es
			rw, rr := c.tails(t, lambda)
			ph := ErlangPhases(2, 1) // two phases, then made a mixture
			ph.Alpha = c.p
			ph.T.Set(0, 0, -c.m[0])
			ph.T.Set(0, 1, 0)
			ph.T.Set(1, 1, -c.m[1])
			pw, pr, err := MPH1Tails(lambda, ph)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range []float64{0, 0.5, 2, 10, 50, 200} {
				if got, want := rw(x), pw(x); !near(got, want, 1e-9) && math.Abs(got-want) > 1e-15 {
					t.Errorf("%s rho %v: P(W > %v) roots %.12g, phase-type %.12g", c.name, rho, x, got, want)
				}
				if got, want := rr(x), pr(x); !near(got, want, 1e-9) && math.Abs(got-want) > 1e-15 {
					t.Errorf("%s rho %v: P(R > %v) roots %.12g, phase-type %.12g", c.name, rho, x, got, want)
				}
			}
		}
	}
}

// The exact quantiles against the test's own simulation of the M/G/1 FCFS
// queue (Lindley's recursion W' = max(0, W + S - A), R = W + S), 4e6 jobs
// after 1e5 of warm-up: at each exact p-quantile q, the fraction of jobs
// with delay above q is 1 - p within 4 standard errors of 40 batch means.
func TestMG1TailsSimulated(t *testing.T) {
	for _, c := range []mg1Case{h2Case(4), h2Case(10), erlangCase(3)} {
		for _, rho := range []float64{0.5, 0.8} {
			lambda := rho / c.es
			wait, resp := c.tails(t, lambda)
			ps := []float64{0.5, 0.9, 0.99}
			var qw, qr []float64
			for _, p := range ps {
				qw, qr = append(qw, Quantile(wait, p)), append(qr, Quantile(resp, p))
			}
			const batches, perBatch, warm = 40, 100_000, 100_000
			r := rand.New(rand.NewPCG(35, uint64(1000*rho)))
			var above [2][3][batches]float64
			w := 0.0
			for n := -warm; n < batches*perBatch; n++ {
				s := c.draw(r)
				if n >= 0 {
					b := n / perBatch
					for i := range ps {
						if w > qw[i] {
							above[0][i][b]++
						}
						if w+s > qr[i] {
							above[1][i][b]++
						}
					}
				}
				w = math.Max(0, w+s-r.ExpFloat64()/lambda)
			}
			for side, name := range []string{"wait", "response"} {
				for i, p := range ps {
					q := []float64{qw[i], qr[i]}[side]
					if q == 0 {
						continue // below the atom at 0
					}
					mean, se := batchMean(above[side][i][:], perBatch)
					if math.Abs(mean-(1-p)) > 4*se {
						t.Errorf("%s rho %v: P(%s > q%v = %.5g) simulated %.5f ± %.5f (SE), want %.5f", c.name, rho, name, p, q, mean, se, 1-p)
					} else {
						t.Logf("%s rho %v: P(%s > q%v = %.5g) simulated %.5f ± %.5f (SE), want %.5f", c.name, rho, name, p, q, mean, se, 1-p)
					}
				}
			}
		}
	}
}

// batchMean is the mean of the batches' fractions counts/n and its
// standard error.
func batchMean(counts []float64, n int) (mean, se float64) {
	for _, c := range counts {
		mean += c / float64(n)
	}
	mean /= float64(len(counts))
	v := 0.0
	for _, c := range counts {
		d := c/float64(n) - mean
		v += d * d
	}
	return mean, math.Sqrt(v / float64(len(counts)-1) / float64(len(counts)))
}

func TestMG1TailsErrors(t *testing.T) {
	_, _, err := MG1HyperExpTails(2, []float64{0.5, 0.5}, []float64{1, 2})
	wantErr(t, err, "rho=1.5", "unstable")
	_, _, err = MG1HyperExpTails(0.5, []float64{0.5, 0.4}, []float64{1, 2})
	wantErr(t, err, "sum to 0.9")
	_, _, err = MG1HyperExpTails(0.5, []float64{0.5, 0.5}, []float64{1, -2})
	wantErr(t, err, "m[1]=-2")
	_, _, err = MPH1Tails(2, ErlangPhases(3, 2))
	wantErr(t, err, "rho=3", "unstable")
	_, _, err = MPH1Tails(0.1, ErlangPhases(MaxTailPhases+1, 1))
	wantErr(t, err, "order 1..20")
}

// The cost of the exact quantile columns for one server: p50, p90, p99 and
// p99.9 of the wait and the response, by the roots (H2) and by matrix
// exponentials (Erlang, up to MaxTailPhases phases).
func BenchmarkMG1TailsQuantiles(b *testing.B) {
	for _, c := range []mg1Case{h2Case(10), erlangCase(4), erlangCase(MaxTailPhases)} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				var err error
				var wait, resp Tail
				if c.erlang > 0 {
					wait, resp, err = MPH1Tails(0.8, ErlangPhases(c.erlang, c.m[0]))
				} else {
					wait, resp, err = MG1HyperExpTails(0.8, c.p, c.m)
				}
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range []float64{0.5, 0.9, 0.99, 0.999} {
					Quantile(wait, p)
					Quantile(resp, p)
				}
			}
		})
	}
}
