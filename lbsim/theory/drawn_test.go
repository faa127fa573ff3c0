package theory

import "testing"

// DrawnExact against closed forms and JSQ's chain: one draw is a random
// split (server k an M/M/1 queue of rate lambda/K at speed mu_k, the means
// averaged over the servers); one server is M/M/1 whatever d; d = 40 draws
// on two servers repeat one with probability 2^-39, so the choice is JSQ's
// (DispatchExact, ties uniform as the first drawn of the tied is).
func TestDrawnExact(t *testing.T) {
	for _, speeds := range [][]float64{{1, 1}, {2, 1}, {1, 1, 1}, {3, 2, 1}} {
		lambda := 0.6 * float64(len(speeds))
		got, err := DrawnExact(1, lambda, speeds)
		if err != nil {
			t.Fatal(err)
		}
		want, k := 0.0, float64(len(speeds))
		for _, mu := range speeds {
			want += lambda / k / (mu * (mu - lambda/k)) / k
		}
		if !near(got.Wait, want, 1e-8) {
			t.Errorf("d=1, speeds %v: %v, random split %v", speeds, got.Wait, want)
		}
	}
	for _, d := range []int{1, 2, 5} {
		got, err := DrawnExact(d, 0.8, []float64{1})
		if want := 0.8 / 0.2; err != nil || !near(got.Wait, want, 1e-8) {
			t.Errorf("K=1, d=%d: %v %v, M/M/1 %v", d, got, err, want)
		}
	}
	for _, speeds := range [][]float64{{1, 1}, {2, 1}} {
		got, err := DrawnExact(40, 0.8*(speeds[0]+speeds[1]), speeds)
		want, err2 := DispatchExact(DispatchRule{}, 0.8*(speeds[0]+speeds[1]), speeds)
		if err != nil || err2 != nil || !near(got.Wait, want.Wait, 1e-8) {
			t.Errorf("d=40, speeds %v: %v %v, JSQ %v %v", speeds, got, err, want, err2)
		}
	}
	// More draws, a better choice: between JSQ and random.
	d2, _ := DrawnExact(2, 1.6, []float64{1, 1})
	jsq2, _ := DispatchExact(DispatchRule{D: 2}, 1.6, []float64{1, 1})
	if !(d2.Wait > jsq2.Wait && d2.Wait < 4) {
		t.Errorf("2 draws with replacement %v: not between JSQ's %v and M/M/1's 4", d2.Wait, jsq2.Wait)
	}
	_, err := DrawnExact(2, 2.6, []float64{3, 0.5})
	wantErr(t, err, "unstable", "the 1 slowest servers", "need lambda < 2")
	_, err = DrawnExact(2, 1, []float64{1, 1, 1, 1})
	wantErr(t, err, "K=4", "need 1 <= K <= 3")
	_, err = DrawnExact(0, 1, []float64{1, 1})
	wantErr(t, err, "d=0")
}
