package lbsim

import "testing"

// A job's service time is x / mu_k computed as x * (1/mu_k), the same to the
// last bit whether read by speed group (beyond farServers, at most 256
// distinct speeds) or per server (more).
func TestServiceTimes(t *testing.T) {
	for _, distinct := range []int{1, 2, 256, 257} {
		speeds := make([]float64, farServers+1)
		for k := range speeds {
			speeds[k] = 0.5 + float64(k%distinct)/7
		}
		srv := newServers(speeds, FCFS, false)
		if byGroup := srv.group != nil; byGroup != (distinct <= 256 && !srv.unit) {
			t.Errorf("%d distinct speeds: read by speed group %v", distinct, byGroup)
		}
		for k, mu := range speeds {
			for _, x := range []float64{1, 0.1, 3e7, 1e-9, 1.0 / 3} {
				if got, want := srv.service(k, x), x*(1/mu); got != want {
					t.Fatalf("%d distinct speeds: server %d (speed %v), size %v: service %v, want %v", distinct, k, mu, x, got, want)
				}
			}
		}
	}
}
