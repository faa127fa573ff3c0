package lbsim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTraceScaledLoad: a Poisson trace of exponential sizes, made here at
// load 0.25 on K=4 servers, replayed at loads 0.5 and 0.8 under random
// dispatching: each server is then an M/G/1 queue at the scaled load, and
// the mean wait is the Pollaczek-Khinchine formula with the trace's own
// moments, W = rho E[X^2] / (2 E[X] (1 - rho)). The row reports the load
// asked for and the factor applied to the arrival times.
func TestTraceScaledLoad(t *testing.T) {
	const k, n = 4, 400_000
	rng := rand.New(rand.NewPCG(35, 2))
	tr := &Trace{Times: make([]float64, n), Sizes: make([]float64, n)}
	tm, m1, m2 := 0.0, 0.0, 0.0
	for i := range n {
		tm += rng.ExpFloat64() // rate 1: load 1 x 1 / 4 = 0.25
		x := rng.ExpFloat64()
		tr.Times[i], tr.Sizes[i] = tm, x
		m1, m2 = m1+x/n, m2+x*x/n
	}
	own := float64(n-1) / (tr.Times[n-1] - tr.Times[0]) * m1 / k
	for _, rho := range []float64{0.5, 0.8} {
		cfg := Config{Servers: k, Load: rho, Trace: tr, Policy: Random{}, Seed: 3}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		pk := rho * m2 / (2 * m1 * (1 - rho))
		t.Logf("load %v: mean wait %v, P-K %.4f", rho, res.Wait, pk)
		if w := res.Wait; math.Abs(w.Mean-pk) > w.CI95 || w.CI95 > 0.1*pk {
			t.Errorf("load %v: mean wait %v; want P-K's %.4f within the interval", rho, w, pk)
		}
		row := NewRow(res)
		if row.Load != rho || math.Abs(row.TraceScale-own/rho) > 1e-12*own/rho {
			t.Errorf("load %v: row load %v, trace_scale %v; want %v and %v", rho, row.Load, row.TraceScale, rho, own/rho)
		}
		if got := res.LoadOnCapacity; math.Abs(got-rho) > 0.01 {
			t.Errorf("load %v: measured load on capacity %v", rho, got)
		}
	}
	res, err := Run(Config{Servers: k, Trace: tr, Policy: Random{}, Seed: 3})
	if row := NewRow(res); err != nil || row.TraceScale != 1 || math.Abs(row.Load-own) > 1e-12 {
		t.Errorf("own load: %v, row load %v, trace_scale %v; want %v and 1", err, row.Load, row.TraceScale, own)
	}
}
