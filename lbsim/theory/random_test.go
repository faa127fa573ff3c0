package theory

import "testing"

func TestRandomDispatch(t *testing.T) {
	// Identical speeds: every server is the same M/G/1 with rate lambda/K.
	size := TwoPointMoments(1, 1000, 0.002)
	speeds := make([]float64, 50)
	for k := range speeds {
		speeds[k] = 1
	}
	r, err := RandomDispatch(15, size, speeds)
	if err != nil {
		t.Fatal(err)
	}
	// Pollaczek-Khinchine by hand on one server: lambda/K = 0.3, rho = 0.8994.
	lam := 15.0 / 50
	rho := lam * size.M1
	w := lam * size.M2 / (2 * (1 - rho))
	if !near(r.Wait, w, 1e-12) || !near(r.Response, w+size.M1, 1e-12) || !near(r.Servers[7].Load, rho, 1e-12) {
		t.Errorf("RND identical: got %+v, want W=%g rho=%g", r.Delay, w, rho)
	}

	// Two speeds, exponential sizes mean 1, lambda 1: server 0 is M/M/1 with
	// rate 0.5 and service rate 1 (W=1, R=2); server 1 has service rate 2
	// (rho=0.25, W=0.25/(2-0.5)=1/6, R=1/1.5). Job-weighted: plain average.
	r, err = RandomDispatch(1, ExpMoments(1), []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.Wait, (1+1.0/6)/2, 1e-12) || !near(r.Response, (2+1/1.5)/2, 1e-12) {
		t.Errorf("RND speeds {1,2}: got %+v, want W=%g R=%g", r.Delay, (1+1.0/6)/2, (2+1/1.5)/2)
	}
}

func TestRandomDispatchErrors(t *testing.T) {
	_, err := RandomDispatch(1.5, ExpMoments(1), []float64{1, 0.4})
	wantErr(t, err, "server 1", "speed 0.4", "rho=1.875", "0 <= rho < 1")
	_, err = RandomDispatch(1, ExpMoments(1), nil)
	wantErr(t, err, "K=0", "K >= 1")
	_, err = RandomDispatch(1, ExpMoments(1), []float64{1, -2})
	wantErr(t, err, "mu[1]=-2")
	_, err = RandomDispatch(-1, ExpMoments(1), []float64{1})
	wantErr(t, err, "lambda=-1")
	_, err = RandomDispatch(0.5, Law{1, 0.1}, []float64{1})
	wantErr(t, err, "E[X^2]=0.1")
}
